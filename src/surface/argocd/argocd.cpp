#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/process.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/unique_fd.hpp>
#include <archfit/surface/argocd/argocd.hpp>
#include <archfit/surface/post_render/post_render.hpp>

namespace archfit::surface::argocd {

namespace {

namespace fs = std::filesystem;

std::string value_or(const Variables& env, const char* name, std::string_view fallback) {
  auto it = env.find(name);
  return it != env.end() && !it->second.empty() ? it->second : std::string(fallback);
}

// What `discover` looks for: the kind's own file (none for plain), and a lock
// file or configuration beside it.
const char* marker_of(const std::string& kind) {
  if (kind == "kustomize") return "kustomization.yaml";
  if (kind == "helm") return "Chart.yaml";
  return nullptr;
}

[[noreturn]] void fail_system(const std::string& what, int err) {
  fail(ErrorKind::Input, what + ": " + std::strerror(err));
}

// Runs `argv` (found on the environment's PATH) with that environment, its
// stdin /dev/null, its stderr `err_fd` (Argo CD shows it): what it writes on
// stdout, capped. Fails when it fails.
std::string capture(const std::vector<std::string>& argv, const Variables& env) {
  std::optional<std::string> path_dirs;
  if (auto it = env.find("PATH"); it != env.end()) path_dirs = it->second;
  std::string path = find_program(argv.at(0), path_dirs, ErrorKind::Input);
  std::vector<std::string> environment;
  for (const auto& [name, value] : env)
    environment.push_back(name + "=" + value);
  UniqueFd devnull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!devnull.valid()) fail_system("cannot open /dev/null", errno);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) fail_system("cannot create a pipe", errno);
  UniqueFd read_end(fds[0]);
  UniqueFd write_end(fds[1]);
  ChildProcess child = ChildProcess::spawn(path, argv, devnull.get(), write_end.get(),
                                           STDERR_FILENO, ErrorKind::Input, &environment);
  write_end.reset();
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(read_end.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_system("cannot read what " + argv[0] + " wrote", errno);
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > kMaxManifestBytes) {
      fail(ErrorKind::Input, argv[0] + " wrote more than " +
                                 std::to_string(kMaxManifestBytes / kMiB) + " MiB; stopped it");
    }
  }
  child.wait(0);
  if (child.exit_code() != 0) {
    fail(ErrorKind::Input, argv[0] + " failed (exit status " + std::to_string(child.exit_code()) +
                               "); it said why above");
  }
  return out;
}

// The source's *.yaml and *.yml files, outside dot-directories, in byte
// order of their paths, each after a document marker.
std::string concatenated_files(const fs::path& here) {
  std::vector<std::string> files;
  std::error_code ec;
  auto it = fs::recursive_directory_iterator(here, ec);
  if (ec) fail_system("cannot list " + here.string(), ec.value());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) fail_system("cannot list " + here.string(), ec.value());
    std::string name = it->path().filename().string();
    if (name.starts_with('.')) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    // Links are not followed: a link could lead out of the source.
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    if (name.ends_with(".yaml") || name.ends_with(".yml")) {
      files.push_back(fs::relative(it->path(), here).generic_string());
    }
  }
  if (files.empty()) fail(ErrorKind::Input, "no *.yaml or *.yml files in " + here.string());
  std::sort(files.begin(), files.end());
  std::string out;
  for (const std::string& file : files) {
    out += "---\n";
    // The cap is on the whole concatenation (markers included).
    if (out.size() >= kMaxManifestBytes) {
      fail(ErrorKind::Input, "the source's files hold more than " +
                                 std::to_string(kMaxManifestBytes / kMiB) + " MiB of YAML");
    }
    out += read_file(here / file, ReadLimit{kMaxManifestBytes - out.size(), "a manifest file"});
    out += '\n';
  }
  return out;
}

std::string render(const std::string& kind, const ApplicationSource& source, const Variables& env) {
  if (kind == "plain") return concatenated_files(source.here());
  const std::string here = source.here().string();
  if (kind == "kustomize") return capture({"kustomize", "build", here}, env);
  std::vector<std::string> argv = {
      "helm", "template", "--namespace=" + value_or(env, "ARGOCD_APP_NAMESPACE", "default")};
  if (std::string kube = value_or(env, "KUBE_VERSION", ""); !kube.empty()) {
    argv.push_back("--kube-version=" + kube);
  }
  std::string values = value_or(env, "PARAM_VALUES", "");
  for (std::string_view v : split(values, ',')) {
    if (v.empty()) continue;
    argv.push_back("--values=" + source.inside("values file", std::string(v)).string());
  }
  std::string name = value_or(env, "ARGOCD_APP_NAME", "");
  if (name.empty()) fail(ErrorKind::Usage, "ARGOCD_APP_NAME is not set (Argo CD sets it)");
  argv.insert(argv.end(), {"--", name, here});
  return capture(argv, env);
}

// A line that starts a manifest's apiVersion or kind.
bool holds_a_manifest(const Content& content) {
  bool found = false;
  std::string start;  // of the line being read, up to what the test needs
  bool line_start = true;
  content([&](std::string_view part) {
    for (char c : part) {
      if (found) return;
      if (c == '\n') {
        start.clear();
        line_start = true;
        continue;
      }
      if (!line_start) continue;
      start += c;
      if (start == "apiVersion:" || start == "kind:") found = true;
      if (start.size() >= 11) line_start = false;
    }
  });
  return found;
}

}  // namespace

app::ExitCode generate(const ArgoCdRequest& request, app::Output& out, std::ostream& err) {
  ApplicationSource source(request.directory, value_or(request.env, "ARGOCD_APP_SOURCE_PATH", ""));
  const Variables env = source.with_settings(request.env);
  post_render::PostRenderRequest fix;
  fix.flags.offline = true;
  fix.caller = "Argo CD";
  fix.env = config::fixed_environment(env);
  if (std::string platforms = value_or(env, "PARAM_PLATFORMS", ""); !platforms.empty()) {
    fix.flags.platforms = platforms;
  }
  std::string mode = value_or(env, "PARAM_MODE", "fix");
  if (mode == "lint") {
    fix.lint = true;
  } else if (mode != "fix") {
    fail(ErrorKind::Usage, "parameter mode must be fix or lint, not " + archfit::quoted(mode));
  }
  // Held until post-render has succeeded and the result is known to hold a
  // manifest: memory up to a limit, then a temporary file.
  app::SpoolOutput fixed;
  if (app::ExitCode code =
          post_render::post_render(fix, render(request.kind, source, env), fixed, err);
      code != app::kOk) {
    return code;  // post-render said why
  }
  if (!holds_a_manifest(fixed.content())) {
    fail(ErrorKind::Input,
         "the application rendered no manifests; refusing to print nothing (Argo CD would prune "
         "every resource)");
  }
  out.write(fixed.content());
  return app::kOk;
}

app::ExitCode discover(const ArgoCdRequest& request, app::Output& out) {
  std::error_code ec;
  const char* marker = marker_of(request.kind);
  const fs::path& dir = request.directory;
  if (marker != nullptr && !fs::is_regular_file(dir / marker, ec)) return app::kOk;
  bool settings = fs::is_regular_file(dir / "archfit.lock", ec) ||
                  fs::is_regular_file(dir / ".archfit.yaml", ec);
  if (settings) out.write(std::string(marker != nullptr ? marker : "archfit.lock") + "\n");
  return app::kOk;
}

}  // namespace archfit::surface::argocd
