// archfit: make Kubernetes manifests fit the CPU architectures of their images.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <archfit/base/error.hpp>

#include "cli/commands.hpp"
#include "cli/failure.hpp"
#include "cli/flags.hpp"
#include "cli/shown.hpp"

int main(int raw_argc, char** raw_argv) {
  using namespace archfit::cli;
  // Global options before the command go after it (flags.hpp).
  std::vector<std::string> arguments =
      hoist_global_options(std::vector<std::string>(raw_argv, raw_argv + raw_argc));
  std::vector<char*> pointers;
  for (std::string& a : arguments)
    pointers.push_back(a.data());
  pointers.push_back(nullptr);
  int argc = static_cast<int>(arguments.size());
  char** argv = pointers.data();
  CLI::App app{
      "archfit makes rendered Kubernetes manifests fit the CPU architectures their container\n"
      "images support: it resolves each image's platforms and writes node affinity and\n"
      "tolerations into pod templates (fix), or reports what is missing (lint)."};
  app.name("archfit");
  app.require_subcommand(1);
  RunState state;
  state.separator = std::find_if(argv + 1, argv + argc, [](const char* a) {
                      return std::string_view(a) == "--";
                    }) != argv + argc;
  // Only the command named, when one is (a render pipeline starts archfit
  // once per render, and setting up every command's flags is a good part of
  // starting); all of them for help and for anything else.
  constexpr std::pair<std::string_view, void (*)(CLI::App&, RunState&)> kCommands[] = {
      {"fix", add_fix_command},
      {"lint", add_lint_command},
      {"resolve", add_resolve_command},
      {"lock", add_lock_command},
      {"images", add_images_command},
      {"cache", add_cache_command},
      {"post-render", add_post_render_command},
      {"krm", add_krm_command},
      {"argocd", add_argocd_command},
      {"version", add_version_command},
  };
  bool named = false;
  for (const auto& [name, add] : kCommands) {
    if (argc > 1 && argv[1] == name) {
      add(app, state);
      named = true;
    }
  }
  if (!named) {
    for (const auto& [name, add] : kCommands)
      add(app, state);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and --version print as CLI11 prints them; a usage error quotes
    // what was given, which is shown as data.
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? kOk : kUsageOrInput;
    std::cerr << shown(e.what()) << "\nRun with --help for more information.\n";
    return kUsageOrInput;
  } catch (const std::exception&) {
    return report_failure(std::cerr);
  }
  // What the command printed must have reached standard output: a full disk
  // or a closed pipe is an error, not a quiet success.
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || std::cout.fail()) {
    int err = errno;
    std::cerr << "archfit: cannot write <stdout>: "
              << (err != 0 ? std::strerror(err) : "the output stream failed") << '\n';
    return kUsageOrInput;
  }
  return state.exit_code;
}
