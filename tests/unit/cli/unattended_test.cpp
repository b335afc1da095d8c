// Never a silent pass: where nobody reads warnings (offline, CI=true,
// pre-commit, Argo CD, post-render, KRM) an image archfit cannot resolve
// fails the run unless the configuration says what to do; every run says how
// many images it resolved; the hints printed offline name commands that work
// offline (archfit lock --set, archfit images --format lock).
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/process.hpp"

namespace archfit {
namespace {

using testing::contains;
using testing::ProcessOptions;
using testing::ProcessResult;
using testing::TempDir;

const char* const kDeployment =
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: am\nspec:\n  template:\n"
    "    spec:\n      containers:\n      - name: am\n"
    "        image: quay.io/prometheus/alertmanager:v0.27.0\n";

class Unattended : public ::testing::Test {
 protected:
  // A repository's root: no configuration or lock above it applies.
  void SetUp() override { std::filesystem::create_directory(dir_ / ".git"); }

  ProcessResult run(std::vector<std::string> args, std::vector<std::string> env = {},
                    const std::string& stdin_data = "") const {
    ProcessOptions o;
    o.cwd = dir_.path();
    o.stdin_data = stdin_data;
    o.env = {"ARCHFIT_CONFIG=",
             "ARCHFIT_LOCK=",
             "ARCHFIT_OFFLINE=",
             "ARCHFIT_ON_UNRESOLVED=",
             "ARCHFIT_CACHE_DIR=" + (dir_ / "cache").string(),
             "HOME=" + (dir_ / "home").string(),
             "XDG_STATE_HOME=" + (dir_ / "state").string()};
    o.env.insert(o.env.end(), env.begin(), env.end());
    return testing::run_archfit(args, o);
  }
  TempDir dir_;
};

TEST_F(Unattended, AnUnresolvedImageFailsEveryUnattendedRun) {
  dir_.write("deploy/prom.yaml", kDeployment);
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> env;
    const char* reason;
  };
  const Case cases[] = {
      {{"lint", "--offline", "deploy"}, {}, "(offline)"},
      {{"lint", "--timeout=1s", "--", "deploy"}, {"CI=true", "ARCHFIT_OFFLINE=1"}, "(offline)"},
      {{"fix", "--check", "--offline", "deploy"}, {}, "(offline)"},
  };
  for (const Case& c : cases) {
    ProcessResult r = run(c.args, c.env);
    EXPECT_EQ(r.exit_code, 3) << c.args[0] << r.out << r.err;
    EXPECT_TRUE(contains(r.out + r.err, "error unresolved-image")) << r.out << r.err;
    EXPECT_TRUE(contains(r.out + r.err, c.reason)) << r.out << r.err;
    EXPECT_TRUE(contains(r.out + r.err,
                         "archfit lock --set quay.io/prometheus/alertmanager:v0.27.0=PLATFORMS"))
        << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "archfit: 0 of 1 image resolved")) << r.err;
  }
}

// The reasons besides --offline, each alone; the registry is one that
// refuses connections, so that the run is quick and unresolved.
TEST_F(Unattended, CiPreCommitAndArgoCdAreUnattended) {
  std::string deployment = kDeployment;
  deployment.replace(deployment.find("quay.io"), 7, "127.0.0.1:9");
  dir_.write("deploy/prom.yaml", deployment);
  dir_.write(".archfit.yaml", "resolve:\n  timeout: 2s\n");
  struct Case {
    std::vector<std::string> env;
    const char* reason;
  };
  const Case cases[] = {{{"CI=true"}, "(CI=true)"},
                        {{"CI=1"}, "(CI=1)"},
                        {{"PRE_COMMIT=1"}, "(pre-commit)"},
                        {{"ARGOCD_APP_NAME=shop"}, "(Argo CD)"}};
  for (const Case& c : cases) {
    ProcessResult r = run({"lint", "--", "deploy"}, c.env);
    EXPECT_EQ(r.exit_code, 3) << c.reason << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "error unresolved-image")) << r.out;
    EXPECT_TRUE(contains(r.out, c.reason)) << r.out;
  }
  // Watched: a warning; and since it was the only image, nothing was
  // checked, which fails too (exit 3), saying how to resolve it.
  ProcessResult watched = run({"lint", "deploy"}, {"CI=false"});
  EXPECT_EQ(watched.exit_code, 3) << watched.out << watched.err;
  EXPECT_TRUE(contains(watched.out, "warning unresolved-image")) << watched.out;
  EXPECT_TRUE(contains(watched.err,
                       "archfit: the image could not be resolved, so nothing was "
                       "checked. Without a registry, write its platforms"))
      << watched.err;
}

