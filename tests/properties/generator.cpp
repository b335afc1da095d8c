#include "properties/generator.hpp"

#include <algorithm>

namespace archfit::testing {

namespace {

class Renderer {
 public:
  explicit Renderer(const Layout& layout) : layout_(layout), nl_(layout.crlf ? "\r\n" : "\n") {}

  std::string document(const GenNode& root) {
    if (root.kind == GenNode::Kind::Mapping && !root.flow && !root.entries.empty()) {
      block(root, 0);
    } else {
      out_ += inline_text(root) + nl_;
    }
    return std::move(out_);
  }

 private:
  static bool is_block(const GenNode& n) {
    return !n.flow && ((n.kind == GenNode::Kind::Mapping && !n.entries.empty()) ||
                       (n.kind == GenNode::Kind::Sequence && !n.items.empty()));
  }
  static std::string anchor(const GenNode& n) {
    return (n.tag.empty() ? "" : n.tag + " ") + (n.anchor.empty() ? "" : "&" + n.anchor + " ");
  }
  // The properties of a block collection, on its key's line.
  static std::string block_props(const GenNode& n) {
    return (n.tag.empty() ? "" : " " + n.tag) + (n.anchor.empty() ? "" : " &" + n.anchor);
  }
  static std::string comment(const GenNode& n) {
    return n.comment.empty() ? "" : "  # " + n.comment;
  }

  std::string inline_text(const GenNode& n) const {
    switch (n.kind) {
      case GenNode::Kind::Alias:
        return "*" + n.text;
      case GenNode::Kind::Scalar:
        return anchor(n) + n.text;
      case GenNode::Kind::Mapping: {
        std::string out = anchor(n) + "{";
        for (std::size_t i = 0; i < n.entries.size(); ++i) {
          if (i > 0) out += ", ";
          out += n.entries[i].first + ": " + inline_text(n.entries[i].second);
        }
        return out + "}";
      }
      case GenNode::Kind::Sequence: {
        std::string out = anchor(n) + "[";
        for (std::size_t i = 0; i < n.items.size(); ++i) {
          if (i > 0) out += ", ";
          out += inline_text(n.items[i]);
        }
        return out + "]";
      }
    }
    return {};
  }

  void spaces(int n) { out_.append(static_cast<std::size_t>(n), ' '); }

  // The entries or items of a block collection, each on lines of its own.
  void block(const GenNode& n, int column) {
    if (n.kind == GenNode::Kind::Mapping) {
      for (const GenEntry& e : n.entries) {
        spaces(column);
        if (e.explicit_key) {
          // "? key", then ":" at the key's column; a block value nested.
          out_ += "? " + e.first + nl_;
          spaces(column);
          out_ += ":";
          after_key(e.second, column, true);
          continue;
        }
        out_ += e.first + ":";
        after_key(e.second, column);
      }
      return;
    }
    for (const GenNode& item : n.items) {
      spaces(column);
      out_ += "-";
      after_dash(item, column);
    }
  }

  void after_key(const GenNode& v, int column, bool nest = false) {
    if (!is_block(v)) {
      std::string text = inline_text(v);
      out_ += (text.empty() ? "" : " " + text) + comment(v) + nl_;
      return;
    }
    out_ += block_props(v) + comment(v) + nl_;
    bool indented = v.kind == GenNode::Kind::Mapping || layout_.indent_sequences || nest;
    block(v, column + (indented ? layout_.indent : 0));
  }

  void after_dash(const GenNode& item, int dash) {
    if (!is_block(item) || item.kind == GenNode::Kind::Sequence || !item.anchor.empty()) {
      if (is_block(item)) {
        out_ += block_props(item) + nl_;
        block(item, dash + 2);
        return;
      }
      out_ += " " + inline_text(item) + comment(item) + nl_;
      return;
    }
    // The first entry on the dash's line, the others below it.
    const auto& first = item.entries.front();
    out_ += " " + first.first + ":";
    after_key(first.second, dash + 2);
    for (std::size_t i = 1; i < item.entries.size(); ++i) {
      spaces(dash + 2);
      out_ += item.entries[i].first + ":";
      after_key(item.entries[i].second, dash + 2);
    }
  }

