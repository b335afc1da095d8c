// `archfit argocd generate|discover plain|kustomize|helm`: the commands of
// archfit's Argo CD config management plugins; their settings come from the
// process's environment and working directory (surface/argocd/argocd.hpp
// does the work).
#include <filesystem>
#include <iostream>
#include <memory>
#include <string_view>

#include <archfit/surface/argocd/argocd.hpp>

#include "cli/commands.hpp"

extern char** environ;

namespace archfit::cli {

namespace {

surface::argocd::ArgoCdRequest request_of(const std::string& kind) {
  surface::argocd::ArgoCdRequest request;
  request.kind = kind;
  request.directory = std::filesystem::current_path();
  for (char** e = environ; *e != nullptr; ++e) {
    std::string_view entry = *e;
    std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    request.env.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return request;
}

}  // namespace

void add_argocd_command(CLI::App& app, RunState& state) {
  CLI::App* argocd = app.add_subcommand(
      "argocd",
      "Argo CD config management plugin: render an Application's source, fix it offline from "
      "its lock file and print it (the sidecar's generate and discover commands); see "
      "docs/argocd.md");
  argocd->require_subcommand(1);
  auto kind = std::make_shared<std::string>();
  auto kinds = CLI::IsMember({"plain", "kustomize", "helm"});
  CLI::App* gen = argocd->add_subcommand(
      "generate",
      "Render the source in the working directory (plain: its *.yaml files; kustomize: kustomize "
      "build; helm: helm template), run post-render --offline and print the result; settings "
      "from ARGOCD_ENV_ARCHFIT_* and PARAM_MODE, PARAM_PLATFORMS, PARAM_VALUES");
  gen->add_option("kind", *kind, "plain, kustomize or helm")->required()->check(kinds);
  gen->callback([kind, &state] {
    state.exit_code =
        surface::argocd::generate(request_of(*kind), app::standard_output(), std::cerr);
  });
  CLI::App* disc = argocd->add_subcommand(
      "discover",
      "Print a file name when the working directory is a source of this kind with an "
      "archfit.lock or .archfit.yaml (Argo CD's discover.find)");
  disc->add_option("kind", *kind, "plain, kustomize or helm")->required()->check(kinds);
  disc->callback([kind, &state] {
    state.exit_code = surface::argocd::discover(request_of(*kind), app::standard_output());
  });
}

}  // namespace archfit::cli
