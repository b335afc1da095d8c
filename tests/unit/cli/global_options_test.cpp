// Global options before the command, as git and kubectl take them, and
// `archfit --version`.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/flags.hpp"
#include "support/process.hpp"

namespace archfit {
namespace {

using Args = std::vector<std::string>;

TEST(HoistGlobalOptions, MovesTheCommonFlagsBeforeTheCommandToAfterIt) {
  EXPECT_EQ(cli::hoist_global_options({"archfit", "--offline", "--lock", "L", "lint", "x.yaml"}),
            (Args{"archfit", "lint", "--offline", "--lock", "L", "x.yaml"}));
  EXPECT_EQ(cli::hoist_global_options({"archfit", "--config=c.yaml", "-v", "fix", "--", "-q"}),
            (Args{"archfit", "fix", "--config=c.yaml", "-v", "--", "-q"}));
  // Nothing to move, or an option it does not know: left for CLI11 to judge.
  EXPECT_EQ(cli::hoist_global_options({"archfit", "lint", "--offline"}),
            (Args{"archfit", "lint", "--offline"}));
  EXPECT_EQ(cli::hoist_global_options({"archfit", "--bogus", "lint"}),
            (Args{"archfit", "--bogus", "lint"}));
  EXPECT_EQ(cli::hoist_global_options({"archfit", "--lock"}), (Args{"archfit", "--lock"}));
  EXPECT_EQ(cli::hoist_global_options({"archfit", "--offline"}), (Args{"archfit", "--offline"}));
  // A file named like a command after an option that takes a value is its value.
  EXPECT_EQ(cli::hoist_global_options({"archfit", "--config", "lint", "fix", "a"}),
            (Args{"archfit", "fix", "--config", "lint", "a"}));
}

TEST(HoistGlobalOptions, VersionAloneOrBeforeACommand) {
  EXPECT_EQ(cli::hoist_global_options({"archfit", "--version"}), (Args{"archfit", "version"}));
  EXPECT_EQ(cli::hoist_global_options({"archfit", "--version", "lint"}),
            (Args{"archfit", "version"}));
  testing::ProcessResult r = testing::run_archfit({"--version"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, testing::run_archfit({"version"}).out);
}

TEST(HoistGlobalOptions, TheSameRunEitherWay) {
  testing::TempDir dir;
  dir.write(
      "archfit.lock",
      R"({"version": 1, "images": {"docker.io/library/a:1": {"platforms": ["linux/amd64"]}}})");
  dir.write("d.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
            "    image: a:1\n");
  testing::ProcessOptions o;
  o.cwd = dir.path();
  o.env = {"ARCHFIT_CONFIG=", "ARCHFIT_LOCK=", "ARCHFIT_CACHE_DIR=" + (dir / "cache").string()};
  testing::ProcessResult before =
      testing::run_archfit({"--offline", "--lock", "archfit.lock", "lint", "d.yaml"}, o);
  testing::ProcessResult after =
      testing::run_archfit({"lint", "--offline", "--lock", "archfit.lock", "d.yaml"}, o);
  EXPECT_EQ(before.exit_code, 1) << before.err;
  EXPECT_EQ(before.out, after.out);
  EXPECT_EQ(before.err, after.err);
}

}  // namespace
}  // namespace archfit
