// Each input file uses the nearest .archfit.yaml and the nearest archfit.lock
// above it, as pre-commit passes files of several directories of a monorepo
// in one batch; --config still applies one configuration to all.
#include <string>

#include <gtest/gtest.h>

#include "support/process.hpp"

namespace archfit {
namespace {

using testing::contains;
using testing::ProcessOptions;
using testing::ProcessResult;
using testing::TempDir;

std::string deployment(const std::string& name, const std::string& image) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         "\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: " +
         image + "\n";
}

std::string lock(const std::string& image) {
  return R"({"version": 1, "images": {"docker.io/library/)" + image +
         R"(": {"platforms": ["linux/amd64"]}}})";
}

// teams/a runs amd64 and arm64 nodes; teams/b only amd64. Each locks its own
// image.
class Monorepo : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write("teams/a/.archfit.yaml", "clusterPlatforms: [linux/amd64, linux/arm64]\n");
    repo_.write("teams/a/archfit.lock", lock("a-app:1"));
    repo_.write("teams/a/deploy/app.yaml", deployment("a", "a-app:1"));
    repo_.write("teams/b/.archfit.yaml", "clusterPlatforms: [linux/amd64]\n");
    repo_.write("teams/b/archfit.lock", lock("b-app:1"));
    repo_.write("teams/b/app.yaml", deployment("b", "b-app:1"));
  }

  ProcessResult lint(std::vector<std::string> args) const {
    ProcessOptions o;
    o.cwd = repo_.path();
    o.env = {"ARCHFIT_CONFIG=", "ARCHFIT_CACHE_DIR=" + (repo_ / "cache").string(),
             "HOME=" + (repo_ / "home").string()};
    args.insert(args.begin(), {"lint", "--offline", "--fail-on", "never"});
    return testing::run_archfit(args, o);
  }

  TempDir repo_;
};

TEST_F(Monorepo, EachFileUsesTheNearestConfigurationAndItsLock) {
  ProcessResult r = lint({"teams/a/deploy/app.yaml", "teams/b/app.yaml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // a: amd64-only image on a mixed cluster.
  EXPECT_TRUE(contains(r.out, "teams/a/deploy/app.yaml:8:7: error missing-arch-affinity")) << r.out;
  // b: its own lock knows its image, and its cluster has amd64 nodes only.
  EXPECT_FALSE(contains(r.out, "teams/b/app.yaml")) << r.out;
  EXPECT_FALSE(contains(r.out, "unresolved-image")) << r.out;
  // The same whichever file comes first.
  EXPECT_EQ(lint({"teams/b/app.yaml", "teams/a/deploy/app.yaml"}).out, r.out);
}

TEST_F(Monorepo, ConfigAppliesToEveryFileEachWithItsNearestLock) {
  ProcessResult r =
      lint({"--config", "teams/a/.archfit.yaml", "teams/a/deploy/app.yaml", "teams/b/app.yaml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // teams/a's configuration for both (amd64 and arm64 nodes), and b's own
  // lock for b: its amd64-only image needs affinity there.
  EXPECT_TRUE(contains(r.out, "teams/b/app.yaml:8:7: error missing-arch-affinity")) << r.out;
  EXPECT_FALSE(contains(r.out, "unresolved-image")) << r.out;
}

// A file under no configuration and no lock has the defaults and no lock,
// whatever other files are given with it.
TEST_F(Monorepo, AFileUnderNoConfigurationHasTheDefaults) {
  repo_.write("loose/app.yaml", deployment("c", "a-app:1"));
  ProcessResult alone = lint({"loose/app.yaml"});
  ProcessResult r = lint({"teams/a/deploy/app.yaml", "loose/app.yaml"});
  ASSERT_EQ(r.exit_code, 3) << r.err;  // offline: an unresolved image fails the run
  EXPECT_TRUE(contains(r.out, "loose/app.yaml:10:16: error unresolved-image")) << r.out;
  EXPECT_TRUE(contains(r.out, alone.out.substr(0, alone.out.find('\n')))) << alone.out;
}

// A lock without a configuration beside it is found for the files below it.
TEST_F(Monorepo, ALockWithoutAConfigurationIsFoundForTheFilesBelowIt) {
  repo_.write("deploy/archfit.lock", lock("c-app:1"));
  repo_.write("deploy/prod/app.yaml", deployment("c", "c-app:1"));
  repo_.write("charts/x/values.yaml", "replicaCount: 1\n");
  for (const std::vector<std::string>& paths :
       {std::vector<std::string>{"deploy/prod/app.yaml"}, std::vector<std::string>{"."},
        std::vector<std::string>{"charts/x/values.yaml", "deploy/prod/app.yaml"}}) {
    ProcessResult r = lint(paths);
    EXPECT_TRUE(contains(r.out, "deploy/prod/app.yaml:8:7: error missing-arch-affinity"))
        << paths[0] << "\n"
        << r.out << r.err;
    EXPECT_FALSE(contains(r.out, "deploy/prod/app.yaml:10:16: error unresolved-image"))
        << paths[0] << "\n"
        << r.out;
  }
}

}  // namespace
}  // namespace archfit
