// The edit engine on a fuzzed document: parse, discover, plan, splice and
// verify, as `archfit fix` and `--remove` do with a fixed configuration and a
// fixed answer for every image. Besides crashes and internal errors it checks
// the laws: what fix writes parses, with the parser alone (no graft), to the
// input's data apart from the placement fields, which hold what the plans
// wanted; a second fix changes nothing; --remove after fix gives what
// --remove gives on the input.
#include <cstdio>
#include <functional>
#include <map>
#include <string>

#include <archfit/manifest/discover.hpp>
#include <archfit/placement/plan.hpp>
#include <archfit/run/document_edits.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/path.hpp>
#include <archfit/yaml/stream.hpp>

#include "fuzz.hpp"
#include "support/placement_data.hpp"

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
// `wanted_views` and `paths` (when given) get the plan and the path of each
// template it changed.
std::string edited(const std::string& text, placement::Action action,
                   std::vector<yaml::Value>* wanted_views = nullptr,
                   std::vector<yaml::Path>* paths = nullptr) {
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
      p.path = w.path + t.path;
      p.index = index++;
    }
  }
  run::EditOutcome outcome = run::apply_plans(tree, 0, planned, config().kinds, false);
  if (wanted_views != nullptr && outcome.changed) {
    for (const run::PlannedTemplate& p : planned) {
      bool left_alone = false;
      for (const auto& alone : outcome.left_alone)
        left_alone = left_alone || alone.first == p.index;
      if (left_alone || !p.plan.changes_template()) continue;
      wanted_views->push_back(p.plan.desired);
      paths->push_back(p.path);
    }
  }
  return outcome.changed ? outcome.text : text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(fuzz::text_of(data, size));
  fuzz::expect_clean([&] {
    yaml::check_encoding(text);
    if (yaml::split_stream(text).size() > 1) return;  // one document at a time
    std::vector<yaml::Value> wanted;
    std::vector<yaml::Path> paths;
    std::string fixed = edited(text, placement::Action::Fix, &wanted, &paths);
    if (fixed != text) {
      // The parser alone, as a reader of the file would: the input's data,
      // placement aside, and each edited template's placement as planned.
      yaml::Tree before = yaml::parse_document(text);
      yaml::Tree after;
      try {
        after = yaml::parse_document(fixed);
      } catch (const Error& e) {
        fuzz::bug(("what fix wrote does not parse: " + std::string(e.what())).c_str());
      }
      if (testing::without_placement(before) != testing::without_placement(after)) {
        std::fprintf(stderr, "--- input\n%s\n--- fixed\n%s\n---\n", text.c_str(), fixed.c_str());
        fuzz::bug("fix changed the document's data outside the placement fields");
      }
      yaml::Value data = yaml::to_value(after.root());
      for (std::size_t k = 0; k < wanted.size(); ++k) {
        const yaml::Value* at = yaml::lookup(data, paths[k]);
        if (at == nullptr) fuzz::bug("an edited template is not where its path says");
        for (const char* field : {"affinity", "nodeSelector", "tolerations"}) {
          const yaml::Value* want = wanted[k].find("spec")->find(field);
          const yaml::Value* spec = at->find("spec");
          const yaml::Value* got = spec != nullptr ? spec->find(field) : nullptr;
          bool same = want == nullptr ? got == nullptr || got->is_null() ||
                                            (got->is_mapping() && got->entries().empty()) ||
                                            (got->is_sequence() && got->items().empty())
                                      : got != nullptr && *got == *want;
          if (!same) {
            std::fprintf(stderr, "--- input\n%s\n--- fixed\n%s\n--- field %s of %s\n", text.c_str(),
                         fixed.c_str(), field, yaml::field_text(paths[k]).c_str());
            fuzz::bug("a placement field of an edited template is not what its plan wanted");
          }
        }
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
