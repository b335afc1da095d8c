// The engine driven in memory, offline, over a small lock file (amd64only:1
// runs on linux/amd64, both:1 on linux/amd64 and linux/arm64; another lock
// may be given): what each run reports, collected for the test to read.
#pragma once

#include <string>
#include <vector>

#include <archfit/app/features.hpp>
#include <archfit/cache/lock_file.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/run/run.hpp>

namespace archfit::testing {

inline constexpr const char* kEngineLock = R"({"version": 1, "images": {
  "docker.io/library/amd64only:1": {"platforms": ["linux/amd64"]},
  "docker.io/library/both:1": {"platforms": ["linux/amd64", "linux/arm64"]}}})";

inline resolve::Sources offline_sources() {
  resolve::Sources s;
  s.offline = true;
  return s;
}

struct Engine {
  explicit Engine(const std::string& lock = kEngineLock)
      : resolver(resolve::Settings(), cache::LockFile::parse(lock, "archfit.lock"), "archfit.lock",
                 offline_sources()) {}

  placement::Config config = placement::Config::defaults();
  resolve::Resolver resolver;
  app::Features features;
  // What the last run reported.
  std::vector<findings::Finding> findings;
  std::vector<report::WorkloadSeen> workloads;

  run::RunResult run(const std::vector<run::Input>& inputs, run::Task task,
                     const run::RunOptions& options = {}) {
    findings.clear();
    workloads.clear();
    run::RunSink sink;
    sink.finding = [this](findings::Finding&& f) { findings.push_back(std::move(f)); };
    sink.workload = [this](const report::WorkloadSeen& w) { workloads.push_back(w); };
    run::RunOptions with = options;
    if (with.features.empty()) with.features = features.list();  // as the command line has
    return run::run_pipeline(inputs, config, resolver, task, sink, with);
  }
  // The first file's output of a run.
  std::string output(const std::vector<run::Input>& inputs, run::Task task) {
    return run(inputs, task).files.at(0).output();
  }
  // The rules the last run reported whose ids start with `prefix`, in order.
  std::vector<std::string> rules(const std::string& prefix = "") const {
    std::vector<std::string> out;
    for (const findings::Finding& f : findings) {
      if (f.rule.rfind(prefix, 0) == 0) out.push_back(f.rule);
    }
    return out;
  }
  // The first finding of a rule; nullptr when there is none.
  const findings::Finding* find(const std::string& rule) const {
    for (const findings::Finding& f : findings) {
      if (f.rule == rule) return &f;
    }
    return nullptr;
  }
};

}  // namespace archfit::testing
