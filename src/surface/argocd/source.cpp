#include <algorithm>
#include <system_error>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/surface/argocd/source.hpp>

namespace archfit::surface::argocd {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kEnvPrefix = "ARGOCD_ENV_";

// The path with every link that exists followed, the rest taken as written
// (realpath -m).
fs::path resolved(const fs::path& path) {
  std::error_code ec;
  fs::path out = fs::weakly_canonical(path, ec);
  return ec ? path.lexically_normal() : out;
}

bool within(const fs::path& path, const fs::path& root) {
  auto [r, p] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  return r == root.end();
}

std::string allowed_list() {
  std::string out;
  for (std::string_view name : kApplicationSettings) {
    if (!out.empty()) out += ' ';
    out += name;
  }
  return out;
}

}  // namespace

ApplicationSource::ApplicationSource(const fs::path& here, std::string_view source_path)
    : here_(resolved(here)), root_(here_) {
  if (source_path.empty()) return;
  fs::path candidate = here_;
  for (std::string_view part : split(source_path, '/')) {
    if (!part.empty() && part != ".") candidate = candidate.parent_path();
  }
  if (resolved(candidate / fs::path(std::string(source_path))) == here_) root_ = candidate;
}

fs::path ApplicationSource::inside(std::string_view what, const std::string& path) const {
  fs::path real = resolved(here_ / fs::path(path));
  if (!within(real, root_)) {
    fail(ErrorKind::Usage, std::string(what) + ' ' + archfit::quoted(path) + " leads to " +
                               archfit::quoted(real.string()) +
                               ", outside the application's source (" + root_.string() +
                               "); name a file in the repository");
  }
  return real;
}

std::optional<fs::path> ApplicationSource::nearest(std::string_view name) const {
  for (fs::path dir = here_;; dir = dir.parent_path()) {
    std::error_code ec;
    fs::path candidate = dir / std::string(name);
    if (fs::is_regular_file(candidate, ec)) return inside(name, candidate.string());
    if (dir == root_ || dir == dir.root_path()) return std::nullopt;
  }
}

Variables ApplicationSource::with_settings(Variables env) const {
  // Every setting is read before any is made.
  std::vector<std::pair<std::string, std::string>> settings;
  for (const auto& [variable, value] : env) {
    std::string_view name = variable;
    if (!name.starts_with(kEnvPrefix) || !name.substr(kEnvPrefix.size()).starts_with("ARCHFIT_")) {
      continue;
    }
    name.remove_prefix(kEnvPrefix.size());
    if (std::find(std::begin(kApplicationSettings), std::end(kApplicationSettings), name) ==
        std::end(kApplicationSettings)) {
      fail(ErrorKind::Usage, "the Application sets " + printable(name) +
                                 ", which an Application may not set; it may set " +
                                 allowed_list());
    }
    std::string setting = value;
    if (name == "ARCHFIT_LOCK" || name == "ARCHFIT_CONFIG") setting = inside(name, value).string();
    settings.emplace_back(name, std::move(setting));
  }
  for (auto& [name, value] : settings)
    env[name] = std::move(value);
  if (!env.contains("ARCHFIT_CONFIG")) {
    std::optional<fs::path> config = nearest(".archfit.yaml");
    env["ARCHFIT_CONFIG"] = config ? config->string() : "/dev/null";
  }
  if (!env.contains("ARCHFIT_LOCK")) {
    if (std::optional<fs::path> lock = nearest("archfit.lock"))
      env["ARCHFIT_LOCK"] = lock->string();
  }
  return env;
}

}  // namespace archfit::surface::argocd
