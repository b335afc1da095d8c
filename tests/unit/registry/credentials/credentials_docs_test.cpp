// docs/configuration.md describes pull secret matching with a table and shows
// the error messages of credential files: both must stay true.
#include <gtest/gtest.h>

#include <archfit/base/file.hpp>
#include <archfit/base/text.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/registry/credentials/pull_secrets.hpp>

#include "support/process.hpp"

namespace archfit::registry {
namespace {

std::string docs() {
  return read_file(std::string(ARCHFIT_SOURCE_DIR) + "/docs/configuration.md");
}

// "`a`, `b`" -> {"a", "b"}
std::vector<std::string> code_spans(std::string_view cell) {
  std::vector<std::string> out;
  for (std::string_view part : split(cell, ',')) {
    part = trim(part);
    if (part.size() >= 2 && part.front() == '`' && part.back() == '`') {
      out.emplace_back(part.substr(1, part.size() - 2));
    }
  }
  return out;
}

TEST(CredentialsDocs, PullSecretMatchTableHolds) {
  std::string text = docs();
  std::size_t at = text.find("| key in the secret | matches | does not match |");
  ASSERT_NE(at, std::string::npos);
  at = text.find('\n', text.find('\n', at) + 1) + 1;  // skip the header and |---|
  int rows = 0;
  while (at < text.size() && text[at] == '|') {
    std::size_t end = text.find('\n', at);
    std::vector<std::string_view> cells = split(std::string_view(text).substr(at, end - at), '|');
    ASSERT_EQ(cells.size(), 5u) << text.substr(at, end - at);
    std::vector<std::string> key = code_spans(cells[1]);
    ASSERT_EQ(key.size(), 1u);
    Credential c;
    c.username = "u";
    PullSecretAuths secret{"ns/s", {AuthEntry{key[0], c}}};
    for (int column : {2, 3}) {
      for (const std::string& image : code_spans(cells[column])) {
        bool matches = !match_pull_secrets({secret}, image::Reference::parse(image)).empty();
        EXPECT_EQ(matches, column == 2) << key[0] << " vs " << image;
      }
    }
    ++rows;
    at = end + 1;
  }
  EXPECT_GE(rows, 5);
}

TEST(CredentialsDocs, ShowsTheMessagesArchfitWrites) {
  std::string text = docs();
  for (const char* message : {
           "~/creds/ghcr.io.toml:3:1: unknown key \"password\"; a credentials file has user and "
           "secret",
           "~/creds/ghcr.io.toml:2:10: unterminated string; close it with \"",
           "~/creds/ghcr.io.toml: missing secret; a credentials file has user = \"...\" and "
           "secret = \"...\"",
           "~/.docker/config.json:2:13: invalid JSON: missing a name for object member",
           "cannot get credentials for ghcr.io from docker-credential-pass (credsStore in "
           "~/.docker/config.json): exit code 1: \"gpg: decryption failed: No secret key\"",
           "cannot get credentials for gcr.io from docker-credential-gcloud (credHelpers in "
           "~/.docker/config.json): docker-credential-gcloud not found on PATH",
           "deploy.yaml:8:22: Secret shop/regcred: data[\".dockerconfigjson\"] is not valid "
           "base64; Secret data values are base64 (or use stringData for plain text)",
       }) {
    EXPECT_NE(text.find(message), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace archfit::registry
