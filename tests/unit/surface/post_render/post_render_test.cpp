// The helm post-renderer in process: a rendered stream in, the fixed stream
// out (or, with lint, the same stream); never empty; a failure said and
// logged, nothing printed. No archfit is started.
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <archfit/app/output.hpp>
#include <archfit/base/file.hpp>
#include <archfit/surface/post_render/post_render.hpp>

#include "support/surface.hpp"

namespace archfit::surface::post_render {
namespace {

using testing::contains;
using testing::needs_fix;
using testing::needs_toleration;
using testing::SurfaceProject;

const std::string kRendered = "---\n# Source: shop/templates/web.yaml\n" + needs_fix("web") +
                              "---\n# Source: shop/templates/api.yaml\n" + needs_toleration("api");

struct Ran {
  app::ExitCode code;
  std::string out;
  std::string err;
};

Ran run(const SurfaceProject& p, std::string stream, bool lint = false) {
  PostRenderRequest request;
  request.flags = p.flags();
  request.lint = lint;
  request.env = p.env({{"ARCHFIT_POST_RENDER_LOG", (p / "post-render.log").string()}});
  app::StringOutput out;
  std::ostringstream err;
  app::ExitCode code = post_render(request, std::move(stream), out, err);
  return {code, out.text(), err.str()};
}

TEST(PostRenderSurface, FixesTheStreamKeepingEveryOtherByte) {
  SurfaceProject p;
  Ran r = run(p, kRendered);
  ASSERT_EQ(r.code, app::kOk) << r.err;
  EXPECT_TRUE(contains(r.out, "key: kubernetes.io/arch")) << r.out;
  EXPECT_TRUE(r.out.starts_with("---\n# Source: shop/templates/web.yaml\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "---\n# Source: shop/templates/api.yaml\n")) << r.out;
  // Fixed again, it stays as it is.
  Ran again = run(p, r.out);
  ASSERT_EQ(again.code, app::kOk) << again.err;
  EXPECT_EQ(again.out, r.out);
}

TEST(PostRenderSurface, LintPassesTheStreamThroughOrFailsPrintingNothing) {
  SurfaceProject p;
  std::string warnings_only = "---\n" + needs_toleration("api");
  Ran ok = run(p, warnings_only, true);
  ASSERT_EQ(ok.code, app::kOk) << ok.err;
  EXPECT_EQ(ok.out, warnings_only);
  Ran bad = run(p, kRendered, true);
  EXPECT_EQ(bad.code, app::kChangesOrFindings);
  EXPECT_EQ(bad.out, "");
  EXPECT_TRUE(contains(bad.err, "error missing-arch-affinity")) << bad.err;
  EXPECT_TRUE(contains(bad.err, "post-render failed, so helm stops")) << bad.err;
  // helm 4 shows no stderr: the same words are in the log.
  std::string log = read_file(p / "post-render.log", ReadLimit{1 << 20, "the log"});
  EXPECT_TRUE(contains(log, "error missing-arch-affinity")) << log;
}

TEST(PostRenderSurface, NeverPrintsNothing) {
  SurfaceProject p;
  for (const std::string& input : {std::string(), std::string("\n"), std::string("---\n")}) {
    Ran r = run(p, input);
    EXPECT_EQ(r.code, app::kOk) << r.err;
    EXPECT_FALSE(r.out.empty()) << "input of " << input.size() << " bytes";
  }
}

TEST(PostRenderSurface, AnImageTheLockLacksFailsTheUnattendedRun) {
  SurfaceProject p;
  std::string unknown = needs_fix("web");
  unknown.replace(unknown.find("amd64only:1"), 11, "unknown:1");
  Ran r = run(p, unknown);
  EXPECT_EQ(r.code, app::kUnresolved) << r.err;
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace archfit::surface::post_render