  const Layout& layout_;
  std::string nl_;
  std::string out_;
};

const char* const kKinds[] = {"Deployment", "Deployment", "Deployment", "StatefulSet",
                              "DaemonSet",  "Job",        "CronJob",    "Pod"};

}  // namespace

std::string render(const GenNode& root, const Layout& layout) {
  return Renderer(layout).document(root);
}

ManifestGenerator::ManifestGenerator(std::uint64_t seed, std::size_t image_count)
    : rng_(seed), image_count_(image_count) {}

std::vector<std::string> ManifestGenerator::images() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < image_count_; ++i)
    out.push_back("registry.example.com/gen/img" + std::to_string(i) + ":1");
  return out;
}

std::string ManifestGenerator::maybe_comment() {
  return chance(12) ? "note " + std::to_string(pick(100)) : std::string();
}

GenNode ManifestGenerator::strings(const std::vector<std::string>& values, bool flow) {
  GenNode seq = GenNode::sequence(flow);
  for (const std::string& v : values)
    seq.push(GenNode::scalar(v));
  return seq;
}

GenNode ManifestGenerator::requirement() {
  GenNode r = GenNode::mapping(chance(30));
  auto set = [&r](const char* key, const char* op) {
    r.add("key", GenNode::scalar(key));
    r.add("operator", GenNode::scalar(op));
  };
  bool flow_values = chance(50);
  switch (pick(40) < 39 ? pick(11) : 11) {
    case 0:
    case 1:
    case 2: {
      static const std::vector<std::vector<std::string>> subsets = {
          {"amd64"}, {"arm64"}, {"amd64", "arm64"}, {"arm64", "amd64"}, {"amd64", "ppc64le"}};
      set("kubernetes.io/arch", "In");
      r.add("values", strings(subsets[pick(5)], flow_values));
      break;
    }
    case 3:
      set("kubernetes.io/arch", "NotIn");
      r.add("values", strings({chance(50) ? "arm64" : "amd64"}, flow_values));
      break;
    case 4:
      set("kubernetes.io/os", "In");
      r.add("values", strings({"linux"}, flow_values));
      break;
    case 5:
    case 6:
      set("topology.kubernetes.io/zone", "In");
      r.add("values", strings({"zone-a", "zone-b"}, flow_values));
      break;
    case 7:
      set("kubernetes.io/arch", "Exists");
      break;
    case 8:
      set("disktype", "DoesNotExist");
      break;
    case 9:
      set("beta.kubernetes.io/arch", "In");
      r.add("values", strings({chance(50) ? "amd64" : "arm64"}, flow_values));
      break;
    case 10:
      set("node.example.com/cores", "Gt");
      r.add("values", strings({"\"4\""}, flow_values));
      break;
    default:
      // What the API server refuses: archfit must leave the template alone.
      if (chance(50)) {
        set("kubernetes.io/arch", "Equals");
        r.add("values", strings({"amd64"}, flow_values));
      } else {
        set("kubernetes.io/arch", "In");
        r.add("values", GenNode::sequence(true));
      }
  }
  r.comment = r.flow ? std::string() : maybe_comment();
  return r;
}

GenNode ManifestGenerator::term(bool preference) {
  GenNode t = GenNode::mapping(chance(15));
  int shape = pick(40);
  if (shape == 0 && !preference) return t;  // an empty term: refused by lint
  if (shape <= 4 && !preference) {
    GenNode fields = GenNode::sequence(chance(50));
    GenNode f = GenNode::mapping(true);
    f.add("key", GenNode::scalar("metadata.name"));
    f.add("operator", GenNode::scalar("In"));
    f.add("values", strings({"node-" + std::to_string(pick(5))}, true));
    fields.push(std::move(f));
    t.add("matchFields", std::move(fields));
    if (chance(60)) return t;
  }
  GenNode expressions = GenNode::sequence(chance(20));
  int n = 1 + pick(3);
  for (int i = 0; i < n; ++i)
    expressions.push(requirement());
  t.add("matchExpressions", std::move(expressions));
  return t;
}

