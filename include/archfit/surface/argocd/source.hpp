// What an Argo CD Application may reach from archfit's config management
// plugin (docs/argocd.md, "Tenants"). One sidecar serves every Application,
// and an Application's env and parameters are its owner's to set: every path
// it names must lead, links followed, into its own source, and it may set
// only a few ARCHFIT_* settings.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace archfit::surface::argocd {

// Every variable of the sidecar's environment: Argo CD's (ARGOCD_APP_*), the
// plugin's parameters (PARAM_*), what the Application's owner sets
// (ARGOCD_ENV_*), and the process's own (PATH, HOME).
using Variables = std::map<std::string, std::string>;

// The ARCHFIT_* settings an Application may set (as ARGOCD_ENV_ARCHFIT_*).
inline constexpr std::string_view kApplicationSettings[] = {
    "ARCHFIT_LOCK", "ARCHFIT_CONFIG", "ARCHFIT_PLATFORMS", "ARCHFIT_MODE", "ARCHFIT_ON_UNRESOLVED"};

class ApplicationSource {
 public:
  // The source of the Application rendered in `here` (the working directory
  // the cmp-server gives): the repository checkout that holds it, that is
  // `here` with `source_path` (ARGOCD_APP_SOURCE_PATH, the Application's
  // path in its repository) taken off its end when it ends so; else `here`.
  ApplicationSource(const std::filesystem::path& here, std::string_view source_path);

  const std::filesystem::path& here() const { return here_; }
  const std::filesystem::path& root() const { return root_; }

  // `path` (relative to here), every link followed, absolute. Throws
  // Error(Usage) naming `what` when it leads out of the source.
  std::filesystem::path inside(std::string_view what, const std::string& path) const;

  // The nearest file `name` from here up to the root, if any.
  std::optional<std::filesystem::path> nearest(std::string_view name) const;

  // `env` with the Application's ARGOCD_ENV_ARCHFIT_* settings made its
  // ARCHFIT_* (paths checked with inside()), and ARCHFIT_CONFIG and
  // ARCHFIT_LOCK pointed at what archfit would look for above the source's
  // directory, found inside the source only (no configuration: /dev/null,
  // the defaults). Throws Error(Usage) for a setting an Application may not
  // set.
  Variables with_settings(Variables env) const;

 private:
  std::filesystem::path here_;
  std::filesystem::path root_;
};

}  // namespace archfit::surface::argocd
