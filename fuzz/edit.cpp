// The edit engine on a fuzzed document: parse, discover, plan, splice and
// verify, as `archfit fix` and `--remove` do with a fixed configuration and a
// fixed answer for every image. Besides crashes and internal errors it checks
// the laws: what fix writes parses; a second fix changes nothing; --remove
// after fix gives what --remove gives on the input.
#include <cstdio>
#include <functional>
#include <map>
#include <string>

#include <archfit/manifest/discover.hpp>
#include <archfit/placement/plan.hpp>
#include <archfit/run/document_edits.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

#include "fuzz.hpp"

namespace {

using namespace archfit;

const placement::Config& config() {
  static const placement::Config c = placement::Config::defaults();
  return c;
}

// Every image gets an answer from its name: one architecture, both, another
// one, or none (unresolved).
placement::ImageAnswer answer(const image::Reference& ref) {
  static std::map<std::string, image::PlatformSet> known;
  static const char* const kSets[] = {"linux/amd64", "linux/arm64", "linux/amd64,linux/arm64",
                                      "linux/s390x", ""};
  auto [it, inserted] = known.try_emplace(ref.canonical());
  if (inserted)
    it->second = image::PlatformSet::parse(kSets[std::hash<std::string>{}(ref.canonical()) % 5]);
  placement::ImageAnswer a;
  if (it->second.empty()) {
    a.why = "not in the lock file";
  } else {
    a.platforms = &it->second;
  }
  return a;
}

// The document as fix (or --remove) leaves it. Input errors leave it as it is.
std::string edited(const std::string& text, placement::Action action) {
  yaml::Tree tree;
  try {
    tree = yaml::parse_document(text);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Internal) throw;
    return text;
  }
  std::vector<manifest::Workload> workloads = manifest::discover(tree, config().kinds);
  std::vector<run::PlannedTemplate> planned;
  std::size_t index = 0;
  for (const manifest::Workload& w : workloads) {
    for (const manifest::PodTemplate& t : w.templates) {
      placement::TemplateContext where{&w, &t, "fuzz.yaml", 0, true, nullptr, {}};
      run::PlannedTemplate& p = planned.emplace_back();
      p.plan = placement::plan_template(where, config(), answer, action);
      p.where = where;
      p.path = w.path.empty() ? t.path : t.path.empty() ? w.path : w.path + "." + t.path;
      p.index = index++;
    }
  }
  run::EditOutcome outcome = run::apply_plans(tree, 0, planned, config().kinds, false);
  return outcome.changed ? outcome.text : text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(fuzz::text_of(data, size));
  fuzz::expect_clean([&] {
    yaml::check_encoding(text);
    if (yaml::split_stream(text).size() > 1) return;  // one document at a time
    std::string fixed = edited(text, placement::Action::Fix);
    if (fixed != text) {
      try {
        (void)yaml::parse_document(fixed);
      } catch (const Error& e) {
        fuzz::bug(("what fix wrote does not parse: " + std::string(e.what())).c_str());
      }
    }
    // A law that fails shows the texts it compared.
    auto broken = [&](const char* law, const std::string& a, const std::string& b) {
      std::fprintf(stderr, "--- input\n%s\n--- fixed\n%s\n--- one\n%s\n--- other\n%s\n---\n",
                   text.c_str(), fixed.c_str(), a.c_str(), b.c_str());
      fuzz::bug(law);
    };
    if (std::string again = edited(fixed, placement::Action::Fix); again != fixed) {
      broken("a second fix changed the text", again, fixed);
    }
    std::string removed_after_fix = edited(fixed, placement::Action::Remove);
    std::string removed = edited(text, placement::Action::Remove);
    if (removed_after_fix != removed) {
      broken("--remove after fix does not give what --remove gives on the input", removed_after_fix,
             removed);
    }
  });
  return 0;
}