TEST_F(Unattended, TheConfigurationDecides) {
  dir_.write("deploy/prom.yaml", kDeployment);
  for (const char* config :
       {"resolve: {onUnresolved: warn}\n", "resolve: {fallbackPlatforms: [linux/amd64]}\n"}) {
    dir_.write(".archfit.yaml", config);
    ProcessResult r = run({"lint", "--offline", "deploy"});
    EXPECT_NE(r.exit_code, 3) << config << r.out << r.err;
    EXPECT_FALSE(contains(r.out, "error unresolved-image")) << config << r.out;
  }
  std::filesystem::remove(dir_ / ".archfit.yaml");
  ProcessResult r = run({"lint", "--offline", "deploy"}, {"ARCHFIT_ON_UNRESOLVED=ignore"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST_F(Unattended, PostRenderAndKrmFailThroughTheirExitStatus) {
  ProcessResult post = run({"post-render"}, {}, kDeployment);
  EXPECT_EQ(post.exit_code, 3) << post.err;
  EXPECT_TRUE(contains(post.err, "(post-render)")) << post.err;
  std::string list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- " +
                     std::string(
                         "apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    "
                         "name: am\n  spec:\n    template:\n      spec:\n        "
                         "containers:\n        - name: am\n          image: "
                         "quay.io/prometheus/alertmanager:v0.27.0\n");
  ProcessResult krm = run({"krm", "--offline"}, {}, list);
  EXPECT_EQ(krm.exit_code, 3) << krm.err;
  EXPECT_TRUE(contains(krm.out, "\"severity\":\"error\"")) << krm.out;
  // The field as kyaml writes it.
  EXPECT_TRUE(contains(krm.out, "\"path\":\"spec.template.spec.containers[name=am].image\""))
      << krm.out;
  EXPECT_TRUE(contains(krm.err, "0 of 1 image resolved")) << krm.err;
}

TEST_F(Unattended, ALockWithoutARegistry) {
  dir_.write("deploy/prom.yaml", kDeployment);
  // A skeleton lists the images; --set fills them in, canonical and sorted.
  ProcessResult skeleton = run({"images", "--format", "lock", "deploy"});
  EXPECT_EQ(skeleton.exit_code, 0) << skeleton.err;
  EXPECT_EQ(skeleton.out,
            "{\n  \"images\": {\n    \"quay.io/prometheus/alertmanager:v0.27.0\": {\n"
            "      \"platforms\": []\n    }\n  },\n  \"version\": 1\n}\n");
  ProcessResult set = run({"lock", "--lock", "deploy/archfit.lock", "--set",
                           "quay.io/prometheus/alertmanager:v0.27.0=linux/amd64", "--set",
                           "nginx:1.27=linux/arm64,linux/amd64"});
  ASSERT_EQ(set.exit_code, 0) << set.err;
  std::string written = read_file(dir_ / "deploy/archfit.lock");
  EXPECT_EQ(written,
            "{\n  \"images\": {\n    \"docker.io/library/nginx:1.27\": {\n      \"platforms\": [\n"
            "        \"linux/amd64\",\n        \"linux/arm64\"\n      ]\n    },\n"
            "    \"quay.io/prometheus/alertmanager:v0.27.0\": {\n      \"platforms\": [\n"
            "        \"linux/amd64\"\n      ]\n    }\n  },\n  \"version\": 1\n}\n");
  // Found beside the file, from any directory and with any other paths.
  ProcessResult r = run({"lint", "--offline", "."});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "deploy/prom.yaml:8:7: error missing-arch-affinity")) << r.out;
  EXPECT_TRUE(contains(r.err, "archfit: 1 of 1 image resolved (1 from the lock file")) << r.err;
  // Merging keeps the others and is stable: the same --set twice, same bytes.
  ProcessResult again =
      run({"lock", "--lock", "deploy/archfit.lock", "--set", "nginx:1.27=linux/amd64,linux/arm64"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_file(dir_ / "deploy/archfit.lock"), written);
  EXPECT_TRUE(contains(again.err, "unchanged")) << again.err;
}

// A document that cannot be read is named and left out of the lock, which
// is written for the others; that is never a pass.
TEST_F(Unattended, LockLeavesOutWhatCannotBeReadAndSaysSo) {
  dir_.write("apps.yaml",
             "apiVersion: v1\nkind: Pod\nmetadata: {name: a, name: b}\n---\napiVersion: v1\n"
             "kind: Pod\nspec:\n  containers:\n  - {name: c, image: local:1, "
             "imagePullPolicy: Never}\n");
  ProcessResult r = run({"lock", "--offline", "apps.yaml"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "apps.yaml:3:21: error invalid-document: duplicate key")) << r.err;
  EXPECT_TRUE(contains(r.err, "1 document or file could not be read (above)")) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir_ / "archfit.lock"));
}

