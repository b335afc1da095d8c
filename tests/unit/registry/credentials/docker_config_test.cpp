// The docker config source: auths in every form docker writes, key
// normalization and Docker Hub's aliases, credHelpers -> credsStore -> auths
// with fall-through on "credentials not found", and located errors.
#include "registry/credentials/docker_config.hpp"

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/registry/credentials/keychain.hpp>

#include "support/process.hpp"
#include "unit/registry/credentials/registry_fakes.hpp"

namespace archfit::registry {
namespace {

using archfit::testing::TempDir;
using registry::testing::basic_auth;
using registry::testing::fake_env;
using registry::testing::FakeHelpers;

// A home directory with a docker config, and the keychain over it.
class DockerConfigTest : public ::testing::Test {
 protected:
  void write_config(const std::string& json) { home_.write(".docker/config.json", json); }
  Keychain keychain() {
    KeychainOptions options;
    options.getenv = fake_env({{"HOME", home_.path().string()}});
    options.run_helper = helpers_.runner();
    return default_keychain(options);
  }
  std::optional<Credential> find(const char* registry, const char* repository = "org/app") {
    return keychain().find(registry, repository);
  }

  TempDir home_;
  FakeHelpers helpers_;
};

TEST_F(DockerConfigTest, AuthsEntryForms) {
  struct Row {
    std::string entry;
    Credential want;
  };
  const Row rows[] = {
      {R"({"auth": ")" + basic_auth("robot", "pa:ss") + R"("})", {"robot", "pa:ss", "", "", ""}},
      {R"({"username": "robot", "password": "pw"})", {"robot", "pw", "", "", ""}},
      // "auth" wins over username and password, as in docker.
      {R"({"auth": ")" + basic_auth("a", "b") + R"(", "username": "x", "password": "y"})",
       {"a", "b", "", "", ""}},
      {R"({"auth": ")" + basic_auth("u", std::string("p\0\0", 3)) + R"("})",
       {"u", "p", "", "", ""}},
      {R"({"username": "robot", "identitytoken": "refresh-tok"})",
       {"robot", "", "refresh-tok", "", ""}},
      {R"({"registrytoken": "bearer-tok"})", {"", "", "", "bearer-tok", ""}},
      {R"({"auth": ")" + basic_auth("robot", "pw") +
           R"(", "email": "r@example.com", "serveraddress": "ghcr.io"})",
       {"robot", "pw", "", "", ""}},
  };
  for (const Row& row : rows) {
    write_config(R"({"auths": {"ghcr.io": )" + row.entry + "}}");
    std::optional<Credential> c = find("ghcr.io");
    ASSERT_TRUE(c) << row.entry;
    EXPECT_EQ(c->username, row.want.username) << row.entry;
    EXPECT_EQ(c->password, row.want.password) << row.entry;
    EXPECT_EQ(c->identity_token, row.want.identity_token) << row.entry;
    EXPECT_EQ(c->registry_token, row.want.registry_token) << row.entry;
    EXPECT_EQ(c->source, "~/.docker/config.json auths") << row.entry;
  }
}

TEST_F(DockerConfigTest, KeysAreNormalized) {
  struct Row {
    const char* key;
    const char* registry;
    bool found;
  };
  const Row rows[] = {
      {"ghcr.io", "ghcr.io", true},
      {"https://ghcr.io", "ghcr.io", true},
      {"https://ghcr.io/", "ghcr.io", true},
      {"http://ghcr.io/v2/", "ghcr.io", true},
      {"GHCR.io", "ghcr.io", true},
      {"ghcr.io", "GHCR.IO", true},
      {"ghcr.io", "quay.io", false},
      {"ghcr.io", "ghcr.io:443", false},
      {"localhost:5000", "localhost:5000", true},
      {"http://localhost:5000/", "localhost:5000", true},
      {"localhost:5000", "localhost", false},
      {"localhost", "localhost:5000", false},
      {"[::1]:5000", "[::1]:5000", true},
      {"registry.example.com/v1/", "registry.example.com", true},
      // Docker Hub under every name it goes by.
      {"https://index.docker.io/v1/", "docker.io", true},
      {"index.docker.io", "docker.io", true},
      {"docker.io", "docker.io", true},
      {"registry-1.docker.io", "docker.io", true},
      {"https://registry-1.docker.io/v2/", "docker.io", true},
      {"https://index.docker.io/v1/", "registry-1.docker.io", true},
      {"https://index.docker.io/v1/", "ghcr.io", false},
      {"docker.io:5000", "docker.io", false},
  };
  for (const Row& row : rows) {
    write_config(std::string(R"({"auths": {")") + row.key + R"(": {"auth": ")" +
                 basic_auth("u", "p") + R"("}}})");
    EXPECT_EQ(find(row.registry).has_value(), row.found) << row.key << " for " << row.registry;
  }
}

