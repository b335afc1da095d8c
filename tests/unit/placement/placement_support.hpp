// Planning pod templates of in-memory documents, for the placement tests:
// a document parsed and its workloads found, a lock given as a map.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <archfit/image/platform_set.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/placement/answer.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/placement/plan.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::placement::testing {

inline yaml::Value data(const std::string& text) {
  yaml::Tree tree = yaml::parse_document(text);
  return yaml::to_value(tree.root());
}

// One document with the workloads found in it.
class Doc {
 public:
  explicit Doc(std::string text, const Config& config = Config::defaults())
      : text_(std::move(text)),
        tree_(yaml::parse_document(text_)),
        workloads_(manifest::discover(tree_, config.kinds)) {}

  const manifest::Workload& workload(std::size_t i = 0) const { return workloads_.at(i); }
  const manifest::PodTemplate& pod_template(std::size_t i = 0) const {
    return workloads_.at(i).templates.at(0);
  }

 private:
  std::string text_;
  yaml::Tree tree_;
  std::vector<manifest::Workload> workloads_;
};

// Image -> platforms ("linux/amd64,linux/arm64"); images not listed are
// unresolved, or assumed to run on `fallback` when that is given.
class Lock {
 public:
  Lock(std::initializer_list<std::pair<const std::string, std::string>> entries,
       const std::string& fallback = "") {
    for (const auto& [image, platforms] : entries)
      known_[image::Reference::parse(image).canonical()] = image::PlatformSet::parse(platforms);
    if (!fallback.empty()) fallback_ = image::PlatformSet::parse(fallback);
  }
  Lookup lookup() const {
    return [this](const image::Reference& ref) {
      ImageAnswer answer;
      auto it = known_.find(ref.canonical());
      if (it != known_.end()) {
        answer.platforms = &it->second;
        return answer;
      }
      answer.why = "not in the test's lock";
      if (!fallback_.empty()) {
        answer.platforms = &fallback_;
        answer.assumed = true;
      }
      return answer;
    };
  }

 private:
  std::map<std::string, image::PlatformSet> known_;
  image::PlatformSet fallback_;
};

inline TemplatePlan plan(const Doc& doc, const Lock& lock,
                         const Config& config = Config::defaults(), Action action = Action::Fix) {
  TemplateContext where{&doc.workload(), &doc.pod_template(), "test.yaml", 0, false, nullptr, {}};
  return plan_template(where, config, lock.lookup(), action);
}

// A Deployment whose pod spec is `spec` (lines indented by six spaces).
inline std::string deployment(const std::string& spec, const std::string& metadata = "") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n"
         "    metadata:\n      labels: {app: web}\n" +
         metadata + "    spec:\n" + spec;
}

inline std::vector<std::string> rules(const TemplatePlan& p) {
  std::vector<std::string> out;
  for (const findings::Finding& f : p.findings) {
    if (f.rule != "mutable-tag") out.push_back(f.rule + (f.fixable ? "+" : ""));
  }
  return out;
}

}  // namespace archfit::placement::testing
