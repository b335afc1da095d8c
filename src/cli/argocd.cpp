// `archfit argocd generate|discover plain|kustomize|helm`: the commands of
// archfit's Argo CD config management plugins (argocd-cmp/*/plugin.yaml,
// docs/argocd.md). generate renders the Application's source (its files as
// they are, `kustomize build .`, or `helm template`), runs `archfit
// post-render --offline` over the result and prints it; it fails, printing
// nothing on stdout, when any step fails or when the result holds no
// manifest: Argo CD would otherwise prune every resource of the Application.
// Needs no shell: the sidecar runs archfit's own image.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/process.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/unique_fd.hpp>

#include "cli/argocd_source.hpp"
#include "cli/commands.hpp"

namespace archfit::cli {

namespace {

namespace fs = std::filesystem;

struct ArgoCdOptions {
  std::string kind;
};

std::string env_or(const char* name, std::string_view fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::string(value) : std::string(fallback);
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

struct Captured {
  std::string out;
  int exit_code = 0;
};

// Runs `argv` (found on PATH), its stdin `in`, its stderr ours (Argo CD shows
// it): what it writes on stdout, capped, and its exit status.
Captured run_capturing(const std::vector<std::string>& argv, int in) {
  std::string path = find_program(argv.at(0), std::nullopt, ErrorKind::Input);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) fail_system("cannot create a pipe", errno);
  UniqueFd read_end(fds[0]);
  UniqueFd write_end(fds[1]);
  ChildProcess child =
      ChildProcess::spawn(path, argv, in, write_end.get(), STDERR_FILENO, ErrorKind::Input);
  write_end.reset();
  Captured result;
  std::string& out = result.out;
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
  result.exit_code = child.exit_code();
  return result;
}

// What `argv` writes on stdout; fails when it fails.
std::string capture(const std::vector<std::string>& argv, int in) {
  Captured result = run_capturing(argv, in);
  if (result.exit_code != 0) {
    fail(ErrorKind::Input, argv[0] + " failed (exit status " + std::to_string(result.exit_code) +
                               "); it said why above");
  }
  return std::move(result.out);
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

std::string render(const std::string& kind, const ApplicationSource& source, int devnull) {
  if (kind == "plain") return concatenated_files(source.here());
  if (kind == "kustomize") return capture({"kustomize", "build", "."}, devnull);
  std::vector<std::string> argv = {"helm", "template",
                                   "--namespace=" + env_or("ARGOCD_APP_NAMESPACE", "default")};
  if (std::string kube = env_or("KUBE_VERSION", ""); !kube.empty()) {
    argv.push_back("--kube-version=" + kube);
  }
  std::string values = env_or("PARAM_VALUES", "");
  for (std::string_view v : split(values, ',')) {
    if (v.empty()) continue;
    argv.push_back("--values=" + source.inside("values file", std::string(v)).string());
  }
  std::string name = env_or("ARGOCD_APP_NAME", "");
  if (name.empty()) fail(ErrorKind::Usage, "ARGOCD_APP_NAME is not set (Argo CD sets it)");
  argv.insert(argv.end(), {"--", name, "."});
  return capture(argv, devnull);
}

// A file holding `text`, read from its start: the stdin of a child.
UniqueFd memory_file(std::string_view text) {
  UniqueFd fd(::memfd_create("archfit-rendered", MFD_CLOEXEC));
  if (!fd.valid()) fail_system("cannot hold the rendered manifests", errno);
  for (std::size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_system("cannot hold the rendered manifests", errno);
    done += static_cast<std::size_t>(n);
  }
  if (::lseek(fd.get(), 0, SEEK_SET) != 0) fail_system("cannot read the rendered manifests", errno);
  return fd;
}

// `archfit post-render ARGS` run in this process, as if started with the
// rendered text on stdin: what it writes on stdout, and its exit status. In
// process rather than a child: an image or a sandbox may have no /proc to
// find this executable again.
// What post-render wrote, in a memory file, and its status.
struct Fixed {
  UniqueFd out;
  int exit_code = 0;
};

Fixed post_render_here(const std::vector<std::string>& args, int rendered) {
  UniqueFd out = memory_file("");
  std::cout.flush();
  std::fflush(stdout);
  UniqueFd saved_in(::dup(STDIN_FILENO));
  UniqueFd saved_out(::dup(STDOUT_FILENO));
  if (!saved_in.valid() || !saved_out.valid())
    fail_system("cannot hand the rendered manifests to post-render", errno);
  // Standard input and output are given back however post-render ends.
  struct Restore {
    int in;
    int out;
    ~Restore() {
      std::cout.flush();
      std::fflush(stdout);
      ::dup2(out, STDOUT_FILENO);
      ::dup2(in, STDIN_FILENO);
    }
  } restore{saved_in.get(), saved_out.get()};
  if (::dup2(rendered, STDIN_FILENO) < 0 || ::dup2(out.get(), STDOUT_FILENO) < 0)
    fail_system("cannot hand the rendered manifests to post-render", errno);
  Fixed result;
  {
    CLI::App app;
    app.name("archfit");
    RunState state;
    add_post_render_command(app, state);
    std::vector<std::string> argv = {"post-render"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::reverse(argv.begin(), argv.end());  // CLI11 takes them last first
    try {
      app.parse(argv);
      result.exit_code = state.exit_code;
    } catch (const CLI::ParseError& e) {
      result.exit_code = app.exit(e) == 0 ? kOk : kUsageOrInput;
    }
  }
  std::cout.flush();
  std::fflush(stdout);
  result.out = std::move(out);
  return result;
}

// Reads what `fd` holds from its start, a piece at a time: post-render's
// output is never held whole (it may be many times a sidecar's memory).
void each_piece(int fd, const std::function<void(std::string_view)>& take) {
  if (::lseek(fd, 0, SEEK_SET) != 0) fail_system("cannot read what post-render wrote", errno);
  std::string piece(std::size_t{64} << 10, '\0');
  for (;;) {
    ssize_t n = ::read(fd, piece.data(), piece.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_system("cannot read what post-render wrote", errno);
    if (n == 0) return;
    take(std::string_view(piece.data(), static_cast<std::size_t>(n)));
  }
}

// A line that starts a manifest's apiVersion or kind.
bool holds_a_manifest(int fd) {
  bool found = false;
  std::string start;  // of the line being read, up to what the test needs
  bool line_start = true;
  each_piece(fd, [&](std::string_view part) {
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

int generate(const ArgoCdOptions& o) {
  ApplicationSource source(fs::current_path(), env_or("ARGOCD_APP_SOURCE_PATH", ""));
  source.apply_settings();
  std::vector<std::string> post_render = {"--offline", "--caller=Argo CD"};
  if (std::string platforms = env_or("PARAM_PLATFORMS", ""); !platforms.empty()) {
    post_render.push_back("--platforms=" + platforms);
  }
  std::string mode = env_or("PARAM_MODE", "fix");
  if (mode == "lint") {
    post_render.push_back("--lint");
  } else if (mode != "fix") {
    fail(ErrorKind::Usage, "parameter mode must be fix or lint, not " + archfit::quoted(mode));
  }
  UniqueFd devnull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!devnull.valid()) fail_system("cannot open /dev/null", errno);
  UniqueFd rendered = memory_file(render(o.kind, source, devnull.get()));
  Fixed fixed = post_render_here(post_render, rendered.get());
  if (fixed.exit_code != 0) {
    // post-render said why on stderr; its status says what kind of failure.
    return fixed.exit_code < 128 ? fixed.exit_code : kUsageOrInput;
  }
  if (!holds_a_manifest(fixed.out.get())) {
    fail(ErrorKind::Input,
         "the application rendered no manifests; refusing to print nothing (Argo CD would prune "
         "every resource)");
  }
  std::cout.flush();
  each_piece(fixed.out.get(), [](std::string_view part) { write_stdout({part}); });
  return kOk;
}

int discover(const ArgoCdOptions& o) {
  std::error_code ec;
  const char* marker = marker_of(o.kind);
  if (marker != nullptr && !fs::is_regular_file(marker, ec)) return kOk;
  bool settings =
      fs::is_regular_file("archfit.lock", ec) || fs::is_regular_file(".archfit.yaml", ec);
  if (settings) std::cout << (marker != nullptr ? marker : "archfit.lock") << '\n';
  return kOk;
}

}  // namespace

void add_argocd_command(CLI::App& app, RunState& state) {
  CLI::App* argocd = app.add_subcommand(
      "argocd",
      "Argo CD config management plugin: render an Application's source, fix it offline from "
      "its lock file and print it (the sidecar's generate and discover commands); see "
      "docs/argocd.md");
  argocd->require_subcommand(1);
  auto o = std::make_shared<ArgoCdOptions>();
  auto kinds = CLI::IsMember({"plain", "kustomize", "helm"});
  CLI::App* gen = argocd->add_subcommand(
      "generate",
      "Render the source in the working directory (plain: its *.yaml files; kustomize: kustomize "
      "build; helm: helm template), run post-render --offline and print the result; settings "
      "from ARGOCD_ENV_ARCHFIT_* and PARAM_MODE, PARAM_PLATFORMS, PARAM_VALUES");
  gen->add_option("kind", o->kind, "plain, kustomize or helm")->required()->check(kinds);
  gen->callback([o, &state] { state.exit_code = generate(*o); });
  CLI::App* disc = argocd->add_subcommand(
      "discover",
      "Print a file name when the working directory is a source of this kind with an "
      "archfit.lock or .archfit.yaml (Argo CD's discover.find)");
  disc->add_option("kind", o->kind, "plain, kustomize or helm")->required()->check(kinds);
  disc->callback([o, &state] { state.exit_code = discover(*o); });
}

}  // namespace archfit::cli