GenNode ManifestGenerator::affinity() {
  int shape = pick(20);
  if (shape == 0) return GenNode::mapping(true);  // {}
  if (shape == 1) return GenNode::scalar(chance(50) ? "~" : "null");
  if (shape == 2) return GenNode::scalar("");
  GenNode a = GenNode::mapping(chance(10));
  if (chance(15)) {
    GenNode anti = GenNode::mapping(true);
    GenNode item = GenNode::mapping(true);
    item.add("topologyKey", GenNode::scalar("kubernetes.io/hostname"));
    GenNode selector = GenNode::mapping(true);
    GenNode labels = GenNode::mapping(true);
    labels.add("app", GenNode::scalar("x"));
    selector.add("matchLabels", std::move(labels));
    item.add("labelSelector", std::move(selector));
    GenNode list = GenNode::sequence(true);
    list.push(std::move(item));
    anti.add("requiredDuringSchedulingIgnoredDuringExecution", std::move(list));
    a.add("podAntiAffinity", std::move(anti));
  }
  GenNode node = GenNode::mapping(a.flow || chance(10));
  if (chance(75)) {
    GenNode required = GenNode::mapping(node.flow);
    GenNode terms = GenNode::sequence(node.flow || chance(10));
    int n = 1 + pick(3);
    for (int i = 0; i < n; ++i)
      terms.push(term(false));
    required.add("nodeSelectorTerms", std::move(terms));
    node.add("requiredDuringSchedulingIgnoredDuringExecution", std::move(required));
  }
  if (chance(35)) {
    GenNode preferred = GenNode::sequence(node.flow || chance(20));
    int n = 1 + pick(2);
    for (int i = 0; i < n; ++i) {
      GenNode item = GenNode::mapping(chance(20));
      item.add("weight", GenNode::scalar(std::to_string(1 + pick(100))));
      item.add("preference", term(true));
      preferred.push(std::move(item));
    }
    node.add("preferredDuringSchedulingIgnoredDuringExecution", std::move(preferred));
  }
  if (!node.entries.empty() || chance(30)) a.add("nodeAffinity", std::move(node));
  if (a.entries.empty()) return GenNode::mapping(true);
  return a;
}

GenNode ManifestGenerator::tolerations() {
  int shape = pick(20);
  if (shape == 0) return GenNode::sequence(true);  // []
  if (shape == 1) return GenNode::scalar("~");
  GenNode list = GenNode::sequence(chance(20));
  int n = 1 + pick(3);
  for (int i = 0; i < n; ++i) {
    GenNode t = GenNode::mapping(list.flow || chance(25));
    switch (pick(7)) {
      case 0:
        t.add("key", GenNode::scalar("dedicated"));
        t.add("operator", GenNode::scalar("Exists"));
        break;
      case 1:  // the very toleration archfit would add
        t.add("key", GenNode::scalar("kubernetes.io/arch"));
        t.add("operator", GenNode::scalar("Equal"));
        t.add("value", GenNode::scalar("arm64"));
        t.add("effect", GenNode::scalar("NoSchedule"));
        break;
      case 2:
        t.add("operator", GenNode::scalar("Exists"));
        break;
      case 3:
        t.add("key", GenNode::scalar("kubernetes.io/arch"));
        t.add("operator", GenNode::scalar("Exists"));
        t.add("effect", GenNode::scalar("NoSchedule"));
        break;
      case 4:
        t.add("key", GenNode::scalar("node.kubernetes.io/not-ready"));
        t.add("operator", GenNode::scalar("Exists"));
        t.add("effect", GenNode::scalar("NoExecute"));
        t.add("tolerationSeconds", GenNode::scalar("300"));
        break;
      case 5:
        t.add("key", GenNode::scalar("kubernetes.io/arch"));
        t.add("value", GenNode::scalar("arm64"));
        t.add("effect", GenNode::scalar("PreferNoSchedule"));
        break;
      default:
        t.add("key", GenNode::scalar("team"));
        t.add("operator", GenNode::scalar("Equal"));
        t.add("value", GenNode::scalar("\"shop\""));
        t.add("effect", GenNode::scalar("NoSchedule"));
    }
    t.comment = t.flow ? std::string() : maybe_comment();
    list.push(std::move(t));
  }
  return list;
}

