// docs/configuration.md is the user's reference: it must name every key and
// environment variable, and every configuration example in it must be valid.
#include <algorithm>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/text.hpp>
#include <archfit/config/loader.hpp>
#include <archfit/config/schema.hpp>
#include <archfit/image/reference.hpp>

#include "support/process.hpp"

namespace archfit::config {
namespace {

std::string docs() {
  return read_file(std::string(ARCHFIT_SOURCE_DIR) + "/docs/configuration.md");
}

// Every key has a section of its own ("### placement.mode", or shared as in
// "### namespaces.include, namespaces.exclude") and appears in an example.
TEST(ConfigurationDocs, NameEveryKey) {
  std::string text = docs();
  std::vector<std::string> headings;
  for (std::size_t at = text.find("\n### "); at != std::string::npos;
       at = text.find("\n### ", at + 1)) {
    headings.push_back(text.substr(at + 5, text.find('\n', at + 1) - at - 5));
  }
  for (const KeySpec& key : config_keys()) {
    std::string leaf(key.path.substr(key.path.rfind('.') + 1));
    bool has_section = false;
    for (const std::string& h : headings) {
      for (std::string_view name : split(h, ','))
        has_section |= trim(name) == key.path;
    }
    EXPECT_TRUE(has_section) << key.path;
    EXPECT_NE(text.find(leaf + ":"), std::string::npos) << key.path << " in an example";
  }
}

TEST(ConfigurationDocs, NameEveryEnvironmentVariable) {
  std::string text = docs();
  for (const EnvironmentVariable& v : environment_variables()) {
    EXPECT_NE(text.find("| `" + std::string(v.name) + "` |"), std::string::npos) << v.name;
  }
}

// Blocks fenced as ```yaml are configurations; other YAML uses another info string.
TEST(ConfigurationDocs, EveryYamlExampleIsValid) {
  std::string text = docs();
  int blocks = 0;
  for (std::size_t at = text.find("```yaml\n"); at != std::string::npos;
       at = text.find("```yaml\n", at)) {
    std::size_t begin = at + 8;
    std::size_t end = text.find("```", begin);
    ASSERT_NE(end, std::string::npos);
    std::string block = text.substr(begin, end - begin);
    int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + begin, '\n'));
    try {
      parse_config(block, "docs/configuration.md block at line " + std::to_string(line));
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
    ++blocks;
    at = end + 3;
  }
  EXPECT_GE(blocks, 15);
}

TEST(ConfigurationDocs, CanonicalKeyTableHoldsForTags) {
  for (auto [written, key] : std::vector<std::pair<const char*, const char*>>{
           {"nginx", "docker.io/library/nginx:latest"},
           {"nginx:1.25", "docker.io/library/nginx:1.25"},
           {"bitnami/redis:7.2", "docker.io/bitnami/redis:7.2"},
           {"index.docker.io/library/nginx:1.25", "docker.io/library/nginx:1.25"},
           {"ghcr.io/org/app:v1", "ghcr.io/org/app:v1"},
           {"localhost:5000/app", "localhost:5000/app:latest"}}) {
    EXPECT_EQ(image::Reference::parse(written).canonical(), key) << written;
    EXPECT_NE(docs().find(std::string("| `") + written + "` | `" + key + "` |"), std::string::npos)
        << written;
  }
}

}  // namespace
}  // namespace archfit::config
