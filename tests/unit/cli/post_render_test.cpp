// `archfit post-render` as helm runs it: stdin to stdout, never empty, a
// pass-through --lint, and failures also in the log helm 4 users read.
#include <string>

#include <gtest/gtest.h>

#include <archfit/base/file.hpp>

#include "support/process.hpp"
#include "support/project.hpp"

namespace archfit {
namespace {

using testing::contains;
using testing::needs_fix;
using testing::needs_toleration;
using testing::ProcessResult;
using testing::Project;

const std::string kRendered = "---\n# Source: shop/templates/web.yaml\n" + needs_fix("web") +
                              "---\n# Source: shop/templates/api.yaml\n" + needs_toleration("api");

TEST(PostRender, FixesTheStreamAsFixDoes) {
  Project p;
  ProcessResult post = p.run({"post-render", "--log", (p / "log").string()}, kRendered);
  ProcessResult fix = p.run({"fix", "-"}, kRendered);
  ASSERT_EQ(post.exit_code, 0) << post.err;
  EXPECT_EQ(post.out, fix.out);
  EXPECT_NE(post.out, kRendered);
  EXPECT_TRUE(contains(post.out, "---\n# Source: shop/templates/api.yaml\n")) << post.out;
}

TEST(PostRender, OutputIsNeverEmpty) {
  Project p;
  for (const std::string& input : {std::string(), std::string("\n"), std::string("---\n")}) {
    ProcessResult r = p.run({"post-render"}, input);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(r.out.empty()) << "input of " << input.size() << " bytes";
  }
}

TEST(PostRender, LintPassesTheStreamThroughByteForByteOrFails) {
  Project p;
  std::string warnings_only = "---\n# Source: shop/templates/api.yaml\n" + needs_toleration("api");
  ProcessResult ok = p.run({"post-render", "--lint"}, warnings_only);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, warnings_only);
  EXPECT_TRUE(contains(ok.err, "missing-toleration")) << ok.err;
  ProcessResult bad = p.run({"post-render", "--lint", "--log", (p / "log").string()}, kRendered);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_TRUE(bad.out.empty());
  EXPECT_TRUE(contains(bad.err, "<stdin>:10:")) << bad.err;
  EXPECT_TRUE(contains(bad.err, " (shop/templates/web.yaml): error missing-arch-affinity"))
      << bad.err;
}

TEST(PostRender, FailuresAreLoggedForHelm4WhichShowsNoStderr) {
  Project p;
  std::string log = (p / "state" / "post-render.log").string();
  ProcessResult r = p.run({"post-render", "--log", log}, "kind: Pod\nspec: [1\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  std::string text = read_file(log);
  EXPECT_TRUE(contains(text, "archfit post-render failed")) << text;
  EXPECT_TRUE(contains(text, "<stdin>:3:1: error unreadable-file")) << text;
  EXPECT_TRUE(contains(r.err, "this is also in " + log)) << r.err;
}

// A document archfit cannot read was not checked: helm stops, whatever
// --fail-on says, and is told where.
TEST(PostRender, ADocumentThatCannotBeReadIsNeverAPass) {
  Project p;
  std::string stream = "kind: ConfigMap\nmetadata: {name: a, name: b}\n";
  ProcessResult r = p.run({"post-render", "--fail-on", "never"}, stream);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(contains(r.err, "<stdin>:2:21: error invalid-document: duplicate key \"name\""))
      << r.err;
  EXPECT_TRUE(contains(r.err, "1 fault in the rendered manifests")) << r.err;
}

}  // namespace
}  // namespace archfit
