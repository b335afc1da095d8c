// A project directory for running archfit as a user does: a configuration
// and a lock file beside the manifests, the user's environment kept out.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace archfit::testing {

inline const char* const kProjectConfig = R"(clusterPlatforms: [linux/amd64, linux/arm64]
architectures:
  arm64:
    tolerations:
    - {key: kubernetes.io/arch, operator: Equal, value: arm64, effect: NoSchedule}
resolve:
  onUnresolved: fail
)";

inline const char* const kProjectLock = R"({
  "version": 1,
  "images": {
    "docker.io/library/amd64only:1": {"platforms": ["linux/amd64"]},
    "docker.io/library/both:1": {"platforms": ["linux/amd64", "linux/arm64"]}
  }
}
)";

// A Deployment that fix changes (an amd64-only image, no affinity).
inline std::string needs_fix(const std::string& name) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         "\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n"
         "        image: amd64only:1\n";
}

// A Deployment that only needs a toleration (a warning, not an error).
inline std::string needs_toleration(const std::string& name) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         "\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n"
         "        image: both:1\n";
}

// A directory with the configuration and lock file, isolated from the
// user's environment.
class Project {
 public:
  Project() {
    dir_.write(".archfit.yaml", kProjectConfig);
    dir_.write("archfit.lock", kProjectLock);
  }
  std::filesystem::path write(const std::string& name, const std::string& content) const {
    return dir_.write(name, content);
  }
  std::filesystem::path operator/(const std::string& name) const { return dir_ / name; }
  ProcessResult run(std::vector<std::string> args, const std::string& stdin_data = "",
                    const std::vector<std::string>& env = {}) const {
    ProcessOptions o;
    o.cwd = dir_.path();
    o.stdin_data = stdin_data;
    o.env = {"ARCHFIT_CONFIG=", "ARCHFIT_CACHE_DIR=" + (dir_ / "cache").string(),
             "HOME=" + (dir_ / "home").string()};
    o.env.insert(o.env.end(), env.begin(), env.end());
    args.insert(args.begin() + (args.empty() ? 0 : 1), "--offline");  // before any "--"
    return run_archfit(args, o);
  }

 private:
  TempDir dir_;
};

}  // namespace archfit::testing
