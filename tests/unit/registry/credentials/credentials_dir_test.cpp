// The credentials dir: one <registry>.toml per registry, in a small TOML
// subset whose every error names the file, line and column.
#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/registry/credentials/keychain.hpp>

#include "registry/credentials/toml_strings.hpp"
#include "support/process.hpp"
#include "unit/registry/credentials/registry_fakes.hpp"

namespace archfit::registry {
namespace {

using archfit::testing::TempDir;
using registry::testing::fake_env;

class CredentialsDirTest : public ::testing::Test {
 protected:
  CredentialsDirTest() { home_.write("creds/.keep", ""); }
  Keychain keychain() {
    KeychainOptions options;
    options.credentials_dir = (home_ / "creds").string();
    options.getenv = fake_env({{"HOME", home_.path().string()}});
    options.run_helper = testing::FakeHelpers().runner();
    return default_keychain(options);
  }
  void write(const std::string& file, const std::string& text) {
    home_.write("creds/" + file, text);
  }

  TempDir home_;
};

TEST_F(CredentialsDirTest, ReadsOneFilePerRegistry) {
  write("ghcr.io.toml", "user = \"robot\"\nsecret = \"ghp_123\"\n");
  write("docker.io.toml", "# Docker Hub\nuser = 'hubber'\nsecret = 'dckr_pat_x'\n");
  write("localhost:5000.toml", "user = \"local\"\r\nsecret = \"pw\"\r\n");
  Keychain chain = keychain();
  EXPECT_EQ(chain.source_names(),
            (std::vector<std::string>{"credentials dir ~/creds", "~/.docker/config.json"}));

  std::optional<Credential> c = chain.find("ghcr.io", "org/app");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "robot");
  EXPECT_EQ(c->password, "ghp_123");
  EXPECT_EQ(c->source, "~/creds/ghcr.io.toml");

  c = chain.find("docker.io", "library/nginx");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "hubber");
  EXPECT_EQ(c->password, "dckr_pat_x");
  EXPECT_EQ(c->source, "~/creds/docker.io.toml");

  c = chain.find("localhost:5000", "app");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "local");
  EXPECT_EQ(c->password, "pw");

  EXPECT_FALSE(chain.find("quay.io", "org/app"));
  EXPECT_FALSE(chain.find("localhost", "app"));
}

TEST_F(CredentialsDirTest, AnExplicitDirThatDoesNotExistIsAnError) {
  KeychainOptions options;
  options.credentials_dir = (home_ / "nowhere").string();
  options.getenv = fake_env({{"HOME", home_.path().string()}});
  try {
    default_keychain(options);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_STREQ(e.what(),
                 "resolve.credentialsDir: ~/nowhere does not exist; it should hold one "
                 "<registry>.toml file per registry");
  }
  options.credentials_dir = (home_ / "creds/.keep").string();
  EXPECT_THROW(default_keychain(options), Error);
}

TEST_F(CredentialsDirTest, RegistryNamesCannotLeaveTheDirectory) {
  home_.write("outside.toml", "user = \"u\"\nsecret = \"s\"\n");
  Keychain chain = keychain();
  for (const char* name : {"../outside", "..", ".", "a/b", ""}) {
    EXPECT_FALSE(chain.find(name, "x")) << name;
  }
}