// podman writes keys for a namespace ("quay.io/org"); docker drops key paths.
// The key that fits the repository best wins; a host key comes next.
TEST_F(DockerConfigTest, KeyPathsPreferTheRepository) {
  write_config(R"({"auths": {
    "quay.io/other": {"username": "other", "password": "p"},
    "quay.io": {"username": "host", "password": "p"},
    "quay.io/org": {"username": "org", "password": "p"},
    "quay.io/org/team": {"username": "team", "password": "p"}}})");
  EXPECT_EQ(find("quay.io", "org/team/app")->username, "team");
  EXPECT_EQ(find("quay.io", "org/app")->username, "org");
  EXPECT_EQ(find("quay.io", "organic/app")->username, "host");
  EXPECT_EQ(find("quay.io", "x/y")->username, "host");
  write_config(R"({"auths": {"quay.io/other": {"username": "other", "password": "p"}}})");
  EXPECT_EQ(find("quay.io", "x/y")->username, "other");
}

TEST_F(DockerConfigTest, EntriesWithoutCredentialsAreSkipped) {
  // Docker Desktop leaves empty entries behind when a credsStore holds the secrets.
  write_config(R"({"auths": {"https://ghcr.io": {}, "ghcr.io": {"username": "u", "password": "p"},
                             "quay.io": {}, "gcr.io": null}})");
  EXPECT_EQ(find("ghcr.io")->username, "u");
  EXPECT_FALSE(find("quay.io"));
  EXPECT_FALSE(find("gcr.io"));
}

TEST_F(DockerConfigTest, CredHelpersThenCredsStoreThenAuths) {
  write_config(R"({
    "credHelpers": {"ghcr.io": "gh"},
    "credsStore": "store",
    "auths": {"ghcr.io": {"username": "from-auths", "password": "p"}}})");
  helpers_.credentials("docker-credential-gh", "ghcr.io", "from-helper", "s1");
  helpers_.credentials("docker-credential-store", "ghcr.io", "from-store", "s2");
  std::optional<Credential> c = find("ghcr.io");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "from-helper");
  EXPECT_EQ(c->password, "s1");
  EXPECT_EQ(c->source, "docker-credential-gh (credHelpers in ~/.docker/config.json)");
  EXPECT_EQ(
      helpers_.calls,
      (std::vector<std::pair<std::string, std::string>>{{"docker-credential-gh", "ghcr.io"}}));
}

TEST_F(DockerConfigTest, NotFoundFallsThroughToTheNextStep) {
  write_config(R"({
    "credHelpers": {"ghcr.io": "gh", "https://index.docker.io/v1/": "hub"},
    "credsStore": "store",
    "auths": {"ghcr.io": {"username": "from-auths", "password": "p"}}})");
  helpers_.credentials("docker-credential-store", "ghcr.io", "from-store", "s2");
  std::optional<Credential> c = find("ghcr.io");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "from-store");
  EXPECT_EQ(c->source, "docker-credential-store (credsStore in ~/.docker/config.json)");

  // Neither helper knows quay.io, and auths has nothing: anonymous.
  EXPECT_FALSE(find("quay.io"));

  // A "not found" message on stderr counts too.
  FakeHelpers& h = helpers_;
  h.answer("docker-credential-store", "ghcr.io",
           HelperOutput{1, "", "error: Credentials not found for ghcr.io\n"});
  c = find("ghcr.io");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "from-auths");
  EXPECT_EQ(c->source, "~/.docker/config.json auths");
}

