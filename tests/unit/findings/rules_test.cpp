// The rule table, docs/rules.md and the rules the code reports stay in step.
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/findings/rules.hpp>

#include "support/corpus.hpp"

namespace archfit::findings {
namespace {

std::set<std::string> table_ids() {
  std::set<std::string> ids;
  for (const Rule& r : rules())
    ids.insert(std::string(r.id));
  return ids;
}

// docs/rules.md: a section and a table row for each rule, and none for a rule
// that does not exist; the row's severity starts with the table's, and it
// says "no" exactly for a rule fix does not fix.
TEST(RuleTable, DocsHaveASectionAndARowForEachRuleAndAgree) {
  std::string doc = archfit::testing::read(archfit::testing::source_dir() / "docs" / "rules.md");
  std::set<std::string> sections;
  std::map<std::string, std::vector<std::string>> rows;
  std::istringstream in(doc);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) sections.insert(line.substr(3));
    if (line.rfind("| [", 0) == 0) {
      std::string id = line.substr(3, line.find(']') - 3);
      std::vector<std::string> cells;
      std::istringstream cols(line);
      for (std::string cell; std::getline(cols, cell, '|');) {
        std::size_t b = cell.find_first_not_of(' ');
        std::size_t e = cell.find_last_not_of(' ');
        if (b != std::string::npos) cells.push_back(cell.substr(b, e - b + 1));
      }
      rows[id] = cells;
    }
  }
  EXPECT_EQ(sections, table_ids());
  std::set<std::string> row_ids;
  for (const auto& [id, cells] : rows)
    row_ids.insert(id);
  EXPECT_EQ(row_ids, table_ids());
  for (const Rule& r : rules()) {
    auto row = rows.find(std::string(r.id));
    if (row == rows.end()) continue;
    ASSERT_EQ(row->second.size(), 3u) << r.id;
    EXPECT_EQ(row->second[1].rfind(findings::severity_name(r.severity), 0), 0u)
        << r.id << ": " << row->second[1];
    EXPECT_EQ(row->second[2] != "no", r.fixable) << r.id << ": " << row->second[2];
    EXPECT_FALSE(r.summary.empty()) << r.id;
    EXPECT_FALSE(r.description.empty()) << r.id;
    EXPECT_EQ(r.help_uri(),
              std::string(homepage()) + "/blob/main/docs/rules.md#" + std::string(r.id));
  }
}

// Every rule id the code reports is in the table, and every rule of the
// table is reported somewhere.
TEST(RuleTable, TheCodeReportsExactlyTheRulesOfTheTable) {
  std::regex use(R"re((?:(?:add|finding|problem)\(\s*|[Rr]ule = )"([a-z]+(?:-[a-z]+)+)")re");
  std::set<std::string> used;
  for (const char* dir : {"src/placement", "src/cli", "src/run", "src/nodepools", "src/spread"}) {
    std::filesystem::path root = archfit::testing::source_dir() / dir;
    if (!std::filesystem::exists(root)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      std::string text = archfit::testing::read(entry.path());
      for (std::sregex_iterator it(text.begin(), text.end(), use), end; it != end; ++it)
        used.insert((*it)[1]);
    }
  }
  EXPECT_EQ(used, table_ids());
}

TEST(RuleTable, AnUnknownRuleIsABug) {
  EXPECT_EQ(rule("mutable-tag").severity, findings::Severity::Info);
  try {
    (void)rule("no-such-rule");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Internal);
    EXPECT_NE(std::string(e.what()).find("no-such-rule"), std::string::npos);
  }
}

}  // namespace
}  // namespace archfit::findings
