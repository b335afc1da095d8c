// Which files a run reads: the templates of helm charts are left out with a
// notice, whether named or met in a directory; other files are taken.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/manifest/inputs.hpp>

#include "support/process.hpp"

namespace archfit::manifest {
namespace {

using archfit::testing::contains;
using archfit::testing::TempDir;

std::vector<std::string> names(const Inputs& in) {
  std::vector<std::string> out;
  for (const InputFile& f : in.files)
    out.push_back(f.name);
  return out;
}

struct Chart {
  TempDir dir;
  Chart() {
    dir.write("web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 0.1.0\n");
    dir.write("web/values.yaml", "replicas: 1\n");
    dir.write("web/templates/deployment.yaml",
              "kind: Deployment\nmetadata: {name: {{ .Release.Name }}}\n");
    dir.write("web/templates/sub/service.yaml", "kind: Service\n");
    dir.write("deploy/app.yaml", "kind: Pod\n");
    // A directory named templates that is not a chart's holds manifests.
    dir.write("deploy/templates/pod.yaml", "kind: Pod\n");
  }
  std::string at(const std::string& rel) const { return (dir / rel).string(); }
};

TEST(Inputs, ChartTemplatesNamedAreLeftOutWithOneNoticePerChart) {
  Chart c;
  Inputs in = collect_inputs({c.at("web/templates/deployment.yaml"),
                              c.at("web/templates/sub/service.yaml"), c.at("deploy/app.yaml")});
  EXPECT_EQ(names(in), std::vector<std::string>{c.at("deploy/app.yaml")});
  ASSERT_EQ(in.skipped.size(), 1u);
  EXPECT_TRUE(contains(in.skipped[0], "skipped " + c.at("web/templates/deployment.yaml") +
                                          " and 1 more: templates of the helm chart " +
                                          c.at("web")))
      << in.skipped[0];
  EXPECT_TRUE(contains(in.skipped[0], "helm template")) << in.skipped[0];
}

TEST(Inputs, ChartTemplatesInADirectoryAreLeftOutAndTheRestTaken) {
  Chart c;
  Inputs in = collect_inputs({c.dir.path().string()});
  std::vector<std::string> got = names(in);
  std::vector<std::string> want = {c.at("deploy/app.yaml"), c.at("deploy/templates/pod.yaml"),
                                   c.at("web/Chart.yaml"), c.at("web/values.yaml")};
  EXPECT_EQ(got, want);
  ASSERT_EQ(in.skipped.size(), 1u);
  EXPECT_TRUE(contains(in.skipped[0], "skipped " + c.at("web/templates") +
                                          "/: templates of the helm chart " + c.at("web") +
                                          " are not manifests"))
      << in.skipped[0];
}

TEST(Inputs, AChartsTemplatesDirectoryNamedIsLeftOut) {
  Chart c;
  Inputs in = collect_inputs({c.at("web/templates"), c.at("deploy/templates")});
  EXPECT_EQ(names(in), std::vector<std::string>{c.at("deploy/templates/pod.yaml")});
  EXPECT_EQ(in.skipped.size(), 1u);
}

}  // namespace
}  // namespace archfit::manifest
