// A project directory for the surfaces in process: a configuration and a
// lock file (support/project.hpp's), and an environment of its own, so that
// nothing of the test process's reaches the session.
#pragma once

#include <map>
#include <string>

#include <archfit/config/loader.hpp>

#include "support/process.hpp"
#include "support/project.hpp"

namespace archfit::testing {

class SurfaceProject {
 public:
  SurfaceProject() {
    dir_.write(".archfit.yaml", kProjectConfig);
    dir_.write("archfit.lock", kProjectLock);
  }
  std::filesystem::path write(const std::string& name, const std::string& content) const {
    return dir_.write(name, content);
  }
  std::filesystem::path operator/(const std::string& name) const { return dir_ / name; }
  const std::filesystem::path& path() const { return dir_.path(); }
  // HOME and the cache inside the project, and what `more` adds.
  std::map<std::string, std::string> variables(std::map<std::string, std::string> more = {}) const {
    more.emplace("HOME", (dir_ / "home").string());
    more.emplace("ARCHFIT_CACHE_DIR", (dir_ / "cache").string());
    return more;
  }
  config::Environment env(std::map<std::string, std::string> more = {}) const {
    return config::fixed_environment(variables(std::move(more)));
  }
  // The common flags of an offline run whose standard input lives here.
  config::CommonFlags flags() const {
    config::CommonFlags f;
    f.offline = true;
    f.progress = "never";
    f.stdin_dir = dir_.path().string();
    return f;
  }

 private:
  TempDir dir_;
};

}  // namespace archfit::testing