// An interactive run (none of the reasons above) whose images could none be
// resolved checked nothing: it fails like an unattended run, writes nothing,
// and gives the command that resolves every image without a registry. The
// registry refuses connections, so that the run is quick.
TEST_F(Unattended, AnInteractiveRunThatResolvedNothingChecksNothingAndSaysHow) {
  std::string deployment = kDeployment;
  deployment.replace(deployment.find("quay.io"), 7, "127.0.0.1:9");
  deployment += "      - name: b\n        image: 127.0.0.1:9/other:2\n";
  dir_.write("deploy/prom.yaml", deployment);
  dir_.write(".archfit.yaml", "resolve:\n  timeout: 2s\n");
  for (std::vector<std::string> args :
       {std::vector<std::string>{"lint", "deploy"}, std::vector<std::string>{"fix", "deploy"},
        std::vector<std::string>{"fix", "--check", "deploy"}}) {
    ProcessResult r = run(args, {"CI="});
    EXPECT_EQ(r.exit_code, 3) << args[0] << r.out << r.err;
    EXPECT_TRUE(contains(r.err,
                         "archfit: none of the 2 images could be resolved, so nothing was "
                         "checked"))
        << r.err;
    EXPECT_TRUE(contains(r.err,
                         "  archfit lock --set 127.0.0.1:9/other:2=PLATFORMS "
                         "127.0.0.1:9/prometheus/alertmanager:v0.27.0=PLATFORMS\n"))
        << r.err;
    EXPECT_TRUE(contains(r.err, "archfit images --format lock > archfit.lock")) << r.err;
    // Each finding names its image the same way.
    EXPECT_TRUE(contains(r.out + r.err, "archfit lock --set 127.0.0.1:9/other:2=PLATFORMS"))
        << r.out << r.err;
  }
  EXPECT_EQ(read_file(dir_ / "deploy/prom.yaml"), deployment) << "nothing was written";
  // The command it gives, run as given (several entries after one --set),
  // resolves them: the run checks, and fails on what it found.
  ProcessResult set = run({"lock", "--set", "127.0.0.1:9/other:2=linux/amd64",
                           "127.0.0.1:9/prometheus/alertmanager:v0.27.0=linux/amd64"});
  ASSERT_EQ(set.exit_code, 0) << set.err;
  ProcessResult r = run({"lint", "deploy"}, {"CI="});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "error missing-arch-affinity")) << r.out;
  // The configuration decides otherwise: warn passes without the images.
  std::filesystem::remove(dir_ / "archfit.lock");
  dir_.write(".archfit.yaml", "resolve:\n  timeout: 2s\n  onUnresolved: warn\n");
  r = run({"lint", "deploy"}, {"CI="});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST_F(Unattended, LockSetRefusesWhatIsNotAnEntry) {
  for (const char* bad :
       {"nginx", "Nginx:1=linux/amd64", "nginx:1=linux", "nginx:1=", "--offline=linux/amd64"}) {
    ProcessResult r = run({"lock", "--set", bad});
    EXPECT_EQ(r.exit_code, 2) << bad << r.err;
    EXPECT_TRUE(contains(r.err, "--set \"" + std::string(bad) + "\"")) << bad << r.err;
  }
  // A file after --set is not an entry: refused, naming it.
  dir_.write("deploy.yaml", kDeployment);
  ProcessResult r = run({"lock", "--set", "nginx:1=linux/amd64", "deploy.yaml"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "\"deploy.yaml\" is not IMAGE=PLATFORMS")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "archfit.lock"));
}

TEST_F(Unattended, VerboseShowsEachFilesConfigurationAndLock) {
  dir_.write("deploy/prom.yaml", kDeployment);
  dir_.write("deploy/archfit.lock", "{\"version\": 1, \"images\": {}}\n");
  dir_.write("charts/x/templates/d.yaml", kDeployment);
  ProcessResult r = run({"lint", "-v", "--offline", "--fail-on", "never", "charts", "deploy"},
                        {"ARCHFIT_ON_UNRESOLVED=warn"});
  EXPECT_TRUE(contains(r.err,
                       "archfit: deploy/prom.yaml: configuration none (defaults); lock "
                       "file deploy/archfit.lock (the nearest archfit.lock)"))
      << r.err;
  EXPECT_TRUE(contains(r.err,
                       "archfit: charts/x/templates/d.yaml: configuration none "
                       "(defaults); no lock file"))
      << r.err;
}

}  // namespace
}  // namespace archfit
