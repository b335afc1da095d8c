// The Argo CD plugin in process: a plain source directory rendered, fixed
// offline from its lock file and printed; nothing printed when nothing was
// rendered; an Application's settings confined to its source. No archfit is
// started (plain sources start no program at all).
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <archfit/app/output.hpp>
#include <archfit/base/error.hpp>
#include <archfit/surface/argocd/argocd.hpp>

#include "support/surface.hpp"

namespace archfit::surface::argocd {
namespace {

using testing::contains;
using testing::needs_fix;
using testing::SurfaceProject;

struct Ran {
  app::ExitCode code;
  std::string out;
  std::string err;
};

// An Application's source: its manifests, its configuration and lock file.
void source(const SurfaceProject& p) {
  p.write("app/web.yaml", needs_fix("web"));
  p.write("app/.archfit.yaml", testing::kProjectConfig);
  p.write("app/archfit.lock", testing::kProjectLock);
}

Ran generate_in(const SurfaceProject& p, std::map<std::string, std::string> more = {}) {
  ArgoCdRequest request;
  request.kind = "plain";
  request.directory = p / "app";
  request.env = p.variables(std::move(more));
  request.env.emplace("ARGOCD_APP_NAME", "web");
  app::StringOutput out;
  std::ostringstream err;
  app::ExitCode code = generate(request, out, err);
  return {code, out.text(), err.str()};
}

TEST(ArgoCdSurface, GeneratesThePlainSourceFixedFromItsLock) {
  SurfaceProject p;
  source(p);
  Ran r = generate_in(p);
  ASSERT_EQ(r.code, app::kOk) << r.err;
  EXPECT_TRUE(contains(r.out, "key: kubernetes.io/arch")) << r.out;
  EXPECT_TRUE(contains(r.out, "  name: web\n")) << r.out;
}

TEST(ArgoCdSurface, LintModeChangesNothingAndFailsOnErrors) {
  SurfaceProject p;
  source(p);
  Ran r = generate_in(p, {{"PARAM_MODE", "lint"}});
  EXPECT_EQ(r.code, app::kChangesOrFindings);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "post-render failed, so Argo CD stops")) << r.err;
}

TEST(ArgoCdSurface, ASourceThatRendersNoManifestPrintsNothing) {
  SurfaceProject p;
  p.write("app/values.yaml", "replicas: 3\n");
  ArgoCdRequest request;
  request.kind = "plain";
  request.directory = p / "app";
  request.env = p.variables({{"ARGOCD_APP_NAME", "web"}});
  app::StringOutput out;
  std::ostringstream err;
  EXPECT_THROW(generate(request, out, err), Error);
  EXPECT_EQ(out.text(), "");
}

TEST(ArgoCdSurface, ASettingThatLeadsOutOfTheSourceIsRefused) {
  SurfaceProject p;
  source(p);
  EXPECT_THROW(generate_in(p, {{"ARGOCD_ENV_ARCHFIT_LOCK", "../archfit.lock"}}), Error);
  EXPECT_THROW(generate_in(p, {{"ARGOCD_ENV_ARCHFIT_CACHE_DIR", "/tmp"}}), Error);
}

TEST(ArgoCdSurface, DiscoverNamesAPlainSourceWithALock) {
  SurfaceProject p;
  p.write("app/archfit.lock", testing::kProjectLock);
  ArgoCdRequest request;
  request.kind = "plain";
  request.directory = p / "app";
  app::StringOutput out;
  EXPECT_EQ(discover(request, out), app::kOk);
  EXPECT_EQ(out.text(), "archfit.lock\n");
  request.kind = "helm";
  app::StringOutput none;
  discover(request, none);
  EXPECT_EQ(none.text(), "");
}

}  // namespace
}  // namespace archfit::surface::argocd
