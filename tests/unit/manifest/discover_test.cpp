#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::manifest {
namespace {

std::vector<Workload> find(const yaml::Tree& tree, const KindTable& kinds = KindTable::defaults()) {
  return discover(tree, kinds);
}

TEST(Discover, DeploymentContainersAndInitContainers) {
  std::string text = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  labels: {app: web}
spec:
  template:
    metadata:
      labels:
        app: web
        tier: front
    spec:
      initContainers:
      - name: migrate
        image: ghcr.io/acme/migrate:1
      containers:
      - name: app
        image: nginx:1.25
        imagePullPolicy: IfNotPresent
      - name: sidecar
        image: "envoyproxy/envoy:v1.30"
)";
  yaml::Tree tree = yaml::parse_document(text);
  auto ws = find(tree);
  ASSERT_EQ(ws.size(), 1u);
  const Workload& w = ws[0];
  EXPECT_EQ(w.kind, "Deployment");
  EXPECT_EQ(w.api_version, "apps/v1");
  EXPECT_EQ(w.name, "web");
  EXPECT_EQ(w.namespace_name, "shop");
  ASSERT_EQ(w.labels.size(), 1u);
  ASSERT_EQ(w.templates.size(), 1u);
  const PodTemplate& t = w.templates[0];
  EXPECT_EQ(yaml::field_text(t.path), "spec.template");
  EXPECT_EQ(t.namespace_name, "shop");
  ASSERT_EQ(t.labels.size(), 2u);
  EXPECT_EQ(t.labels[1].first, "tier");
  ASSERT_EQ(t.containers.size(), 3u);
  EXPECT_EQ(t.containers[0].name, "app");
  EXPECT_FALSE(t.containers[0].init);
  EXPECT_EQ(t.containers[0].pull_policy, "IfNotPresent");
  EXPECT_EQ(t.containers[0].image.text(), "nginx:1.25");
  EXPECT_EQ(t.containers[0].image.line(), 19u);
  EXPECT_EQ(t.containers[1].image_ref, "envoyproxy/envoy:v1.30");
  EXPECT_EQ(t.containers[1].image.text(), "\"envoyproxy/envoy:v1.30\"");
  EXPECT_EQ(t.containers[2].name, "migrate");
  EXPECT_TRUE(t.containers[2].init);
  EXPECT_EQ(t.spec, tree.root().get("spec").get("template").get("spec"));
}

// A workload field of a type Kubernetes does not read there is an input
// error at its place, naming the field; a null reads as absent.
TEST(Discover, WrongTypedFieldsAreInputErrorsAtTheirPlace) {
  struct Case {
    const char* text;
    const char* message;
    std::uint32_t line;
    std::uint32_t column;
  };
  const Case cases[] = {
      {"apiVersion: apps/v1\nkind: Deployment\nspec: 5\n", "spec is the scalar \"5\"", 3, 7},
      {"apiVersion: apps/v1\nkind: Deployment\nspec:\n  template: [a]\n",
       "spec.template is a list, where Kubernetes reads a mapping", 4, 13},
      {"apiVersion: apps/v1\nkind: Deployment\nspec: {template: {spec: {containers: {a: b}}}}\n",
       "spec.template.spec.containers is a mapping, where Kubernetes reads a list of containers", 3,
       38},
      {"apiVersion: v1\nkind: Pod\nspec: {initContainers: [x]}\n",
       "spec.initContainers[0] is the scalar \"x\", where Kubernetes reads a container", 3, 25},
  };
  for (const Case& c : cases) {
    yaml::Tree tree = yaml::parse_document(c.text);
    try {
      find(tree);
      ADD_FAILURE() << "accepted " << c.text;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Input);
      EXPECT_NE(e.message().find(c.message), std::string::npos) << e.message();
      EXPECT_EQ(e.where().line, c.line) << e.what();
      EXPECT_EQ(e.where().column, c.column) << e.what();
    }
  }
  for (const char* absent : {"apiVersion: apps/v1\nkind: Deployment\nspec:\n",
                             "apiVersion: apps/v1\nkind: Deployment\nspec: {template: ~}\n",
                             "apiVersion: v1\nkind: Pod\nspec: {containers: null}\n"}) {
    yaml::Tree tree = yaml::parse_document(absent);
    EXPECT_NO_THROW(find(tree)) << absent;
  }
}

TEST(Discover, PodIsItsOwnTemplate) {
  yaml::Tree tree = yaml::parse_document(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: b}}\n"
      "spec:\n  containers:\n  - {name: c, image: busybox}\n");
  auto ws = find(tree);
  ASSERT_EQ(ws.size(), 1u);
  ASSERT_EQ(ws[0].templates.size(), 1u);
  EXPECT_EQ(yaml::field_text(ws[0].templates[0].path), "");
  EXPECT_EQ(ws[0].templates[0].node, tree.root());
  EXPECT_EQ(ws[0].templates[0].labels.size(), 1u);
  EXPECT_EQ(ws[0].templates[0].containers[0].image_ref, "busybox");
}

TEST(Discover, ImagePullSecretNames) {
  yaml::Tree tree = yaml::parse_document(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
      "spec:\n  imagePullSecrets:\n  - name: regcred\n  - {}\n  - name: other\n"
      "  containers:\n  - {name: c, image: busybox}\n");
  auto ws = find(tree);
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(ws[0].templates[0].image_pull_secrets, (std::vector<std::string>{"regcred", "other"}));
}