TEST_F(CredentialsDirTest, ErrorsNameFileLineAndColumn) {
  struct Row {
    std::string text;
    std::string message;  // after "~/creds/ghcr.io.toml"
  };
  const Row rows[] = {
      {"user = \"u\"\nsecret = \"s\"\npassword = \"p\"\n",
       ":3:1: unknown key \"password\"; a credentials file has user and secret"},
      {"user = \"u\"\n",
       ": missing secret; a credentials file has user = \"...\" and secret = \"...\""},
      {"secret = \"s\"\n",
       ": missing user; a credentials file has user = \"...\" and secret = \"...\""},
      {"user = robot\n",
       ":1:8: expected a string in double quotes (\"...\") or single quotes ('...')"},
      {"user = 42\n",
       ":1:8: expected a string in double quotes (\"...\") or single quotes ('...')"},
      {"user =\n", ":1:7: expected a string in double quotes (\"...\") or single quotes ('...')"},
      {"\n\n  user = \"abc\n", ":3:10: unterminated string; close it with \""},
      {"user = \"u\"\nsecret = \"abc\n", ":2:10: unterminated string; close it with \""},
      {"user = 'abc\n", ":1:8: unterminated string; close it with '"},
      {"user = \"u\"\nsecret = \"a\\qb\"\n",
       ":2:12: invalid escape sequence; use \\\" \\\\ \\n \\t \\r \\b \\f \\uXXXX or \\UXXXXXXXX"},
      {"user = \"\\u12\"\n", ":1:9: \\u takes exactly 4 hexadecimal digits"},
      {"user = \"\\U0000004\"\n", ":1:9: \\U takes exactly 8 hexadecimal digits"},
      {"user = \"\\uD800\"\n", ":1:9: escape is not a Unicode scalar value"},
      {"user = \"\\U00110000\"\n", ":1:9: escape is not a Unicode scalar value"},
      {"user = \"a\tb\x01\"\n",
       ":1:12: control character in a string; write it as an escape (\\n, \\t, \\uXXXX)"},
      {"user = 'a\x7f'\n",
       ":1:10: control character in a string; write it as an escape in a \"basic string\""},
      {"user = \"u\" trailing\n",
       ":1:12: expected the end of the line; write one key = \"value\" per line"},
      {"[auth]\nuser = \"u\"\n",
       ":1:1: tables are not supported here; write key = \"value\" lines"},
      {"user.name = \"u\"\n", ":1:5: dotted keys are not supported; write key = \"value\""},
      {"\"user\" = \"u\"\n",
       ":1:1: quoted keys are not supported; write the key bare: key = \"value\""},
      {"user \"u\"\n", ":1:6: expected '=' after the key \"user\""},
      {"user = \"\"\"u\"\"\"\n",
       ":1:8: multi-line strings are not supported; write the value on one line"},
      {"user = \"u\"\nuser = \"v\"\n", ":2:1: \"user\" is given twice (first on line 1); keep one"},
      {"user = \"u\"\rsecret = \"s\"\n",
       ":1:11: expected the end of the line; write one key = \"value\" per line"},
      {"= \"u\"\n", ":1:1: expected a key (letters, digits, '_' and '-')"},
      {"  # comment é\nuser = \"é\" = \n",
       ":2:12: expected the end of the line; write one key = \"value\" per line"},
  };
  for (const Row& row : rows) {
    write("ghcr.io.toml", row.text);
    try {
      keychain().find("ghcr.io", "a");
      ADD_FAILURE() << "no error for " << row.text;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Config);
      EXPECT_EQ(std::string(e.what()), "~/creds/ghcr.io.toml" + row.message) << row.text;
    }
  }
}

TEST(TomlStrings, ValuesAndEscapes) {
  struct Row {
    std::string text;
    std::string value;
  };
  const Row rows[] = {
      {R"(k = "plain")", "plain"},
      {R"(k = "q\"uote\\back")", "q\"uote\\back"},
      {R"(k = "a\nb\tc\rd\be\ff")", "a\nb\tc\rd\be\ff"},
      {R"(k = "\u00e9\u20AC")", "\xC3\xA9\xE2\x82\xAC"},
      {R"(k = "\U0001F600")", "\xF0\x9F\x98\x80"},
      {R"(k = "tab	inside")", "tab\tinside"},
      {R"(k = 'C:\path\no escapes "here"')", R"(C:\path\no escapes "here")"},
      {R"(k = '')", ""},
      {R"(k = "" # comment)", ""},
      {"\xEF\xBB\xBFk = \"bom\"", "bom"},
      {"k=\"tight\"", "tight"},
      {"\t k \t=\t \"blanks\"\t ", "blanks"},
      {"# only a comment\n\nk = \"after\"\n# trailing", "after"},
  };
  for (const Row& row : rows) {
    std::vector<TomlString> entries = parse_toml_strings(row.text, "f.toml");
    ASSERT_EQ(entries.size(), 1u) << row.text;
    EXPECT_EQ(entries[0].key, "k") << row.text;
    EXPECT_EQ(entries[0].value, row.value) << row.text;
  }
}

TEST(TomlStrings, KeysKeepTheirPositions) {
  std::vector<TomlString> entries =
      parse_toml_strings("# creds\nuser = \"u\"\n\n  secret_2-b = 's'\n", "f.toml");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].key, "user");
  EXPECT_EQ(entries[0].line, 2u);
  EXPECT_EQ(entries[0].column, 1u);
  EXPECT_EQ(entries[1].key, "secret_2-b");
  EXPECT_EQ(entries[1].line, 4u);
  EXPECT_EQ(entries[1].column, 3u);
  EXPECT_TRUE(parse_toml_strings("", "f.toml").empty());
  EXPECT_TRUE(parse_toml_strings("\n\n# x\n", "f.toml").empty());
}

}  // namespace
}  // namespace archfit::registry
