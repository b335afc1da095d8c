// docs/rules.md and the rule ids archfit reports stay in step: a section and
// a table row for each rule, and none for a rule that does not exist.
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include <archfit/placement/finding.hpp>

#include "support/corpus.hpp"

namespace archfit::placement {
namespace {

TEST(RulesDocs, EveryRuleHasASectionAndARowAndNothingElseDoes) {
  std::string doc = archfit::testing::read(archfit::testing::source_dir() / "docs" / "rules.md");
  std::set<std::string> sections;
  std::set<std::string> rows;
  std::istringstream in(doc);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) sections.insert(line.substr(3));
    if (line.rfind("| [", 0) == 0) rows.insert(line.substr(3, line.find(']') - 3));
  }
  std::set<std::string> rules(std::begin(kRules), std::end(kRules));
  EXPECT_EQ(sections, rules);
  EXPECT_EQ(rows, rules);
}

}  // namespace
}  // namespace archfit::placement