TEST_F(DockerConfigTest, HelpersGetDockerHubsServerUrl) {
  write_config(R"({"credHelpers": {"docker.io": "hub"}, "credsStore": "store"})");
  EXPECT_FALSE(find("docker.io", "library/nginx"));
  EXPECT_FALSE(find("localhost:5000"));
  EXPECT_EQ(helpers_.calls, (std::vector<std::pair<std::string, std::string>>{
                                {"docker-credential-hub", "https://index.docker.io/v1/"},
                                {"docker-credential-store", "https://index.docker.io/v1/"},
                                {"docker-credential-store", "localhost:5000"}}));
}

TEST_F(DockerConfigTest, HelperIdentityToken) {
  write_config(R"({"credsStore": "acr"})");
  helpers_.credentials("docker-credential-acr", "example.azurecr.io", "<token>", "refresh");
  std::optional<Credential> c = find("example.azurecr.io");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "");
  EXPECT_EQ(c->password, "");
  EXPECT_EQ(c->identity_token, "refresh");
}

TEST_F(DockerConfigTest, HelperEmptyAnswerIsNoCredentials) {
  write_config(
      R"({"credsStore": "store", "auths": {"ghcr.io": {"username": "u", "password": "p"}}})");
  helpers_.credentials("docker-credential-store", "ghcr.io", "", "");
  EXPECT_EQ(find("ghcr.io")->username, "u");
}

TEST_F(DockerConfigTest, HelperIsAskedOncePerServer) {
  write_config(R"({"credsStore": "store"})");
  helpers_.credentials("docker-credential-store", "ghcr.io", "u", "s");
  Keychain chain = keychain();
  EXPECT_TRUE(chain.find("ghcr.io", "a/b"));
  EXPECT_TRUE(chain.find("ghcr.io", "c/d"));
  EXPECT_FALSE(chain.find("quay.io", "a/b"));
  EXPECT_FALSE(chain.find("quay.io", "a/b"));
  EXPECT_EQ(helpers_.calls.size(), 2u);
}

TEST_F(DockerConfigTest, HelperFailureNamesTheHelperAndWhatItSaid) {
  write_config(R"({"credsStore": "pass"})");
  helpers_.answer("docker-credential-pass", "ghcr.io",
                  HelperOutput{1, "", "gpg: decryption failed: No secret key\n"});
  try {
    find("ghcr.io");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_STREQ(e.what(),
                 "cannot get credentials for ghcr.io from docker-credential-pass (credsStore in "
                 "~/.docker/config.json): exit code 1: \"gpg: decryption failed: No secret key\"");
  }
  // docker's helpers print their errors on stdout.
  helpers_.answer("docker-credential-pass", "quay.io",
                  HelperOutput{1, "pass not initialized\n", ""});
  EXPECT_THROW(
      {
        try {
          find("quay.io");
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("exit code 1: \"pass not initialized\""),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      Error);
}

TEST_F(DockerConfigTest, HelperThatCannotRunIsAnError) {
  write_config(R"({"credHelpers": {"gcr.io": "gcloud"}})");
  KeychainOptions options;
  options.getenv = fake_env({{"HOME", home_.path().string()}});
  options.run_helper = [](const std::string& program, const std::string&) -> HelperOutput {
    fail(ErrorKind::Config, program + " not found on PATH");
  };
  try {
    default_keychain(options).find("gcr.io", "p/app");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "cannot get credentials for gcr.io from docker-credential-gcloud (credHelpers in "
                 "~/.docker/config.json): docker-credential-gcloud not found on PATH");
  }
}

TEST_F(DockerConfigTest, HelperNamesCannotBePaths) {
  write_config(R"({"credsStore": "../../tmp/evil"})");
  try {
    find("ghcr.io");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "cannot get credentials for ghcr.io from docker-credential-../../tmp/evil "
                 "(credsStore in ~/.docker/config.json): \"../../tmp/evil\" is not a helper name");
  }
  EXPECT_TRUE(helpers_.calls.empty());
}

