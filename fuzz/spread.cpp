// Weighted spread on a fuzzed stream: the engine's fix and --remove over the
// input with its annotations, PodDistributors and pools, under no profile, a
// split profile for every Deployment, and one whose groups' pieces share a
// name. Besides crashes and internal errors (a plan that outlived the groups
// it pointed into was one) it checks the laws: what fix writes reads again
// (a document the input could not read is left as it was);
// a second fix changes nothing; --remove after fix gives what --remove gives
// on the input.
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/cache/lock_file.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/resolve/resolver.hpp>
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

run::RunSink quiet_sink() {
  run::RunSink sink;
  sink.finding = [](const findings::Finding&) {};
  return sink;
}

spread::SpreadProfile profile(const char* name,
                              std::vector<std::pair<const char*, const char*>> labels) {
  spread::SpreadProfile p;
  p.name = name;
  p.assigns = true;  // workloads: {} selects every Deployment
  std::uint32_t weight = 1;
  for (const auto& [key, value] : labels)
    p.groups.push_back(spread::ProfileGroup{key, value, "", {0, weight++}});
  return p;
}

std::string run_task(const std::string& text, const placement::Config& config, run::Task task) {
  resolve::Sources offline;
  offline.offline = true;
  resolve::Resolver resolver(resolve::Settings(), cache::LockFile::parse(kLock, "archfit.lock"),
                             "archfit.lock", offline);
  app::Features features;
  run::RunOptions options;
  options.features = features.list();
  run::RunResult r = run::run_pipeline({run::Input::in_memory("fuzz.yaml", text)}, config, resolver,
                                       task, quiet_sink(), options);
  return r.files.at(0).output();
}

bool parses(std::string_view text, std::string* error = nullptr) {
  try {
    (void)yaml::parse_document(text);
    return true;
  } catch (const Error& e) {
    if (error) *error = e.what();
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string text(fuzz::text_of(data + 1, size - 1));
  placement::Config config = placement::Config::defaults();
  switch (data[0] % 3) {
    case 1:
      config.node_pools.spread_profiles.push_back(
          profile("by-type", {{"type", "spot"}, {"type", "on-demand"}}));
      break;
    case 2:
      config.node_pools.spread_profiles.push_back(
          profile("same-names", {{"type", "spot"}, {"capacity", "spot"}}));
      break;
    default:
      break;
  }
  fuzz::expect_clean([&] {
    std::string fixed = run_task(text, config, run::Task::Fix);
    auto broken = [&](const char* law, const std::string& a, const std::string& b) {
      std::fprintf(stderr, "--- input\n%s\n--- fixed\n%s\n--- one\n%s\n--- other\n%s\n---\n",
                   text.c_str(), fixed.c_str(), a.c_str(), b.c_str());
      fuzz::bug(law);
    };
    if (fixed == text) return;
    // A document that does not parse is a finding and is left as it is, so
    // what fix wrote may hold it; any other document must read again.
    std::set<std::string> unreadable;
    for (const yaml::DocumentText& doc : yaml::split_stream(text))
      if (!parses(doc.text)) unreadable.insert(std::string(doc.text));
    for (const yaml::DocumentText& doc : yaml::split_stream(fixed))
      if (std::string error;
          !parses(doc.text, &error) && !unreadable.contains(std::string(doc.text)))
        broken("what fix wrote does not parse", error, std::string(doc.text));
    if (std::string again = run_task(fixed, config, run::Task::Fix); again != fixed)
      broken("a second fix changed the text", again, fixed);
    std::string removed_after_fix = run_task(fixed, config, run::Task::Remove);
    std::string removed = run_task(text, config, run::Task::Remove);
    if (removed_after_fix != removed)
      broken("--remove after fix does not give what --remove gives on the input", removed_after_fix,
             removed);
  });
  return 0;
}
