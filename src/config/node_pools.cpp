// Readers of the nodePools section: pools that are not manifests, and the
// architectures of instance types archfit does not know.
#include <set>

#include <archfit/config/names.hpp>
#include <archfit/config/schema.hpp>

namespace archfit::config {

namespace {

nodepools::Taint read_taint(const Field& item) {
  nodepools::Taint t;
  for (const Field::Entry& e : item.entries({"key", "value", "effect"})) {
    if (e.value.is_null()) continue;
    if (e.key == "key") {
      t.key = e.value.as_string();
      require(Syntax::QualifiedName, t.key, "taint key", e.value);
    } else if (e.key == "value") {
      t.value = e.value.as_string();
      if (!t.value.empty()) require(Syntax::LabelValue, t.value, "taint value", e.value);
    } else {
      static const std::vector<std::string_view> kEffects = {"NoSchedule", "PreferNoSchedule",
                                                             "NoExecute"};
      t.effect = kEffects[e.value.as_enum("an effect", kEffects)];
    }
  }
  if (t.key.empty())
    item.fail("a taint needs a key, e.g. {key: dedicated, value: gpu, effect: NoSchedule}");
  if (t.effect.empty())
    item.fail("a taint needs an effect: NoSchedule, PreferNoSchedule or NoExecute");
  return t;
}

}  // namespace

void read_declared_pools(const Field& value, ParsedConfig& out) {
  std::vector<nodepools::Pool>& declared = out.config.node_pools.declared;
  declared.clear();
  std::set<std::string> names;
  for (const Field& item : value.items()) {
    nodepools::Pool p;
    p.source = nodepools::PoolSource::Declared;
    Location where = item.where();
    p.file = where.file;
    p.line = where.line;
    p.column = where.column;
    for (const Field::Entry& e :
         item.entries({"name", "labels", "taints", "archs", "os", "wellKnownLabels"})) {
      if (e.value.is_null()) continue;
      if (e.key == "os") {
        static const std::vector<std::string_view> kSystems = {"linux", "windows"};
        p.os = std::string(kSystems[e.value.as_enum("an operating system", kSystems)]);
      } else if (e.key == "wellKnownLabels") {
        std::set<std::string> keys;
        for (const Field& k : e.value.items()) {
          std::string key = k.as_string();
          if (!nodepools::is_well_known_node_label(key)) {
            k.fail("\"" + key + "\" is not a well-known label a node carries; these are " +
                   nodepools::well_known_node_labels());
          }
          keys.insert(std::move(key));
        }
        p.well_known = std::move(keys);
      } else if (e.key == "name") {
        p.name = e.value.as_string();
        if (!names.insert(p.name).second) e.value.fail("names a pool twice: \"" + p.name + "\"");
      } else if (e.key == "labels") {
        p.labels = read_labels(e.value);
      } else if (e.key == "taints") {
        for (const Field& t : e.value.items()) {
          nodepools::Taint taint = read_taint(t);
          for (const nodepools::Taint& other : p.taints) {
            if (other.key == taint.key && other.effect == taint.effect) {
              t.fail("a second taint with key " + taint.key + " and effect " + taint.effect +
                     ": a node carries one taint of a key and effect (the API server refuses "
                     "such a Node)");
            }
          }
          p.taints.push_back(std::move(taint));
        }
      } else {
        for (const Field& a : e.value.items())
          p.instance_archs.insert(a.as_architecture());
      }
    }
    if (p.name.empty()) item.fail("a pool needs a name, e.g. {name: arm-spot, archs: [arm64]}");
    if (!p.instance_archs.empty()) {
      p.requirements.push_back(
          nodepools::Requirement{nodepools::kArchLabel,
                                 nodepools::Operator::In,
                                 {p.instance_archs.begin(), p.instance_archs.end()}});
    }
    declared.push_back(std::move(p));
  }
}

void read_instance_archs(const Field& value, ParsedConfig& out) {
  std::map<std::string, std::string>& archs = out.config.node_pools.instance_archs;
  archs.clear();
  for (const Field::Entry& e : value.entries())
    archs[e.key] = e.value.as_architecture();
}

}  // namespace archfit::config
