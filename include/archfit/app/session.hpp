// The session: one Request in, one Outcome out. Between them it finds the
// inputs, gives each the nearest configuration and lock file, makes the
// resolvers over them (lock file, cache, registries), picks the run's
// features and runs the engine (run/run.hpp). Every surface reaches the
// engine through a Session (docs/architecture.md, "The top floor").
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <archfit/app/exit.hpp>
#include <archfit/app/features.hpp>
#include <archfit/app/network.hpp>
#include <archfit/app/request.hpp>
#include <archfit/cache/store.hpp>
#include <archfit/config/loader.hpp>
#include <archfit/manifest/inputs.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/run/run.hpp>

namespace archfit::app {

struct Outcome {
  run::RunResult run;         // per file: what was read and the edits; counts, faults
  resolve::Stats resolution;  // what every resolver of the session did, summed
  // A run that looked up images, resolved none of them and was told nothing
  // about that case checked nothing: the lines that say so, with the
  // commands that resolve them without a registry; "" when it checked
  // something (or removed, which needs no image).
  std::string checked_nothing;
  // The readiness report, when the Request asked for it.
  std::optional<report::Readiness> readiness;

  // The exit class every surface starts from: kUnresolved when images could
  // not be resolved and the run fails on them, or nothing was checked; else
  // kChangesOrFindings when `failing` (the surface's own test) or when
  // archfit could not read something, which is never a pass; else kOk.
  ExitCode exit(bool failing) const;
};

class Session {
 public:
  // Finds the inputs and the configurations, and makes the resolvers; notices
  // (files left out, which configuration each input uses with -v) go to
  // `err`. Throws Error(Usage) when inputs are wanted, none is given and
  // standard input is a terminal; Error(Config) for a configuration that
  // cannot be read.
  Session(Request request, std::ostream& err);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Runs the request's task over the inputs; each finding (and, for JUnit,
  // each workload) goes to `sink` as its document is final.
  Outcome run(const run::RunSink& sink);

  // For the commands that resolve without running the engine (lock,
  // resolve): the inputs, the first input's configuration and its resolver,
  // and the progress display.
  const std::vector<manifest::InputFile>& inputs() const { return inputs_; }
  const config::LoadedConfig& loaded() const { return loaded_; }
  resolve::Resolver& resolver() { return *resolver_; }
  const resolve::ProgressOptions& progress() const { return options_.progress; }
  // What every resolver did, summed.
  resolve::Stats stats() const;

  // The configurations the inputs use (config_per_file: each input's
  // nearest; 0 is the first input's): how many, each one, its resolver, and
  // which one input i uses. For the commands that work lock by lock.
  std::size_t configurations() const { return 1 + others_.size(); }
  const config::LoadedConfig& loaded(std::size_t k) const;
  resolve::Resolver& resolver(std::size_t k);
  std::size_t configuration_of(std::size_t input) const {
    return input < setting_of_.size() ? setting_of_[input] : 0;
  }

 private:
  struct Other;
  void assign_configurations(const config::ConfigRequest& base,
                             const std::filesystem::path& stdin_dir);
  void explain_settings() const;
  std::vector<run::Setting> settings() const;
  std::vector<run::Input> run_inputs();
  std::string checked_nothing() const;

  Request request_;
  std::ostream& err_;
  std::vector<manifest::InputFile> inputs_;
  config::LoadedConfig loaded_;
  std::unique_ptr<cache::Store> cache_;  // null when no cache directory can be determined
  std::unique_ptr<Network> network_;     // null when offline
  std::unique_ptr<resolve::Resolver> resolver_;
  Features features_;
  run::RunOptions options_;
  // Other configurations: an input whose nearest .archfit.yaml (or lock
  // file) is another one's uses it. setting_of_[i] is inputs_[i]'s: 0 for
  // the above, k for others_[k - 1].
  std::vector<std::unique_ptr<Other>> others_;
  std::vector<std::size_t> setting_of_;
};

}  // namespace archfit::app
