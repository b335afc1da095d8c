#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <archfit/app/messages.hpp>
#include <archfit/app/session.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/splices.hpp>
#include <archfit/base/spool.hpp>
#include <archfit/base/untrusted.hpp>
#include <archfit/edit/editor.hpp>
#include <archfit/edit/layout.hpp>
#include <archfit/surface/krm/krm.hpp>
#include <archfit/surface/krm/resource_list.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::surface::krm {

namespace {

// Where an item came from, as kustomize and kpt annotate it.
struct ItemFile {
  std::string path;
  std::string index;
};
using ItemKey = std::tuple<std::string, std::string, std::string, std::string>;

std::string annotation(yaml::NodeRef item, const char* a, const char* b) {
  for (const char* key : {a, b}) {
    yaml::NodeRef v = yaml::lookup_path(item, {"metadata", "annotations", key});
    if (v.is_scalar()) return std::string(v.scalar());
  }
  return {};
}

std::map<ItemKey, ItemFile> item_files(yaml::NodeRef items) {
  std::map<ItemKey, ItemFile> out;
  items = items.resolved();
  if (!items.is_sequence()) return out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    yaml::NodeRef item = items.item(i);
    ItemKey key{yaml::scalar_text(yaml::lookup_path(item, {"apiVersion"})),
                yaml::scalar_text(yaml::lookup_path(item, {"kind"})),
                yaml::scalar_text(yaml::lookup_path(item, {"metadata", "name"})),
                yaml::scalar_text(yaml::lookup_path(item, {"metadata", "namespace"}))};
    out.emplace(
        key,
        ItemFile{
            annotation(item, "config.kubernetes.io/path", "internal.config.kubernetes.io/path"),
            annotation(item, "config.kubernetes.io/index", "internal.config.kubernetes.io/index")});
  }
  return out;
}

// A field path as kyaml writes one: the path within the item (not within
// the ResourceList, when it was read whole), a list item by its name as
// `containers[name=web]`.
std::string kyaml_path(const yaml::Path& path) {
  std::size_t from = 0;
  if (path.size() > 2 && !path[0].is_index && !path[0].by_name && path[0].key == "items" &&
      path[1].is_index) {
    from = 2;
  }
  std::string out;
  for (std::size_t i = from; i < path.size(); ++i) {
    const yaml::PathStep& step = path[i];
    if (step.is_index) {
      out += '[' + std::to_string(step.index) + ']';
    } else if (step.by_name) {
      out += "[name=" + step.key + ']';
    } else {
      if (!out.empty()) out += '.';
      out += step.key;
    }
  }
  return out;
}

// Each finding's item's path and index annotations, known before the run
// so that a finding becomes its result as it is reported.
class ItemFiles {
 public:
  // From the items of the list parsed whole: by the object each one is.
  explicit ItemFiles(yaml::NodeRef root) : by_key_(item_files(root.get("items"))) {}
  // From the items' own documents (a finding's document is its item), read
  // before the run takes their stream; only items that carry the annotations
  // are parsed.
  ItemFiles(const ResourceListItems& split, std::string_view stream) : by_document_mode_(true) {
    for (std::size_t i = 0; i < split.size(); ++i) {
      std::string_view doc = split.document(stream, i);
      if (doc.find("config.kubernetes.io/") == std::string_view::npos) continue;
      try {
        // Read as it is: an item with a key given twice is reported on its
        // file too.
        yaml::Limits as_is;
        as_is.reject_duplicate_keys = false;
        yaml::Tree tree = yaml::parse_document(doc, 0, as_is);
        ItemFile file{annotation(tree.root(), "config.kubernetes.io/path",
                                 "internal.config.kubernetes.io/path"),
                      annotation(tree.root(), "config.kubernetes.io/index",
                                 "internal.config.kubernetes.io/index")};
        if (!file.path.empty() || !file.index.empty())
          by_document_.emplace(static_cast<std::uint32_t>(i), std::move(file));
      } catch (const Error&) {
        // It does not read alone: the run says so, and reads the list whole.
      }
    }
  }
  ItemFile of(const findings::Finding& f) const {
    if (by_document_mode_) {
      auto it = by_document_.find(f.document);
      return it != by_document_.end() ? it->second : ItemFile{};
    }
    auto it = by_key_.find(ItemKey{f.resource.api_version, f.resource.kind, f.resource.name,
                                   f.resource.namespace_name});
    return it != by_key_.end() ? it->second : ItemFile{};
  }

 private:
  bool by_document_mode_ = false;
  std::map<ItemKey, ItemFile> by_key_;
  std::map<std::uint32_t, ItemFile> by_document_;
};

