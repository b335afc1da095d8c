// fix and lint in process over a project directory: check writes nothing,
// fix writes every file, remove gives the bytes back, lint agrees with fix.
// No archfit is started.
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <archfit/app/output.hpp>
#include <archfit/base/file.hpp>
#include <archfit/surface/command_line/fix.hpp>
#include <archfit/surface/command_line/lint.hpp>

#include "support/surface.hpp"

namespace archfit::surface::command_line {
namespace {

using testing::contains;
using testing::needs_fix;
using testing::needs_toleration;
using testing::SurfaceProject;

std::string content(const std::filesystem::path& path) {
  return read_file(path, ReadLimit{1 << 20, "a test file"});
}

FixRequest with(bool FixRequest::*flag) {
  FixRequest request;
  if (flag != nullptr) request.*flag = true;
  return request;
}

app::ExitCode fix_in(const SurfaceProject& p, FixRequest request, std::string* out = nullptr) {
  request.paths = {p.path().string()};
  request.flags = p.flags();
  request.env = p.env();
  request.quiet = true;
  app::StringOutput output;
  std::ostringstream err;
  app::ExitCode code = fix(request, output, err);
  if (out) *out = output.text() + err.str();
  return code;
}

app::ExitCode lint_in(const SurfaceProject& p, std::string* out) {
  LintRequest request;
  request.paths = {p.path().string()};
  request.flags = p.flags();
  request.env = p.env();
  request.report.format = "json";
  app::StringOutput output;
  std::ostringstream err;
  app::ExitCode code = lint(request, output, err);
  *out = output.text();
  return code;
}

TEST(CommandLineSurface, CheckWritesNothingFixWritesRemoveGivesTheBytesBack) {
  SurfaceProject p;
  const std::string web = "# the web tier\n" + needs_fix("web");
  const std::string api = needs_toleration("api");
  p.write("web.yaml", web);
  p.write("api.yaml", api);
  std::string said;
  EXPECT_EQ(fix_in(p, with(&FixRequest::check), &said), app::kChangesOrFindings);
  EXPECT_TRUE(contains(said, "would change")) << said;
  EXPECT_EQ(content(p / "web.yaml"), web);
  std::string report;
  EXPECT_EQ(lint_in(p, &report), app::kChangesOrFindings);
  EXPECT_TRUE(contains(report, "missing-arch-affinity")) << report;

  ASSERT_EQ(fix_in(p, with(nullptr)), app::kOk);
  std::string fixed = content(p / "web.yaml");
  EXPECT_TRUE(fixed.starts_with("# the web tier\n")) << fixed;
  EXPECT_TRUE(contains(fixed, "key: kubernetes.io/arch")) << fixed;
  // After fix: nothing left to fix, and lint passes.
  EXPECT_EQ(fix_in(p, with(&FixRequest::check)), app::kOk);
  EXPECT_EQ(lint_in(p, &report), app::kOk) << report;

  ASSERT_EQ(fix_in(p, with(&FixRequest::remove)), app::kOk);
  EXPECT_EQ(content(p / "web.yaml"), web);
  EXPECT_EQ(content(p / "api.yaml"), api);
}

TEST(CommandLineSurface, DiffPrintsThePatchAndWritesNothing) {
  SurfaceProject p;
  p.write("web.yaml", needs_fix("web"));
  std::string said;
  EXPECT_EQ(fix_in(p, with(&FixRequest::diff), &said), app::kChangesOrFindings);
  EXPECT_TRUE(contains(said, "+++ b/")) << said;
  EXPECT_TRUE(contains(said, "+                - amd64\n")) << said;
  EXPECT_EQ(content(p / "web.yaml"), needs_fix("web"));
}

}  // namespace
}  // namespace archfit::surface::command_line