TEST_F(DockerConfigTest, HelperAnswerThatIsNotTheProtocol) {
  write_config(R"({"credsStore": "odd"})");
  for (const char* out : {"not json", "[1]", R"({"Username": 1, "Secret": "x"})"}) {
    helpers_.answer("docker-credential-odd", "ghcr.io", HelperOutput{0, out, ""});
    try {
      find("ghcr.io");
      ADD_FAILURE() << "no error for " << out;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()),
                "cannot get credentials for ghcr.io from docker-credential-odd (credsStore in "
                "~/.docker/config.json): its answer is not the JSON object {\"ServerURL\", "
                "\"Username\", \"Secret\"} of the helper protocol");
    }
  }
}

TEST_F(DockerConfigTest, MissingFileHasNoCredentials) {
  EXPECT_FALSE(find("ghcr.io"));
  EXPECT_EQ(keychain().source_names(), std::vector<std::string>{"~/.docker/config.json"});
}

TEST_F(DockerConfigTest, MalformedFileIsLocated) {
  struct Row {
    std::string json;
    std::string message;
  };
  const Row rows[] = {
      {"{\n  \"auths\": {,}\n}",
       "~/.docker/config.json:2:13: invalid JSON: missing a name for object member"},
      {"{\"auths\": {}",
       "~/.docker/config.json:1:13: invalid JSON: missing a comma or '}' after an object member"},
      {"[]", "~/.docker/config.json: the document: expected an object, got an array"},
      {R"({"auths": []})",
       "~/.docker/config.json: auths: expected an object of registry -> auth, got an array"},
      {R"({"auths": {"ghcr.io": "x"}})",
       "~/.docker/config.json: auths.\"ghcr.io\": expected an object, got a string"},
      {R"({"auths": {"ghcr.io": {"password": 7}}})",
       "~/.docker/config.json: auths.\"ghcr.io\".password: expected a string, got a number"},
      {R"({"auths": {"ghcr.io": {"auth": "%%%"}}})",
       "~/.docker/config.json: auths.\"ghcr.io\".auth: not valid base64; write base64 of "
       "\"user:password\""},
      {R"({"auths": {"ghcr.io": {"auth": "dXNlcg=="}}})",
       "~/.docker/config.json: auths.\"ghcr.io\".auth: expected base64 of \"user:password\", but "
       "the decoded text has no ':'"},
      {R"({"credsStore": ["x"]})",
       "~/.docker/config.json: credsStore: expected a string, got an array"},
      {R"({"credHelpers": {"gcr.io": 1}})",
       "~/.docker/config.json: credHelpers.\"gcr.io\": expected a string, got a number"},
  };
  for (const Row& row : rows) {
    write_config(row.json);
    try {
      find("ghcr.io");
      ADD_FAILURE() << "no error for " << row.json;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Config);
      EXPECT_EQ(std::string(e.what()), row.message);
    }
  }
}

TEST_F(DockerConfigTest, AnUnreadableFileIsAnError) {
  home_.write(".docker/config.json/oops", "");  // a directory where the file should be
  try {
    find("ghcr.io");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read ~/.docker/config.json: Is a directory");
  }
}

TEST_F(DockerConfigTest, UnrelatedSettingsAreIgnored) {
  write_config(R"({"psFormat": "table", "HttpHeaders": {"User-Agent": "x"}, "proxies": {},
                   "auths": {"ghcr.io": {"username": "u", "password": "p"}}, "credsStore": null})");
  EXPECT_EQ(find("ghcr.io")->username, "u");
}