// A finding fix fixed, as the result that says so: "fixed missing-toleration:
// the pods ... do not tolerate their taints (...)".
findings::Finding changed_result(findings::Finding f) {
  f.severity = findings::Severity::Info;
  std::string_view what = f.message;
  std::size_t promise = what.rfind("; archfit fix ");
  if (promise != std::string_view::npos) what = what.substr(0, promise);
  f.message = "fixed " + f.rule + ": " + std::string(what);
  return f;
}

// One result of the KRM functions spec, as a one-line JSON object, in the
// ResourceList's YAML: ASCII only (every other character as \uXXXX), so that
// no control character of the input's reaches it and every YAML reader
// (YAML 1.1's too, which refuses C1 controls) takes it.
std::string result_json(const findings::Finding& f, const ItemFile& file) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer, rapidjson::UTF8<>, rapidjson::ASCII<>> w(buffer);
  auto str = [&w](std::string_view s) {
    const std::string valid = for_json(Untrusted(s));
    w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
  };
  w.StartObject();
  w.Key("message");
  str(f.message);
  w.Key("severity");
  str(findings::severity_name(f.severity));
  // A document archfit could not read may not say what it is.
  if (!f.resource.kind.empty()) {
    w.Key("resourceRef");
    w.StartObject();
    w.Key("apiVersion");
    str(f.resource.api_version);
    w.Key("kind");
    str(f.resource.kind);
    w.Key("name");
    str(f.resource.name);
    if (!f.resource.namespace_name.empty()) {
      w.Key("namespace");
      str(f.resource.namespace_name);
    }
    w.EndObject();
  }
  if (!f.field_path.empty()) {
    w.Key("field");
    w.StartObject();
    w.Key("path");
    str(kyaml_path(f.field_path));
    if (!f.current.empty()) {
      w.Key("currentValue");
      str(f.current);
    }
    if (!f.proposed.empty()) {
      w.Key("proposedValue");
      str(f.proposed);
    }
    w.EndObject();
  }
  if (!file.path.empty()) {
    w.Key("file");
    w.StartObject();
    w.Key("path");
    str(file.path);
    if (!file.index.empty()) {
      w.Key("index");
      w.Int(std::atoi(file.index.c_str()));
    }
    w.EndObject();
  }
  w.Key("tags");
  w.StartObject();
  w.Key("rule");
  str(f.rule);
  w.Key("source");
  str("archfit");
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

// `text` (the ResourceList) with `results` added after any it has, where it
// is not a block mapping without results (the simple case appends them).
std::string with_results(std::string text, const std::vector<std::string>& results) {
  if (results.empty()) return text;
  yaml::Tree tree = yaml::parse_document(text);
  yaml::NodeRef root = tree.root().resolved();
  std::string all = "[";
  for (std::size_t i = 0; i < results.size(); ++i)
    all += (i ? "," : "") + results[i];
  all += "]";
  yaml::Tree ours = yaml::parse_document(all);
  yaml::Value value = yaml::Value::sequence();
  if (yaml::NodeRef old = root.get("results").resolved(); old.is_sequence()) {
    value = yaml::to_value(old);
  }
  yaml::Value added = yaml::to_value(ours.root());
  for (const yaml::Value& v : added.items())
    value.items().push_back(v);
  edit::DocumentEditor editor(tree, edit::detect_layout(tree));
  std::string why;
  if (!editor.try_set(root, {"results"}, value, static_cast<std::size_t>(-1), &why)) {
    fail(ErrorKind::Input, "cannot add results to the ResourceList: " + why);
  }
  return editor.apply();
}

// Above this size the list itself waits on disk while its items are fixed.
constexpr std::size_t kHoldOnDiskAbove = std::size_t{32} << 20;

}  // namespace

