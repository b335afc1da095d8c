// The real credential helper runner, against small shell scripts on a PATH
// of our own: found, not found, failing, killed by a signal, hanging past the
// timeout, writing too much, and leaving a child behind.
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/registry/credentials/keychain.hpp>

#include "support/process.hpp"
#include "unit/registry/credentials/registry_fakes.hpp"

namespace archfit::registry {
namespace {

using archfit::testing::TempDir;
using Clock = std::chrono::steady_clock;

class HelperRunnerTest : public ::testing::Test {
 protected:
  void script(const std::string& name, const std::string& body) {
    std::filesystem::path path = bin_.write(name, "#!/bin/sh\n" + body);
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  }
  HelperRunner runner(std::chrono::milliseconds timeout = std::chrono::seconds(10),
                      std::size_t max_output = 1 << 20) {
    HelperRunnerOptions options;
    options.timeout = timeout;
    options.max_output = max_output;
    options.path = "/nonexistent:" + bin_.path().string() + ":/usr/bin:/bin";
    return process_helper_runner(options);
  }
  std::string error_of(const HelperRunner& run, const std::string& program) {
    try {
      run(program, "ghcr.io");
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Config);
      return e.what();
    }
    return "no error";
  }

  TempDir bin_;
};

TEST_F(HelperRunnerTest, PassesGetAndTheServerUrlOnStdin) {
  script("docker-credential-echo",
         "[ \"$#\" = 1 ] && [ \"$1\" = get ] || { echo \"bad args: $*\" >&2; exit 3; }\n"
         "url=$(cat)\n"
         "printf '{\"ServerURL\":\"%s\",\"Username\":\"robot\",\"Secret\":\"s3\"}' \"$url\"\n"
         "echo note >&2\n");
  HelperOutput out = runner()("docker-credential-echo", "https://index.docker.io/v1/");
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_EQ(out.out,
            R"({"ServerURL":"https://index.docker.io/v1/","Username":"robot","Secret":"s3"})");
  EXPECT_EQ(out.err, "note\n");
}

TEST_F(HelperRunnerTest, ReportsExitCodesAndOutput) {
  script("docker-credential-none",
         "cat >/dev/null\necho 'credentials not found in native keychain'\nexit 1\n");
  script("docker-credential-fail", "echo 'gpg: decryption failed' >&2\nexit 2\n");
  script("docker-credential-killed", "kill -9 $$\n");
  HelperRunner run = runner();
  HelperOutput none = run("docker-credential-none", "ghcr.io");
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_EQ(none.out, "credentials not found in native keychain\n");
  HelperOutput failed = run("docker-credential-fail", "ghcr.io");
  EXPECT_EQ(failed.exit_code, 2);
  EXPECT_EQ(failed.err, "gpg: decryption failed\n");
  EXPECT_EQ(run("docker-credential-killed", "ghcr.io").exit_code, 128 + 9);
}

TEST_F(HelperRunnerTest, NotFoundOnPath) {
  EXPECT_EQ(error_of(runner(), "docker-credential-missing"),
            "docker-credential-missing not found on PATH");
  // A file that is not executable is not a program.
  bin_.write("docker-credential-plain", "#!/bin/sh\nexit 0\n");
  EXPECT_EQ(error_of(runner(), "docker-credential-plain"),
            "docker-credential-plain not found on PATH");
}

TEST_F(HelperRunnerTest, SearchesThePathVariableByDefault) {
  script("docker-credential-env", "echo found\n");
  const char* old = std::getenv("PATH");
  std::string saved = old ? old : "";
  ::setenv("PATH", (bin_.path().string() + ":" + saved).c_str(), 1);
  HelperOutput out;
  try {
    out = process_helper_runner()("docker-credential-env", "ghcr.io");
  } catch (...) {
    ::setenv("PATH", saved.c_str(), 1);
    throw;
  }
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(out.out, "found\n");
}

TEST_F(HelperRunnerTest, KillsAHelperThatHangs) {
  script("docker-credential-hang", "sleep 30\n");
  Clock::time_point start = Clock::now();
  EXPECT_EQ(error_of(runner(std::chrono::milliseconds(300)), "docker-credential-hang"),
            "docker-credential-hang did not finish within 300ms and was killed");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
}

TEST_F(HelperRunnerTest, KillsAHelperThatWritesTooMuch) {
  script("docker-credential-chatty", "while :; do echo yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy; done\n");
  EXPECT_EQ(error_of(runner(std::chrono::seconds(10), 4096), "docker-credential-chatty"),
            "docker-credential-chatty wrote more than 4096 bytes and was killed");
}

// A helper's exit ends the conversation even when a child it left behind
// still holds its stdout open.
TEST_F(HelperRunnerTest, DoesNotWaitForChildrenLeftBehind) {
  script("docker-credential-daemon", "sleep 3 &\necho '{\"Username\":\"u\",\"Secret\":\"s\"}'\n");
  Clock::time_point start = Clock::now();
  HelperOutput out = runner()("docker-credential-daemon", "ghcr.io");
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_EQ(out.out, "{\"Username\":\"u\",\"Secret\":\"s\"}\n");
  EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(2500));
}

TEST_F(HelperRunnerTest, HelperThatNeverReadsStdin) {
  script("docker-credential-deaf", "exit 0\n");
  EXPECT_EQ(runner()("docker-credential-deaf", std::string(4000, 'x')).exit_code, 0);
}

// The whole path: a docker config naming a credsStore, and the real runner.
TEST_F(HelperRunnerTest, KeychainWithARealCredsStore) {
  script(
      "docker-credential-store",
      "url=$(cat)\n"
      "case \"$url\" in\n"
      "  ghcr.io) echo '{\"ServerURL\":\"ghcr.io\",\"Username\":\"robot\",\"Secret\":\"pw\"}' ;;\n"
      "  *) echo 'credentials not found in native keychain'; exit 1 ;;\n"
      "esac\n");
  TempDir home;
  home.write(".docker/config.json", R"({"credsStore": "store",
    "auths": {"quay.io": {"username": "q", "password": "p"}}})");
  KeychainOptions options;
  options.getenv = testing::fake_env({{"HOME", home.path().string()}});
  options.run_helper = runner();
  Keychain chain = default_keychain(options);
  std::optional<Credential> c = chain.find("ghcr.io", "org/app");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "robot");
  EXPECT_EQ(c->password, "pw");
  EXPECT_EQ(c->source, "docker-credential-store (credsStore in ~/.docker/config.json)");
  EXPECT_EQ(chain.find("quay.io", "org/app")->source, "~/.docker/config.json auths");
  EXPECT_FALSE(chain.find("gcr.io", "org/app"));
}

}  // namespace
}  // namespace archfit::registry
