// Image pull secrets found in the input stream: Secrets of the two docker
// types, as objects or List items, data decoded and stringData taken as is.
#include <gtest/gtest.h>

#include <archfit/base/base64.hpp>
#include <archfit/base/error.hpp>
#include <archfit/manifest/pull_secrets.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::manifest {
namespace {

const std::string kConfig = R"({"auths":{"ghcr.io":{"auth":"cm9ib3Q6cHc="}}})";

std::vector<PullSecret> find(const std::string& text) {
  yaml::Tree tree = yaml::parse_document(text);
  return find_pull_secrets(tree);
}

TEST(FindPullSecrets, DockerConfigJsonObject) {
  std::vector<PullSecret> found = find(R"(# comment
apiVersion: v1
kind: Secret
metadata:
  name: regcred
  namespace: shop
type: kubernetes.io/dockerconfigjson
data:
  .dockerconfigjson: )" + base64_encode(kConfig) +
                                       "\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].namespace_name, "shop");
  EXPECT_EQ(found[0].name, "regcred");
  EXPECT_FALSE(found[0].legacy);
  EXPECT_EQ(found[0].config_json, kConfig);
  EXPECT_EQ(found[0].line, 2u);
  EXPECT_EQ(found[0].column, 1u);
}

TEST(FindPullSecrets, StringDataIsTakenAsIsAndWinsOverData) {
  std::vector<PullSecret> found = find(R"(apiVersion: v1
kind: Secret
metadata: {name: regcred}
type: kubernetes.io/dockerconfigjson
stringData:
  .dockerconfigjson: '{"auths":{"quay.io":{}}}'
data:
  .dockerconfigjson: )" + base64_encode(kConfig) +
                                       "\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].namespace_name, "");
  EXPECT_EQ(found[0].config_json, R"({"auths":{"quay.io":{}}})");
}

TEST(FindPullSecrets, LegacyDockercfgAndBlockScalars) {
  std::vector<PullSecret> found = find(R"(apiVersion: v1
kind: Secret
metadata: {name: old, namespace: ci}
type: kubernetes.io/dockercfg
data:
  .dockercfg: |
    eyJnaGNyLmlv
    Ijp7fX0=
)");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0].legacy);
  EXPECT_EQ(found[0].config_json, R"({"ghcr.io":{}})");
}

TEST(FindPullSecrets, ListItemsAndOtherObjects) {
  std::vector<PullSecret> found = find(R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Secret
  metadata: {name: tls}
  type: kubernetes.io/tls
  data: {tls.crt: eA==, tls.key: eA==}
- apiVersion: v1
  kind: Secret
  metadata: {name: opaque}
  data: {.dockerconfigjson: e30=}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm}
  type: kubernetes.io/dockerconfigjson
  data: {.dockerconfigjson: e30=}
- apiVersion: v1
  kind: Secret
  metadata: {name: one, namespace: a}
  type: kubernetes.io/dockerconfigjson
  stringData: {.dockerconfigjson: '{}'}
- apiVersion: v1
  kind: Secret
  metadata: {name: empty, namespace: a}
  type: kubernetes.io/dockerconfigjson
- apiVersion: v1
  kind: Secret
  metadata: {name: two, namespace: b}
  type: kubernetes.io/dockerconfigjson
  data: {.dockerconfigjson: e30=}
)");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].name, "one");
  EXPECT_EQ(found[0].namespace_name, "a");
  EXPECT_EQ(found[0].config_json, "{}");
  EXPECT_EQ(found[0].line, 18u);
  EXPECT_EQ(found[0].column, 3u);
  EXPECT_EQ(found[1].name, "two");
  EXPECT_EQ(found[1].config_json, "{}");
  EXPECT_TRUE(find("apiVersion: v1\nkind: ConfigMap\n").empty());
  EXPECT_TRUE(find("# nothing\n").empty());
  EXPECT_TRUE(find("- a\n- b\n").empty());
}

TEST(FindPullSecrets, InvalidBase64IsLocatedAndNeverQuoted) {
  const std::string value = "c2VjcmV0LXRva2VuLXZhbHVl!!";
  try {
    find(R"(apiVersion: v1
kind: Secret
metadata:
  name: regcred
  namespace: shop
type: kubernetes.io/dockerconfigjson
data:
  .dockerconfigjson: )" +
         value + "\n");
    FAIL() << "no error";
  } catch (const Error& e) {
    Error located = e.in_file("deploy.yaml");
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_EQ(
        std::string(located.what()),
        "deploy.yaml:8:22: Secret shop/regcred: data[\".dockerconfigjson\"] is not valid base64; "
        "Secret data values are base64 (or use stringData for plain text)");
    EXPECT_EQ(std::string(e.what()).find("c2VjcmV0"), std::string::npos);
  }
}

}  // namespace
}  // namespace archfit::manifest
