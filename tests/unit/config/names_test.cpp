// Kubernetes name syntax for what the configuration writes into pod templates.
#include <gtest/gtest.h>

#include <archfit/config/names.hpp>

namespace archfit::config {
namespace {

struct Name {
  std::string text;
  const char* problem;  // "" when valid
};

// The rule is_valid says `text` breaks; "" when it is valid.
std::string rule(Syntax syntax, const std::string& text) {
  std::string why;
  bool ok = is_valid(syntax, text, &why);
  EXPECT_EQ(ok, why.empty()) << text;
  return why;
}

class QualifiedName : public ::testing::TestWithParam<Name> {};
TEST_P(QualifiedName, AsApimachinery) {
  std::string why;
  EXPECT_EQ(is_valid(Syntax::QualifiedName, GetParam().text, &why), *GetParam().problem == 0);
  EXPECT_EQ(why, GetParam().problem);
}
INSTANTIATE_TEST_SUITE_P(
    Table, QualifiedName,
    ::testing::Values(
        Name{"kubernetes.io/arch", ""}, Name{"app", ""}, Name{"A_b.c-D", ""},
        Name{"example.com/My_Name", ""}, Name{std::string(63, 'a'), ""},
        Name{std::string(253, 'a') + "/x", ""}, Name{"", "must not be empty"},
        Name{std::string(64, 'a'), "must be at most 63 characters"},
        Name{"-a", "must start and end with a letter or digit"},
        Name{"a b", "may contain only letters, digits, '-', '_' and '.'"},
        Name{"a/b/c", "may contain at most one '/'"}, Name{"/a", "has an empty prefix before '/'"},
        Name{"a/", "has an empty name after '/'"},
        Name{"Example.com/a",
             "prefix must be lowercase DNS labels separated by '.', each starting "
             "and ending with a letter or digit"},
        Name{"a..b/c",
             "prefix must be lowercase DNS labels separated by '.', each starting and "
             "ending with a letter or digit"},
        Name{"a_b/c", "prefix may contain only lowercase letters, digits, '-' and '.'"},
        Name{std::string(254, 'a') + "/x", "prefix must be at most 253 characters"}),
    [](const ::testing::TestParamInfo<Name>& test) { return "Case" + std::to_string(test.index); });

TEST(LabelValue, EmptyIsValid) {
  EXPECT_EQ(rule(Syntax::LabelValue, ""), "");
  EXPECT_EQ(rule(Syntax::LabelValue, "arm64"), "");
  EXPECT_EQ(rule(Syntax::LabelValue, "v1.2_3-x"), "");
  EXPECT_EQ(rule(Syntax::LabelValue, "a/b"), "may contain only letters, digits, '-', '_' and '.'");
  EXPECT_EQ(rule(Syntax::LabelValue, "a."), "must start and end with a letter or digit");
}

TEST(DnsLabel, NamespaceNames) {
  EXPECT_EQ(rule(Syntax::DnsLabel, "kube-system"), "");
  EXPECT_EQ(rule(Syntax::DnsLabel, "a1"), "");
  EXPECT_EQ(rule(Syntax::DnsLabel, ""), "must not be empty");
  EXPECT_EQ(rule(Syntax::DnsLabel, "Kube"), "must start and end with a lowercase letter or digit");
  EXPECT_EQ(rule(Syntax::DnsLabel, "a.b"), "may contain only lowercase letters, digits and '-'");
  EXPECT_EQ(rule(Syntax::DnsLabel, std::string(64, 'a')), "must be at most 63 characters");
}

}  // namespace
}  // namespace archfit::config
