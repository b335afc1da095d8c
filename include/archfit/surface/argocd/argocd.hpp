// The commands of archfit's Argo CD config management plugins
// (argocd-cmp/*/plugin.yaml, docs/argocd.md). generate renders the
// Application's source (its files as they are, `kustomize build`, or `helm
// template`), runs post-render over the result offline, as a function, and
// prints it; it fails, printing nothing, when any step fails or when the
// result holds no manifest: Argo CD would otherwise prune every resource of
// the Application. Needs no shell: the sidecar runs archfit's own image.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

#include <archfit/app/exit.hpp>
#include <archfit/app/output.hpp>
#include <archfit/surface/argocd/source.hpp>

namespace archfit::surface::argocd {

struct ArgoCdRequest {
  std::string kind;                 // plain, kustomize or helm
  std::filesystem::path directory;  // the source's directory, as the cmp-server gives it
  // The settings: ARGOCD_APP_NAME, ARGOCD_APP_NAMESPACE,
  // ARGOCD_APP_SOURCE_PATH, KUBE_VERSION, PARAM_MODE, PARAM_PLATFORMS,
  // PARAM_VALUES, the Application's ARGOCD_ENV_ARCHFIT_*, and PATH for
  // kustomize and helm.
  Variables env;
};

app::ExitCode generate(const ArgoCdRequest& request, app::Output& out, std::ostream& err);

// A file name when the directory is a source of this kind with an
// archfit.lock or .archfit.yaml (Argo CD's discover.find); nothing otherwise.
app::ExitCode discover(const ArgoCdRequest& request, app::Output& out);

}  // namespace archfit::surface::argocd
