// No error message ever carries a password, secret or token from its input:
// every credential-reading path is made to fail with a distinctive secret
// inside the input, and the message is searched for it (and its base64).
#include <functional>

#include <gtest/gtest.h>

#include <archfit/base/base64.hpp>
#include <archfit/base/error.hpp>
#include <archfit/manifest/pull_secrets.hpp>
#include <archfit/registry/credentials/keychain.hpp>
#include <archfit/registry/credentials/pull_secrets.hpp>
#include <archfit/yaml/parse.hpp>

#include "support/process.hpp"
#include "unit/registry/credentials/registry_fakes.hpp"

namespace archfit::registry {
namespace {

using archfit::testing::TempDir;
using registry::testing::fake_env;
using registry::testing::FakeHelpers;

const std::string kSecret = "Sup3rS3cretValue";

void expect_secret_free(const std::string& what, const std::function<void()>& action) {
  try {
    action();
    ADD_FAILURE() << what << ": no error";
  } catch (const Error& e) {
    std::string message = e.what();
    for (const std::string& needle : {kSecret, base64_encode(kSecret),
                                      base64_encode("robot:" + kSecret), std::string("S3cret")}) {
      EXPECT_EQ(message.find(needle), std::string::npos) << what << ": " << message;
    }
  }
}

std::optional<Credential> find_with_config(const std::string& config, HelperRunner run = nullptr) {
  TempDir home;
  home.write(".docker/config.json", config);
  KeychainOptions options;
  options.getenv = fake_env({{"HOME", home.path().string()}});
  FakeHelpers none;
  options.run_helper = run ? std::move(run) : none.runner();
  return default_keychain(options).find("ghcr.io", "org/app");
}

TEST(SecretsInMessages, DockerConfig) {
  const std::string json_cases[] = {
      // An "auth" that is not base64 (the secret itself, with a character base64 lacks).
      R"({"auths": {"ghcr.io": {"auth": ")" + kSecret + R"(!"}}})",
      // base64 of a text without ':'.
      R"({"auths": {"ghcr.io": {"auth": ")" + base64_encode(kSecret) + R"("}}})",
      // Invalid JSON right after a secret.
      R"({"auths": {"ghcr.io": {"password": ")" + kSecret + R"(" "x"}}})",
      // A bad escape inside a secret.
      R"({"auths": {"ghcr.io": {"password": ")" + kSecret + R"(\q"}}})",
      // Wrong types beside a secret.
      R"({"auths": {"ghcr.io": {"password": ")" + kSecret + R"(", "username": 1}}})",
      R"({"auths": {"ghcr.io": {"identitytoken": [")" + kSecret + R"("]}}})",
  };
  for (const std::string& json : json_cases) {
    expect_secret_free(json, [&] { find_with_config(json); });
  }
}

TEST(SecretsInMessages, CredentialHelpers) {
  const HelperOutput outputs[] = {
      // A failing helper that printed an answer anyway.
      {1, R"({"ServerURL":"ghcr.io","Username":"robot","Secret":")" + kSecret + R"("})", ""},
      // An answer that is not the protocol.
      {0, R"({"Username":"robot","Secret":[")" + kSecret + R"("]})", ""},
      {0, "robot:" + kSecret, ""},
      {0, R"({"Username":"robot","Secret":")" + kSecret + R"(")", ""},
  };
  for (const HelperOutput& output : outputs) {
    FakeHelpers helpers;
    helpers.answer("docker-credential-store", "ghcr.io", output);
    expect_secret_free(output.out,
                       [&] { find_with_config(R"({"credsStore": "store"})", helpers.runner()); });
  }
}

TEST(SecretsInMessages, CredentialsDir) {
  const std::string files[] = {
      "user = \"robot\"\nsecret = \"" + kSecret + "\\q\"\n",
      "user = \"robot\"\nsecret = \"" + kSecret + "\n",
      "user = \"robot\"\nsecret = '" + kSecret + "\n",
      "user = \"robot\"\nsecret = \"" + kSecret + "\x01\"\n",
      "user = \"robot\"\nsecret = \"" + kSecret + "\" " + kSecret + "\n",
      "user = \"robot\"\nsecret = " + kSecret + "\n",
      "user = \"robot\"\nsecret = \"" + kSecret + "\\u12\"\n",
      "user = \"robot\"\nsecret = \"" + kSecret + "\"\nsecret = \"" + kSecret + "\"\n",
  };
  for (const std::string& text : files) {
    TempDir home;
    home.write("creds/ghcr.io.toml", text);
    KeychainOptions options;
    options.credentials_dir = (home / "creds").string();
    options.getenv = fake_env({{"HOME", home.path().string()}});
    expect_secret_free(text, [&] { default_keychain(options).find("ghcr.io", "a"); });
  }
}

TEST(SecretsInMessages, PullSecrets) {
  expect_secret_free("data not base64", [] {
    std::string text =
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n"
        "type: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: " +
        kSecret + "!\n";
    yaml::Tree tree = yaml::parse_document(text);
    manifest::find_pull_secrets(tree);
  });
  const std::string json_cases[] = {
      R"({"auths": {"ghcr.io": {"auth": ")" + kSecret + R"(!"}}})",
      R"({"auths": {"ghcr.io": {"auth": ")" + base64_encode(kSecret) + R"("}}})",
      R"({"auths": {"ghcr.io": {"password": ")" + kSecret + R"(" oops}}})",
      R"({"auths": {"ghcr.io": {"password": ")" + kSecret + R"(", "username": {}}}})",
  };
  for (const std::string& json : json_cases) {
    expect_secret_free(json, [&] { parse_pull_secret(json, "ns/s", false); });
  }
}

}  // namespace
}  // namespace archfit::registry