GenNode ManifestGenerator::node_selector() {
  if (chance(10)) return GenNode::mapping(true);
  GenNode m = GenNode::mapping(chance(35));
  static const std::pair<const char*, const char*> kEntries[] = {
      {"kubernetes.io/arch", "amd64"},
      {"kubernetes.io/arch", "arm64"},
      {"kubernetes.io/os", "linux"},
      {"disktype", "ssd"},
      {"beta.kubernetes.io/arch", "amd64"}};
  int n = 1 + pick(2);
  for (int i = 0; i < n; ++i) {
    const auto& [key, value] = kEntries[pick(5)];
    bool present = false;
    for (const auto& e : m.entries)
      present = present || e.first == key;
    if (!present) m.add(key, GenNode::scalar(value)).comment = m.flow ? "" : maybe_comment();
  }
  return m;
}

GenNode ManifestGenerator::containers(const char* prefix, int count) {
  GenNode list = GenNode::sequence(chance(10));
  for (int i = 0; i < count; ++i) {
    GenNode c = GenNode::mapping(list.flow || chance(15));
    c.add("name", GenNode::scalar(prefix + std::to_string(i)));
    std::string image = "registry.example.com/gen/img" +
                        std::to_string(pick(static_cast<int>(image_count_))) + ":1";
    c.add("image", GenNode::scalar(chance(30) ? "\"" + image + "\"" : image));
    if (!c.flow && chance(30)) {
      GenNode ports = GenNode::sequence();
      GenNode port = GenNode::mapping();
      port.add("containerPort", GenNode::scalar("8080"));
      ports.push(std::move(port));
      c.add("ports", std::move(ports));
    }
    list.push(std::move(c));
  }
  return list;
}

GenNode ManifestGenerator::pod_spec() {
  GenNode spec = GenNode::mapping(chance(4));
  std::vector<std::pair<std::string, GenNode>> fields;
  fields.emplace_back("containers", containers("app", 1 + pick(2)));
  if (chance(30)) fields.emplace_back("initContainers", containers("init", 1 + pick(2)));
  if (chance(25)) fields.emplace_back("nodeSelector", node_selector());
  if (chance(45)) fields.emplace_back("affinity", affinity());
  if (chance(35)) fields.emplace_back("tolerations", tolerations());
  if (chance(20)) fields.emplace_back("restartPolicy", GenNode::scalar("Always"));
  // The placement fields before or after the containers.
  if (chance(30)) std::rotate(fields.begin(), fields.begin() + 1, fields.end());
  for (auto& [key, value] : fields) {
    if (spec.flow && value.kind != GenNode::Kind::Scalar) value.flow = true;
    // Tags that say what the value is anyway.
    if (chance(4)) {
      value.tag = value.kind == GenNode::Kind::Mapping    ? "!!map"
                  : value.kind == GenNode::Kind::Sequence ? "!!seq"
                                                          : "!!str";
    }
    spec.add(key, std::move(value));
    if (!spec.flow && chance(4)) spec.entries.back().explicit_key = true;
  }
  return spec;
}

GenNode ManifestGenerator::pod_template(const std::string& name) {
  GenNode t = GenNode::mapping();
  int metadata = pick(10);
  if (metadata > 0) {
    GenNode m = GenNode::mapping(chance(15));
    GenNode labels = GenNode::mapping(m.flow || chance(30));
    labels.add("app", GenNode::scalar(name));
    m.add("labels", std::move(labels));
    if (metadata == 1) m.add("annotations", GenNode::mapping(true));
    if (metadata == 2) {
      GenNode annotations = GenNode::mapping(m.flow);
      annotations.add("team", GenNode::scalar("shop"));
      m.add("annotations", std::move(annotations));
    }
    t.add("metadata", std::move(m));
  }
  t.add("spec", pod_spec());
  return t;
}