// $DOCKER_CONFIG is a directory; resolve.dockerConfig a file and wins over both.
TEST(DockerConfigLocation, DockerConfigVariableAndExplicitPath) {
  TempDir dir;
  dir.write("home/.docker/config.json",
            R"({"auths": {"ghcr.io": {"username": "home", "password": "p"}}})");
  dir.write("env/config.json", R"({"auths": {"ghcr.io": {"username": "env", "password": "p"}}})");
  dir.write("explicit.json",
            R"({"auths": {"ghcr.io": {"username": "explicit", "password": "p"}}})");
  std::string home = (dir / "home").string();
  KeychainOptions options;
  options.run_helper = FakeHelpers().runner();

  options.getenv = fake_env({{"HOME", home}});
  EXPECT_EQ(default_keychain(options).find("ghcr.io", "a")->username, "home");

  options.getenv = fake_env({{"HOME", home}, {"DOCKER_CONFIG", (dir / "env/").string()}});
  Keychain env = default_keychain(options);
  EXPECT_EQ(env.find("ghcr.io", "a")->username, "env");
  EXPECT_EQ(env.source_names(), std::vector<std::string>{(dir / "env/config.json").string()});

  options.docker_config = (dir / "explicit.json").string();
  EXPECT_EQ(default_keychain(options).find("ghcr.io", "a")->username, "explicit");

  // Without HOME or DOCKER_CONFIG there is no docker config to read.
  options.docker_config.clear();
  options.getenv = fake_env({});
  EXPECT_TRUE(default_keychain(options).source_names().empty());
}

// podman's auth.json is the same format, read by the same code.
TEST(RegistryAuthFile, ComesBeforeTheDockerConfig) {
  TempDir dir;
  dir.write("home/.docker/config.json",
            R"({"auths": {"ghcr.io": {"username": "docker", "password": "p"},
                          "quay.io": {"username": "docker", "password": "p"}}})");
  dir.write("run/containers/auth.json",
            R"({"auths": {"ghcr.io": {"auth": ")" + basic_auth("podman", "pw") + R"("}},
                "credHelpers": {"gcr.io": "gcr"}})");
  FakeHelpers helpers;
  helpers.credentials("docker-credential-gcr", "gcr.io", "oauth2accesstoken", "tok");
  KeychainOptions options;
  options.run_helper = helpers.runner();
  std::string auth_file = (dir / "run/containers/auth.json").string();
  options.getenv = fake_env({{"HOME", (dir / "home").string()}, {"REGISTRY_AUTH_FILE", auth_file}});
  Keychain chain = default_keychain(options);
  EXPECT_EQ(chain.source_names(), (std::vector<std::string>{auth_file + " ($REGISTRY_AUTH_FILE)",
                                                            "~/.docker/config.json"}));
  std::optional<Credential> c = chain.find("ghcr.io", "a/b");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "podman");
  EXPECT_EQ(c->password, "pw");
  EXPECT_EQ(c->source, auth_file + " auths");
  EXPECT_EQ(chain.find("quay.io", "a/b")->username, "docker");
  c = chain.find("gcr.io", "p/app");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->source, "docker-credential-gcr (credHelpers in " + auth_file + ")");

  // A REGISTRY_AUTH_FILE that does not exist holds nothing.
  options.getenv = fake_env(
      {{"HOME", (dir / "home").string()}, {"REGISTRY_AUTH_FILE", (dir / "missing.json").string()}});
  EXPECT_EQ(default_keychain(options).find("ghcr.io", "a/b")->username, "docker");

  // And a broken one is an error naming it.
  dir.write("broken.json", "{");
  options.getenv = fake_env(
      {{"HOME", (dir / "home").string()}, {"REGISTRY_AUTH_FILE", (dir / "broken.json").string()}});
  try {
    default_keychain(options).find("ghcr.io", "a/b");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "broken.json").string() +
                                         ":1:2: invalid JSON: missing a name for object member");
  }
}

}  // namespace
}  // namespace archfit::registry
