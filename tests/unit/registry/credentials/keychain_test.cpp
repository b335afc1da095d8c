// The keychain: sources asked in order, the first answer wins, none means
// anonymous; and the default chain's order over real files.
#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/registry/credentials/keychain.hpp>

#include "support/process.hpp"
#include "unit/registry/credentials/registry_fakes.hpp"

namespace archfit::registry {
namespace {

using archfit::testing::TempDir;
using registry::testing::fake_env;

// Knows one registry; records what it was asked.
class TableSource : public CredentialSource {
 public:
  TableSource(std::string name, std::string registry, Credential credential,
              std::vector<std::string>* asked)
      : name_(std::move(name)),
        registry_(std::move(registry)),
        credential_(std::move(credential)),
        asked_(asked) {}
  std::optional<Credential> find(std::string_view registry,
                                 std::string_view repository) const override {
    asked_->push_back(name_ + " " + std::string(registry) + "/" + std::string(repository));
    if (registry != registry_) return std::nullopt;
    return credential_;
  }
  std::string name() const override { return name_; }

 private:
  std::string name_;
  std::string registry_;
  Credential credential_;
  std::vector<std::string>* asked_;
};

Credential basic(const char* user, const char* source = "") {
  Credential c;
  c.username = user;
  c.password = "pw";
  c.source = source;
  return c;
}

TEST(Keychain, FirstSourceThatKnowsTheRegistryWins) {
  std::vector<std::string> asked;
  Keychain chain;
  chain.add(std::make_unique<TableSource>("one", "ghcr.io", basic("first", "one:src"), &asked));
  chain.add(std::make_unique<TableSource>("two", "quay.io", basic("second", "two:src"), &asked));
  chain.add(std::make_unique<TableSource>("three", "quay.io", basic("third"), &asked));
  chain.add(std::make_unique<TableSource>("four", "gcr.io", basic("fourth"), &asked));

  EXPECT_EQ(chain.source_names(), (std::vector<std::string>{"one", "two", "three", "four"}));

  std::optional<Credential> c = chain.find("quay.io", "org/app");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "second");
  EXPECT_EQ(c->source, "two:src");
  EXPECT_EQ(asked, (std::vector<std::string>{"one quay.io/org/app", "two quay.io/org/app"}));

  // A source that leaves Credential::source empty is named by the keychain.
  c = chain.find("gcr.io", "p/app");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "fourth");
  EXPECT_EQ(c->source, "four");

  asked.clear();
  EXPECT_FALSE(chain.find("docker.io", "library/nginx"));
  EXPECT_EQ(asked.size(), 4u);
}

TEST(Keychain, EmptyCredentialsAreNoAnswer) {
  std::vector<std::string> asked;
  Keychain chain;
  chain.add(std::make_unique<TableSource>("empty", "ghcr.io", Credential{}, &asked));
  chain.add(std::make_unique<TableSource>("real", "ghcr.io", basic("u"), &asked));
  EXPECT_EQ(chain.find("ghcr.io", "a")->username, "u");
}

TEST(Keychain, EmptyKeychainIsAnonymous) {
  Keychain chain;
  EXPECT_FALSE(chain.find("ghcr.io", "a"));
  EXPECT_TRUE(chain.source_names().empty());
}

TEST(Keychain, ProcessGetenvTreatsEmptyAsUnset) {
  ::setenv("ARCHFIT_TEST_KEYCHAIN_VAR", "", 1);
  EXPECT_EQ(process_getenv()("ARCHFIT_TEST_KEYCHAIN_VAR"), std::nullopt);
  ::setenv("ARCHFIT_TEST_KEYCHAIN_VAR", "x", 1);
  EXPECT_EQ(process_getenv()("ARCHFIT_TEST_KEYCHAIN_VAR"), "x");
  ::unsetenv("ARCHFIT_TEST_KEYCHAIN_VAR");
  EXPECT_EQ(process_getenv()("ARCHFIT_TEST_KEYCHAIN_VAR"), std::nullopt);
}

// credentials dir, then $REGISTRY_AUTH_FILE, then the docker config: each
// registry is answered by the first file that has it.
TEST(DefaultKeychain, MostSpecificSourceFirst) {
  TempDir home;
  home.write("creds/ghcr.io.toml", "user = \"dir\"\nsecret = \"s\"\n");
  home.write("auth.json", R"({"auths": {
      "ghcr.io": {"username": "authfile", "password": "p"},
      "quay.io": {"username": "authfile", "password": "p"}}})");
  home.write(".docker/config.json", R"({"auths": {
      "ghcr.io": {"username": "docker", "password": "p"},
      "quay.io": {"username": "docker", "password": "p"},
      "https://index.docker.io/v1/": {"username": "docker", "password": "p"}}})");
  KeychainOptions options;
  options.credentials_dir = (home / "creds").string();
  options.getenv = fake_env(
      {{"HOME", home.path().string()}, {"REGISTRY_AUTH_FILE", (home / "auth.json").string()}});
  options.run_helper = testing::FakeHelpers().runner();
  Keychain chain = default_keychain(options);
  EXPECT_EQ(chain.source_names(), (std::vector<std::string>{"credentials dir ~/creds",
                                                            "~/auth.json ($REGISTRY_AUTH_FILE)",
                                                            "~/.docker/config.json"}));
  EXPECT_EQ(chain.find("ghcr.io", "a")->source, "~/creds/ghcr.io.toml");
  EXPECT_EQ(chain.find("quay.io", "a")->source, "~/auth.json auths");
  EXPECT_EQ(chain.find("docker.io", "library/nginx")->source, "~/.docker/config.json auths");
  EXPECT_FALSE(chain.find("gcr.io", "a"));
}

// A broken file is reported when it is needed, not when the chain is built:
// a run whose images are all locked never reads it.
TEST(DefaultKeychain, FilesAreReadWhenFirstNeeded) {
  TempDir home;
  home.write(".docker/config.json", "{not json");
  KeychainOptions options;
  options.getenv = fake_env({{"HOME", home.path().string()}});
  Keychain chain = default_keychain(options);
  EXPECT_THROW(chain.find("ghcr.io", "a"), Error);
  EXPECT_THROW(chain.find("ghcr.io", "a"), Error);
}

}  // namespace
}  // namespace archfit::registry