TEST(Discover, CronJobTemplatePath) {
  yaml::Tree tree = yaml::parse_document(R"(apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 0 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers: [{name: c, image: alpine:3.19}]
)");
  auto ws = find(tree);
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(yaml::field_text(ws[0].templates[0].path), "spec.jobTemplate.spec.template");
  EXPECT_EQ(ws[0].templates[0].containers[0].image_ref, "alpine:3.19");
}

TEST(Discover, ListItems) {
  yaml::Tree tree = yaml::parse_document(R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata: {name: s}
- apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: db, namespace: data}
  spec:
    template:
      spec:
        containers: [{name: db, image: postgres:16}]
- apiVersion: extensions/v1beta1
  kind: DaemonSet
  metadata: {name: agent}
  spec:
    template:
      spec:
        containers: [{name: a, image: agent:1}]
)");
  auto ws = find(tree);
  ASSERT_EQ(ws.size(), 2u);
  EXPECT_EQ(yaml::field_text(ws[0].path), "items[1]");
  EXPECT_EQ(ws[0].kind, "StatefulSet");
  EXPECT_EQ(ws[0].namespace_name, "data");
  EXPECT_EQ(yaml::field_text(ws[1].path), "items[2]");
  EXPECT_EQ(ws[1].kind, "DaemonSet");
}

TEST(Discover, ThingsThatAreNotWorkloads) {
  for (const char* text : {
           "just a string\n",
           "- a\n- b\n",
           "metadata: {name: no-kind}\nspec: {template: {spec: {containers: []}}}\n",
           "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
           "spec: {template: {spec: {containers: [{image: x}]}}}\n",
           "apiVersion: v1\nkind: ConfigMap\ndata: {a: b}\n",
           "apiVersion: example.com/v1\nkind: Widget\n"
           "spec: {template: {spec: {containers: [{image: x}]}}}\n",
           "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: no-template}\n",
           "# only a comment\n",
       }) {
    yaml::Tree tree = yaml::parse_document(text);
    EXPECT_TRUE(find(tree).empty()) << text;
  }
}

TEST(Discover, ExtraKindsAndWildcardPaths) {
  std::string text = R"(apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  pools:
  - template:
      spec:
        containers: [{name: a, image: a:1}]
  - template:
      spec:
        containers: [{name: b, image: b:1}]
)";
  yaml::Tree tree = yaml::parse_document(text);
  KindTable kinds = KindTable::defaults();
  kinds.add(KindRule{"example.com/*", "Widget", "spec.pools[].template"});
  auto ws = find(tree, kinds);
  ASSERT_EQ(ws.size(), 1u);
  ASSERT_EQ(ws[0].templates.size(), 2u);
  EXPECT_EQ(yaml::field_text(ws[0].templates[0].path), "spec.pools[0].template");
  EXPECT_EQ(yaml::field_text(ws[0].templates[1].path), "spec.pools[1].template");
  EXPECT_EQ(ws[0].templates[1].containers[0].image_ref, "b:1");

  KindTable other_version = KindTable::defaults();
  other_version.add(KindRule{"example.com/v2", "Widget", "spec.pools[].template"});
  EXPECT_TRUE(find(tree, other_version).empty());
}

TEST(Discover, DefaultCustomKinds) {
  yaml::Tree rollout = yaml::parse_document(
      "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: r}\n"
      "spec: {template: {spec: {containers: [{name: c, image: demo:blue}]}}}\n");
  ASSERT_EQ(find(rollout).size(), 1u);
  yaml::Tree dc = yaml::parse_document(
      "apiVersion: apps.openshift.io/v1\nkind: DeploymentConfig\nmetadata: {name: d}\n"
      "spec: {template: {spec: {containers: [{name: c, image: x}]}}}\n");
  ASSERT_EQ(find(dc).size(), 1u);
  yaml::Tree analysis = yaml::parse_document(R"(apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata: {name: a}
spec:
  metrics:
  - name: query
    provider: {prometheus: {query: up}}
  - name: job
    provider:
      job:
        spec:
          template:
            spec:
              containers: [{name: c, image: curlimages/curl}]
)");
  auto ws = find(analysis);
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(yaml::field_text(ws[0].templates[0].path),
            "spec.metrics[1].provider.job.spec.template");
}

TEST(Discover, ExcludedKinds) {
  yaml::Tree tree = yaml::parse_document(
      "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\n"
      "spec: {template: {spec: {containers: [{name: c, image: x}]}}}\n");
  KindTable kinds = KindTable::defaults();
  kinds.exclude("DaemonSet");
  EXPECT_TRUE(find(tree, kinds).empty());
}

TEST(Discover, ThroughAliases) {
  yaml::Tree tree = yaml::parse_document(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  template:
    spec:
      containers:
      - &main {name: c, image: x:1}
      initContainers:
      - *main
)");
  auto ws = find(tree);
  ASSERT_EQ(ws.size(), 1u);
  ASSERT_EQ(ws[0].templates[0].containers.size(), 2u);
  EXPECT_EQ(ws[0].templates[0].containers[1].image_ref, "x:1");
  EXPECT_TRUE(ws[0].templates[0].containers[1].init);
}

TEST(Discover, ContainerWithoutImage) {
  yaml::Tree tree =
      yaml::parse_document("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n");
  auto ws = find(tree);
  ASSERT_EQ(ws.size(), 1u);
  ASSERT_EQ(ws[0].templates[0].containers.size(), 1u);
  EXPECT_FALSE(ws[0].templates[0].containers[0].image);
  EXPECT_EQ(ws[0].templates[0].containers[0].image_ref, "");
}

}  // namespace
}  // namespace archfit::manifest