GenNode ManifestGenerator::workload(const std::string& name, GenNode pod_template) {
  std::string kind = kKinds[pick(8)];
  GenNode w = GenNode::mapping();
  w.add("apiVersion", GenNode::scalar(kind == "Pod"                          ? "v1"
                                      : (kind == "Job" || kind == "CronJob") ? "batch/v1"
                                                                             : "apps/v1"));
  w.add("kind", GenNode::scalar(kind));
  GenNode metadata = GenNode::mapping();
  metadata.add("name", GenNode::scalar(name));
  w.add("metadata", std::move(metadata));
  if (kind == "Pod") {
    for (GenEntry& e : pod_template.entries) {
      if (e.first == "metadata") {
        for (GenEntry& m : e.second.entries)
          w.entries[2].second.add(m.first, std::move(m.second));
      } else {
        w.add(e.first, std::move(e.second));
        w.entries.back().explicit_key = e.explicit_key;
      }
    }
    return w;
  }
  GenNode spec = GenNode::mapping();
  if (kind == "CronJob") {
    spec.add("schedule", GenNode::scalar("\"*/5 * * * *\""));
    GenNode job = GenNode::mapping();
    GenNode job_spec = GenNode::mapping();
    job_spec.add("template", std::move(pod_template));
    job.add("spec", std::move(job_spec));
    spec.add("jobTemplate", std::move(job));
  } else {
    if (kind != "Job") {
      GenNode selector = GenNode::mapping();
      GenNode labels = GenNode::mapping(true);
      labels.add("app", GenNode::scalar(name));
      selector.add("matchLabels", std::move(labels));
      spec.add("selector", std::move(selector));
    }
    spec.add("template", std::move(pod_template));
  }
  w.add("spec", std::move(spec));
  return w;
}

std::string ManifestGenerator::document(std::size_t index) {
  Layout layout;
  layout.indent = chance(15) ? 4 : chance(8) ? 3 : 2;
  layout.indent_sequences = chance(30);
  layout.crlf = chance(8);
  std::string name = "w" + std::to_string(index);
  GenNode root;
  if (chance(8)) {
    // Workloads in a List: two sharing something through an anchor (the list
    // is read whole), or two to four on their own (read item by item).
    GenNode first = pod_template(name + "a");
    GenNode second = pod_template(name + "b");
    GenNode& spec = first.entries.back().second;
    const bool shares = chance(50);
    if (shares && chance(50)) {
      GenNode shared = GenNode::sequence();
      GenNode dedicated = GenNode::mapping(true);
      dedicated.add("key", GenNode::scalar("dedicated"));
      dedicated.add("operator", GenNode::scalar("Exists"));
      shared.push(std::move(dedicated));
      shared.anchor = "tols";
      std::erase_if(spec.entries, [](const auto& e) { return e.first == "tolerations"; });
      spec.add("tolerations", std::move(shared));
      GenNode& other = second.entries.back().second;
      std::erase_if(other.entries, [](const auto& e) { return e.first == "tolerations"; });
      other.add("tolerations", GenNode::alias("tols"));
    } else if (shares) {
      spec.anchor = "podspec";
      spec.flow = false;
      GenNode merged = GenNode::mapping();
      merged.add("<<", GenNode::alias("podspec"));
      merged.add("containers", containers("app", 1));
      second.entries.back().second = std::move(merged);
    }
    root = GenNode::mapping();
    root.add("apiVersion", GenNode::scalar("v1"));
    root.add("kind", GenNode::scalar("List"));
    GenNode items = GenNode::sequence();
    items.push(workload(name + "a", std::move(first)));
    items.push(workload(name + "b", std::move(second)));
    for (int more = shares ? 0 : pick(3); more > 0; --more)
      items.push(workload(name + std::string(1, static_cast<char>('b' + more)),
                          pod_template(name + std::string(1, static_cast<char>('b' + more)))));
    root.add("items", std::move(items));
  } else {
    root = workload(name, pod_template(name));
  }
  std::string nl = layout.crlf ? "\r\n" : "\n";
  std::string text = render(root, layout);
  if (chance(10)) text = "# generated case " + std::to_string(index) + nl + text;
  // Document markers with a comment, and an explicit end.
  std::string start = chance(10) ? "--- # document " + std::to_string(index) + nl : "---" + nl;
  if (chance(8)) text += "..." + nl;
  // A byte order mark where a stream may have one: before its first document.
  std::string bom = index == 0 && chance(50) ? "\xEF\xBB\xBF" : "";
  return bom + start + text;
}

}  // namespace archfit::testing
