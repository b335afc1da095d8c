// KRM input: a fuzzed ResourceList cut into its items (by the line scan, else
// from the parsed list) and put back. Besides crashes and internal errors it
// checks the laws: put back unedited, the list is its bytes; every item's
// document reads alone or the run says why; with the items fixed by the
// engine, the list reads again as a mapping with as many items.
#include <optional>
#include <string>

#include <archfit/cache/lock_file.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/run/run.hpp>
#include <archfit/surface/krm/resource_list.hpp>
#include <archfit/run/run.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

#include <archfit/app/features.hpp>
#include "fuzz.hpp"

namespace {

using namespace archfit;

constexpr const char* kLock = R"({"version": 1, "images": {
  "docker.io/library/amd64only:1": {"platforms": ["linux/amd64"]},
  "docker.io/library/both:1": {"platforms": ["linux/amd64", "linux/arm64"]}}})";

std::size_t items_of(std::string_view list) {
  yaml::Tree tree = yaml::parse_document(list);
  yaml::NodeRef items = tree.root().resolved().get("items").resolved();
  return items.is_sequence() ? items.size() : 0;
}

run::RunSink quiet_sink() {
  run::RunSink sink;
  sink.finding = [](const findings::Finding&) {};
  return sink;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(fuzz::text_of(data, size));
  fuzz::expect_clean([&] {
    yaml::check_encoding(text);
    std::optional<surface::krm::ResourceListItems> items = surface::krm::ResourceListItems::scan(text);
    yaml::Tree tree;
    if (!items) {
      tree = yaml::parse_document(text);
      yaml::NodeRef root = tree.root().resolved();
      if (!root.is_mapping()) return;
      items = surface::krm::ResourceListItems::split(text, root.get("items"));
      if (!items) return;
    }
    if (items->join(text, Splices()) != text)
      fuzz::bug("the items put back unedited are not the list");
    std::size_t before = items_of(text);
    resolve::Sources offline;
    offline.offline = true;
    resolve::Resolver resolver(resolve::Settings(), cache::LockFile::parse(kLock, "archfit.lock"),
                               "archfit.lock", offline);
    app::Features features;
    run::RunOptions options;
    options.features = features.list();
    options.split = false;  // an item stays one item
    run::RunResult r = run::run_pipeline({run::Input::in_memory("<stdin>", items->stream())},
                                         placement::Config::defaults(), resolver, run::Task::Fix,
                                         quiet_sink(), options);
    const run::FileResult& file = r.files.at(0);
    std::string joined = items->join(text, file.original, file.edits);
    try {
      if (items_of(joined) != before) fuzz::bug("the fixed list has another number of items");
    } catch (const Error& e) {
      fuzz::bug(("the fixed list does not parse: " + std::string(e.what())).c_str());
    }
  });
  return 0;
}
