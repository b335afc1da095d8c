// Where a finding ends: just after the last character of the node it is on
// (blanks and line breaks aside), whatever the node spans.
#include "placement/reporter.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/manifest/discover.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::placement::detail {
namespace {

// A value of 1 to 12 characters, some of them of two, three or four bytes.
std::string value(std::mt19937& random) {
  static const std::vector<std::string> pieces = {"a", "Z", "0", "-", "é", "日本", "😀", " x"};
  std::string out = "v";
  int n = std::uniform_int_distribution<int>(1, 12)(random);
  for (int i = 0; i < n; ++i)
    out += pieces[static_cast<std::size_t>(random() % pieces.size())];
  return out;
}

// A Deployment whose containers carry envs of generated values, in block or
// flow style, with comments and blank lines between them.
std::string deployment(std::mt19937& random) {
  std::string text =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ünïcode\nspec:\n  template:\n"
      "    spec:\n      containers:\n";
  int containers = std::uniform_int_distribution<int>(1, 3)(random);
  for (int c = 0; c < containers; ++c) {
    text += "      - name: c" + std::to_string(c) + "\n        image: app:1\n";
    int envs = std::uniform_int_distribution<int>(0, 4)(random);
    if (envs > 0) text += "        env:\n";
    for (int e = 0; e < envs; ++e) {
      if (random() % 2 == 0) {
        text += "        - {name: E" + std::to_string(e) + ", value: \"" + value(random) + "\"}\n";
      } else {
        text += "        - name: E" + std::to_string(e) + "\n          value: \"" + value(random) +
                "\"  # " + value(random) + "\n";
      }
      if (random() % 4 == 0) text += "\n";
    }
  }
  if (random() % 2 == 0) text += "      # a comment with ü after the spec\n";
  return text;
}

// The line and column just after the node's last character, counted from the
// start of the document.
std::pair<std::uint32_t, std::uint32_t> expected_end(std::string_view document, yaml::NodeRef at) {
  std::string_view node = at.text();
  std::size_t end = static_cast<std::size_t>(node.data() - document.data()) +
                    node.find_last_not_of(" \t\r\n") + 1;
  std::string_view before = document.substr(0, end);
  auto line = static_cast<std::uint32_t>(1 + std::count(before.begin(), before.end(), '\n'));
  std::size_t line_start = before.rfind('\n');
  line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
  std::uint32_t column = 1;
  for (char c : before.substr(line_start)) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++column;
  }
  return {line, column};
}

TEST(Reporter, AFindingEndsJustAfterTheLastCharacterOfItsNode) {
  std::mt19937 random(20261127);
  const Config& config = Config::defaults();
  for (int round = 0; round < 300; ++round) {
    const std::string text = deployment(random);
    yaml::Tree tree = yaml::parse_document(text);
    std::vector<manifest::Workload> workloads = manifest::discover(tree, config.kinds);
    ASSERT_EQ(workloads.size(), 1u) << text;
    const manifest::PodTemplate& t = workloads[0].templates.at(0);
    TemplateContext where{&workloads[0], &t, "t.yaml", 0, false, nullptr, {}};
    std::vector<findings::Finding> found;
    Reporter reporter(where, found);
    std::vector<yaml::NodeRef> nodes = {t.spec};
    for (const manifest::Container& c : t.containers) {
      nodes.push_back(c.node);
      nodes.push_back(c.image);
    }
    for (yaml::NodeRef at : nodes) {
      const findings::Finding& f = reporter.add("missing-arch-affinity", findings::Severity::Error,
                                                "m", at, yaml::key_path({"affinity"}));
      auto [line, column] = expected_end(text, at);
      EXPECT_EQ(f.line, at.line());
      EXPECT_EQ(f.end_line, line) << text;
      EXPECT_EQ(f.end_column, column) << text;
    }
  }
}

}  // namespace
}  // namespace archfit::placement::detail
