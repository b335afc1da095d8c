#include <gtest/gtest.h>

#include <archfit/manifest/discover.hpp>
#include <archfit/manifest/source.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::manifest {
namespace {

TEST(RenderedSource, Helm3CommentBeforeTheContent) {
  EXPECT_EQ(source_comment("---\n# Source: shop/templates/web.yaml\napiVersion: v1\n"),
            "shop/templates/web.yaml");
  EXPECT_EQ(source_comment("# Source: a/templates/x.yaml  \r\nkind: Pod\r\n"),
            "a/templates/x.yaml");
  EXPECT_EQ(source_comment("---\n# generated\n\n# Source: a/b.yaml\nkind: Pod\n"), "a/b.yaml");
  // Not a source: after the content, or not at the start of a line.
  EXPECT_EQ(source_comment("kind: Pod\n# Source: a/b.yaml\n"), "");
  EXPECT_EQ(source_comment("kind: Pod # Source: a/b.yaml\n"), "");
  EXPECT_EQ(source_comment(""), "");
}

TEST(RenderedSource, Helm4PostrenderAnnotation) {
  yaml::Tree tree = yaml::parse_document(
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n"
      "    postrenderer.helm.sh/postrender-filename: shop/templates/web.yaml\n"
      "spec:\n  template:\n    spec:\n      containers: [{name: a, image: a}]\n");
  std::vector<Workload> workloads = discover(tree, KindTable::defaults());
  ASSERT_EQ(workloads.size(), 1u);
  EXPECT_EQ(source_annotation(workloads[0]), "shop/templates/web.yaml");

  yaml::Tree plain = yaml::parse_document(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: "
      "a}]}\n");
  EXPECT_EQ(source_annotation(discover(plain, KindTable::defaults()).at(0)), "");
}

}  // namespace
}  // namespace archfit::manifest