app::ExitCode krm(const KrmRequest& o, std::string input_text, app::Output& out,
                  std::ostream& err) {
  std::string_view input = input_text;
  // The items as documents of their own, analysed as a stream's are: found by
  // a line scan when the list is shaped for it (the rest then read from a
  // skeleton at the same lines), else from the parsed list; the whole list as
  // one document when they cannot be cut out exactly.
  std::optional<ResourceListItems> split = ResourceListItems::scan(input);
  yaml::Tree tree = yaml::parse_document(split ? std::string_view(split->skeleton()) : input);
  yaml::NodeRef root = tree.root().resolved();
  if (!root.is_mapping() ||
      yaml::scalar_text(yaml::lookup_path(root, {"kind"})) != "ResourceList") {
    fail(ErrorKind::Input,
         "<stdin>: expected a ResourceList (apiVersion: config.kubernetes.io/v1, kind: "
         "ResourceList) as KRM functions get; for a plain stream use archfit fix -");
  }
  // A large list whose items were cut out by the scan is read again only
  // to write it out: from a temporary file, while the run holds the items.
  Spool held(0);
  if (split && input.size() > kHoldOnDiskAbove) {
    held.out().write(input.data(), static_cast<std::streamsize>(input.size()));
    input = held.view();
    std::string().swap(input_text);
  }
  if (!split) split = ResourceListItems::split(input, root.get("items"));
  yaml::NodeRef function_config = root.get("functionConfig").resolved();
  const bool lint = o.mode == "lint";
  app::Request request;
  request.flags = o.flags;
  request.env = o.env;
  request.unattended = "a KRM function";
  if (function_config && !function_config.is_null()) request.function_config = function_config;
  request.split = false;  // an item stays one item
  request.task = lint ? run::Task::Lint : run::Task::Fix;
  // fix hears of every finding, the fixed ones too.
  request.report_everything = !lint;
  std::optional<ItemFiles> files;
  if (split) {
    files.emplace(*split, split->stream());
  } else {
    files.emplace(root);
  }

  // Each finding becomes its result as it is reported: one JSON line in a
  // spool, so that 100,000 findings cost disk rather than memory.
  bool simple = root.style() == yaml::Style::Block && !root.get("results");
  auto results = std::make_unique<Spool>();
  std::vector<std::string> result_list;  // where the results are merged into the list as data
  report::Counts counts;
  run::RunSink sink;
  auto add_result = [&](const findings::Finding& f) {
    counts.add(f.severity);
    if (simple) {
      results->out() << "- " << result_json(f, files->of(f)) << '\n';
    } else {
      result_list.push_back(result_json(f, files->of(f)));
    }
  };
  sink.finding = [&](findings::Finding&& f) {
    if (lint) return add_result(f);
    // fix returns what it changed, as kpt's mutators do (info, with the
    // field as it was and as written), and what is left for a person.
    if (f.fixable) return add_result(changed_result(std::move(f)));
    if (f.severity >= findings::Severity::Warning) add_result(f);
  };
  // The items' stream is the session's to hold (no copy); join() reads it
  // there. A second session reads the list whole when the items do not read
  // alone.
  std::optional<app::Session> session;
  auto analyse = [&] {
    app::Request r = request;
    r.stream = app::Stream{"<stdin>", split ? split->take_stream() : std::string(input), false};
    session.emplace(std::move(r), err);
    return session->run(sink);
  };
  yaml::Tree whole;  // the list parsed as one document, when the items did not read alone
  yaml::NodeRef whole_root;
  app::Outcome outcome = analyse();
  if (split && outcome.run.files.at(0).stopped) {
    // An item that does not read alone (an alias to another item's anchor):
    // the list as one document, which also places an error at its line.
    split.reset();
    whole = yaml::parse_document(input);
    whole_root = whole.root().resolved();
    files.emplace(whole_root);
    results = std::make_unique<Spool>();
    result_list.clear();
    counts = report::Counts();
    outcome = analyse();
  }
  const run::RunResult& run = outcome.run;
  const run::FileResult& file = run.files.at(0);
  if (simple) {
    // The common case: the list, its edited items joined in piece by piece,
    // then the results: neither the new list nor its results held whole.
    out.write([&](const std::function<void(std::string_view)>& put) {
      char last = '\n';
      auto list = [&](std::string_view part) {
        if (!part.empty()) last = part.back();
        put(part);
      };
      if (lint || !file.changed()) {
        list(input);
      } else if (split) {
        split->join(input, file.original, file.edits, list);
      } else {
        for (std::string_view part : file.output_parts())
          list(part);
      }
      if (counts.errors + counts.warnings + counts.infos == 0) return;
      put(last == '\n' ? "results:\n" : "\nresults:\n");
      results->content()(put);
    });
  } else {
    std::string output = lint || !file.changed() ? std::string(input)
                         : split                 ? split->join(input, file.original, file.edits)
                                                 : file.output();
    out.write(with_results(std::move(output), result_list));
  }
  std::size_t items = split ? split->size() : 0;
  if (yaml::NodeRef list = (whole_root ? whole_root : root).get("items").resolved();
      !split && list.is_sequence()) {
    items = list.size();
  }
  err << "archfit krm: " << items << " item" << (items == 1 ? "" : "s") << ", " << run.workloads
      << " workload" << (run.workloads == 1 ? "" : "s") << (lint ? " checked" : "")
      << (!lint && file.changed() ? ", fixed" : "") << "; " << counts.errors << " errors, "
      << counts.warnings << " warnings, " << counts.infos << " infos\n";
  app::print_resolved(err, outcome.resolution);
  if (run.unresolved_failure) {
    err << app::kUnresolvedFailure << '\n';
    return app::kUnresolved;
  }
  return counts.errors > 0 ? app::kChangesOrFindings : app::kOk;
}

}  // namespace archfit::surface::krm
