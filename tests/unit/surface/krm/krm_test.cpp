// The KRM function in process: a ResourceList in, its items fixed in place
// and a result per finding out; the functionConfig read as a configuration.
// No archfit is started.
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <archfit/app/output.hpp>
#include <archfit/base/error.hpp>
#include <archfit/surface/krm/krm.hpp>
#include <archfit/yaml/parse.hpp>

#include "support/surface.hpp"

namespace archfit::surface::krm {
namespace {

using testing::contains;
using testing::SurfaceProject;

// Two items: one amd64-only (fix adds affinity), one already fine for both.
const std::string kItems =
    "apiVersion: config.kubernetes.io/v1\n"
    "kind: ResourceList\n"
    "items:\n"
    "- apiVersion: apps/v1\n"
    "  kind: Deployment\n"
    "  metadata:\n"
    "    name: web  # kept\n"
    "    annotations:\n"
    "      config.kubernetes.io/path: deploy/web.yaml\n"
    "  spec:\n"
    "    template:\n"
    "      spec:\n"
    "        containers:\n"
    "        - name: app\n"
    "          image: amd64only:1\n"
    "- apiVersion: v1\n"
    "  kind: ConfigMap\n"
    "  metadata:\n"
    "    name: settings\n"
    "  data: {a: b}\n";

struct Ran {
  app::ExitCode code;
  std::string out;
  std::string err;
};

Ran run(const SurfaceProject& p, std::string list, std::string mode = "fix") {
  KrmRequest request;
  request.flags = p.flags();
  request.mode = std::move(mode);
  request.env = p.env();
  app::StringOutput out;
  std::ostringstream err;
  app::ExitCode code = krm(request, std::move(list), out, err);
  return {code, out.text(), err.str()};
}

TEST(KrmSurface, FixesTheItemsInPlaceAndSaysWhatItFixed) {
  SurfaceProject p;
  Ran r = run(p, kItems);
  ASSERT_EQ(r.code, app::kOk) << r.err;
  EXPECT_TRUE(contains(r.out, "    name: web  # kept\n")) << r.out;
  EXPECT_TRUE(contains(r.out,
                       "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: settings\n"
                       "  data: {a: b}\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "key: kubernetes.io/arch")) << r.out;
  yaml::Tree tree = yaml::parse_document(r.out);
  yaml::NodeRef results = tree.root().get("results");
  ASSERT_TRUE(results.is_sequence()) << r.out;
  bool fixed = false;
  for (std::size_t i = 0; i < results.size(); ++i) {
    std::string message(results.item(i).get("message").scalar());
    if (message.starts_with("fixed missing-arch-affinity")) {
      fixed = true;
      EXPECT_EQ(results.item(i).get("file").get("path").scalar(), "deploy/web.yaml");
      EXPECT_EQ(results.item(i).get("field").get("path").scalar(), "spec.template.spec.affinity");
    }
  }
  EXPECT_TRUE(fixed) << r.out;
}

TEST(KrmSurface, LintLeavesTheItemsAndReportsAnError) {
  SurfaceProject p;
  Ran r = run(p, kItems, "lint");
  EXPECT_EQ(r.code, app::kChangesOrFindings) << r.err;
  EXPECT_TRUE(r.out.starts_with(kItems)) << r.out;
  EXPECT_TRUE(contains(r.out, "results:\n")) << r.out;
}

TEST(KrmSurface, TheFunctionConfigIsTheConfiguration) {
  SurfaceProject p;
  // A cluster of amd64 alone: nothing to add for an amd64-only image.
  std::string list = kItems +
                     "functionConfig:\n  apiVersion: archfit.io/v1alpha1\n  kind: ArchFit\n"
                     "  metadata: {name: archfit}\n  clusterPlatforms: [linux/amd64]\n";
  Ran r = run(p, list);
  ASSERT_EQ(r.code, app::kOk) << r.err;
  EXPECT_FALSE(contains(r.out, "key: kubernetes.io/arch")) << r.out;
}

TEST(KrmSurface, WhatIsNotAResourceListIsRefused) {
  SurfaceProject p;
  EXPECT_THROW(run(p, "apiVersion: v1\nkind: ConfigMap\n"), Error);
}

}  // namespace
}  // namespace archfit::surface::krm
