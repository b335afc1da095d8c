// Each input file uses the nearest .archfit.yaml and the nearest archfit.lock
// above it, as pre-commit passes files of several directories of a monorepo
// in one batch; --config still applies one configuration to all.
#include <filesystem>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/corpus.hpp"
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
// image. The repository's root ends every search, whatever lies above it.
class Monorepo : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directory(repo_ / ".git");
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

namespace archfit {
namespace {

// "file:line:col: severity rule" of every finding line of lint's text output,
// with the file as a path from `root` (whatever directory archfit ran in).
std::multiset<std::string> findings_of(const std::string& out, const std::filesystem::path& cwd,
                                       const std::filesystem::path& root) {
  std::multiset<std::string> found;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::size_t yaml = line.find(".yaml:");
    if (yaml == std::string::npos) continue;
    std::filesystem::path file = (cwd / line.substr(0, yaml + 5)).lexically_normal();
    std::string rest = line.substr(yaml + 5);
    std::size_t rule_end = rest.find(':', rest.find(' ', rest.find(' ') + 1));
    found.insert(file.lexically_relative(root).string() + rest.substr(0, rule_end));
  }
  return found;
}

// The law: what archfit finds in a file depends on the file and the
// configuration and lock above it, never on which other paths are given or
// on the directory archfit runs in. Over generated layouts: configurations
// and locks at random depths, files using images that some locks know.
// Each directory's spread profiles apply to its own workloads, the pools of
// every file to all of them.
TEST_F(Monorepo, EachConfigurationSpreadsItsOwnWorkloads) {
  const std::string pools = R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: spot}
spec:
  template:
    spec:
      requirements:
      - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: on-demand}
spec:
  template:
    spec:
      requirements:
      - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
)";
  repo_.write("pools.yaml", pools);
  auto config = [](const std::string& label) {
    return "clusterPlatforms: [linux/amd64]\nspread:\n  profiles:\n  - name: " + label +
           "\n    realisation: topologySpread\n    label: " + label +
           "\n    groups:\n    - {pool: on-demand, weight: 1}\n    - {pool: spot, weight: 4}\n"
           "    workloads: {}\n";
  };
  auto labelled = [](const std::string& name) {
    return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
           "\nspec:\n  selector:\n    matchLabels: {app: " + name +
           "}\n  template:\n    metadata:\n      labels: {app: " + name +
           "}\n    spec:\n      containers:\n      - name: app\n        image: " + name +
           "-app:1\n";
  };
  repo_.write("teams/a/.archfit.yaml", config("a-spread"));
  repo_.write("teams/b/.archfit.yaml", config("b-spread"));
  repo_.write("teams/a/deploy/app.yaml", labelled("a"));
  repo_.write("teams/b/app.yaml", labelled("b"));
  ProcessOptions o;
  o.cwd = repo_.path();
  o.env = {"ARCHFIT_CONFIG=", "ARCHFIT_CACHE_DIR=" + (repo_ / "cache").string(),
           "HOME=" + (repo_ / "home").string()};
  ProcessResult r = testing::run_archfit({"fix", "--offline", "--quiet", "--", "pools.yaml",
                                          "teams/a/deploy/app.yaml", "teams/b/app.yaml"},
                                         o);
  ASSERT_LE(r.exit_code, 1) << r.err;
  std::string a = testing::read(repo_ / "teams/a/deploy/app.yaml");
  std::string b = testing::read(repo_ / "teams/b/app.yaml");
  EXPECT_TRUE(contains(a, "topologyKey: a-spread")) << a;
  EXPECT_FALSE(contains(a, "b-spread")) << a;
  EXPECT_TRUE(contains(b, "topologyKey: b-spread")) << b;
  EXPECT_FALSE(contains(b, "a-spread")) << b;
}

TEST(MonorepoLaw, AFilesFindingsDoNotDependOnTheOtherPathsOrTheDirectory) {
  std::mt19937 rng(23);
  const std::vector<std::string> dirs = {"", "a", "a/b", "a/b/c", "d", "d/e"};
  const std::vector<std::string> images = {"one:1", "two:1", "three:1"};
  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE(::testing::Message() << "round " << round);
    TempDir repo;
    std::filesystem::create_directories(repo.path() / ".git");
    std::filesystem::create_directories(repo.path() / "d/e");
    for (const std::string& d : dirs) {
      std::filesystem::path dir = d.empty() ? repo.path() : repo.path() / d;
      if (rng() % 3 == 0) {
        repo.write((dir / ".archfit.yaml").lexically_relative(repo.path()).string(),
                   rng() % 2 ? "clusterPlatforms: [linux/amd64]\n"
                             : "clusterPlatforms: [linux/amd64, linux/arm64]\n");
      }
      if (rng() % 2 == 0) {
        std::string entries;
        for (const std::string& image : images) {
          if (rng() % 2) continue;
          if (!entries.empty()) entries += ", ";
          entries += "\"docker.io/library/" + image + "\": {\"platforms\": [" +
                     (rng() % 2 ? "\"linux/amd64\"" : "\"linux/amd64\", \"linux/arm64\"") + "]}";
        }
        repo.write((dir / "archfit.lock").lexically_relative(repo.path()).string(),
                   "{\"version\": 1, \"images\": {" + entries + "}}\n");
      }
    }
    std::vector<std::string> files;
    for (const std::string& d : dirs) {
      if (rng() % 2) continue;
      std::string name =
          (d.empty() ? "" : d + "/") + "app" + std::to_string(files.size()) + ".yaml";
      repo.write(name,
                 deployment("w" + std::to_string(files.size()), images[rng() % images.size()]));
      files.push_back(name);
    }
    if (files.empty()) continue;
    auto lint_in = [&](const std::filesystem::path& cwd, std::vector<std::string> args) {
      ProcessOptions o;
      o.cwd = cwd;
      o.env = {"ARCHFIT_CONFIG=", "ARCHFIT_LOCK=", "ARCHFIT_ON_UNRESOLVED=",
               "ARCHFIT_CACHE_DIR=" + (repo.path() / ".cache").string(),
               "HOME=" + (repo.path() / ".home").string()};
      args.insert(args.begin(), {"lint", "--offline", "--fail-on", "never", "--"});
      ProcessResult r = testing::run_archfit(args, o);
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.err;
      return findings_of(r.out, cwd, repo.path());
    };
    std::multiset<std::string> alone;
    for (const std::string& f : files) {
      std::multiset<std::string> one = lint_in(repo.path(), {f});
      alone.insert(one.begin(), one.end());
    }
    EXPECT_FALSE(alone.empty());
    EXPECT_EQ(lint_in(repo.path(), files), alone);
    EXPECT_EQ(lint_in(repo.path(), {"."}), alone);
    std::vector<std::string> reversed(files.rbegin(), files.rend());
    EXPECT_EQ(lint_in(repo.path(), reversed), alone);
    std::vector<std::string> from_d;
    for (const std::string& f : files)
      from_d.push_back("../../" + f);
    EXPECT_EQ(lint_in(repo.path() / "d/e", from_d), alone);
  }
}

}  // namespace
}  // namespace archfit
