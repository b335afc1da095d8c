// Domains of label values: what requirements allow, and when two agree.
#include <random>

#include <gtest/gtest.h>

#include <archfit/nodepools/model/requirement.hpp>

namespace archfit::nodepools {
namespace {

Requirement req(std::string key, Operator op, std::vector<std::string> values = {}) {
  return Requirement{std::move(key), op, std::move(values)};
}

TEST(Domain, InNotInExistsAndAbsence) {
  Domain in = domain_of(req("k", Operator::In, {"a", "b"}));
  EXPECT_TRUE(in.allows("a"));
  EXPECT_FALSE(in.allows("c"));
  EXPECT_FALSE(in.allows_absent());
  Domain not_in = domain_of(req("k", Operator::NotIn, {"a"}));
  EXPECT_FALSE(not_in.allows("a"));
  EXPECT_TRUE(not_in.allows("z"));
  EXPECT_TRUE(not_in.allows_absent());  // as Kubernetes matches NotIn
  EXPECT_TRUE(in.compatible(not_in));   // b
  EXPECT_FALSE(domain_of(req("k", Operator::In, {"a"})).compatible(not_in));
  EXPECT_FALSE(domain_of(req("k", Operator::Exists)).compatible(Domain::absent()));
  EXPECT_TRUE(domain_of(req("k", Operator::DoesNotExist)).compatible(Domain::absent()));
  EXPECT_TRUE(not_in.compatible(Domain::absent()));
  EXPECT_FALSE(in.compatible(Domain::absent()));
}

TEST(Domain, IntegerBounds) {
  Domain d = domain_of(req("cpu", Operator::Gt, {"4"}));
  d.narrow(req("cpu", Operator::Lt, {"9"}));
  EXPECT_TRUE(d.allows("8"));
  EXPECT_FALSE(d.allows("4"));
  EXPECT_FALSE(d.allows("x"));
  EXPECT_TRUE(d.compatible(Domain::one_of({"5", "x"})));
  EXPECT_FALSE(d.compatible(Domain::one_of({"2", "16"})));
  Domain narrow = domain_of(req("cpu", Operator::Gt, {"4"}));
  narrow.narrow(req("cpu", Operator::Lt, {"6"}));
  EXPECT_FALSE(narrow.empty());  // 5
  narrow.narrow(req("cpu", Operator::NotIn, {"5"}));
  EXPECT_TRUE(narrow.empty());
  // A bound that is not one integer matches no node.
  EXPECT_TRUE(domain_of(req("cpu", Operator::Gt, {"four"})).empty());
}

TEST(Domain, DescribesAsKarpenterPrints) {
  EXPECT_EQ(describe(req("kubernetes.io/arch", Operator::In, {"arm64", "amd64"})),
            "kubernetes.io/arch In [amd64 arm64]");
  EXPECT_EQ(
      domain_of(req("kubernetes.io/arch", Operator::In, {"amd64"})).describe("kubernetes.io/arch"),
      "kubernetes.io/arch In [amd64]");
  EXPECT_EQ(Domain::absent().describe("team"), "team DoesNotExist");
  EXPECT_EQ(Domain::present().describe("team"), "team Exists");
  std::string why;
  EXPECT_FALSE(try_parse_operator("Equals", &why));
  EXPECT_NE(why.find("\"Equals\" is not an operator"), std::string::npos);
}

// Law: two domains are compatible exactly when some node (a value, or no
// label) satisfies both, over generated requirements on a small universe.
TEST(Domain, CompatibleExactlyWhenSomeNodeSatisfiesBoth) {
  const std::vector<std::string> universe = {"1", "2", "3", "a", "b"};
  std::mt19937 rng(7);
  auto random_req = [&] {
    Operator op = static_cast<Operator>(rng() % 8);
    std::vector<std::string> values;
    if (op == Operator::Gt || op == Operator::Lt || op == Operator::Gte || op == Operator::Lte) {
      values.push_back(std::to_string(rng() % 4));
    } else if (op == Operator::In || op == Operator::NotIn) {
      for (const std::string& v : universe)
        if (rng() % 2 == 0) values.push_back(v);
    }
    return req("k", op, values);
  };
  auto holds = [](const std::vector<Requirement>& rs, const std::optional<std::string>& v) {
    for (const Requirement& r : rs) {
      bool ok = false;
      switch (r.op) {
        case Operator::In:
          ok = v && std::find(r.values.begin(), r.values.end(), *v) != r.values.end();
          break;
        case Operator::NotIn:
          ok = !v || std::find(r.values.begin(), r.values.end(), *v) == r.values.end();
          break;
        case Operator::Exists:
          ok = v.has_value();
          break;
        case Operator::DoesNotExist:
          ok = !v;
          break;
        case Operator::Gt:
          ok = v && (std::isdigit((*v)[0]) || (*v)[0] == '-') &&
               std::stoi(*v) > std::stoi(r.values[0]);
          break;
        case Operator::Lt:
          ok = v && (std::isdigit((*v)[0]) || (*v)[0] == '-') &&
               std::stoi(*v) < std::stoi(r.values[0]);
          break;
        case Operator::Gte:
          ok = v && (std::isdigit((*v)[0]) || (*v)[0] == '-') &&
               std::stoi(*v) >= std::stoi(r.values[0]);
          break;
        case Operator::Lte:
          ok = v && (std::isdigit((*v)[0]) || (*v)[0] == '-') &&
               std::stoi(*v) <= std::stoi(r.values[0]);
          break;
      }
      if (!ok) return false;
    }
    return true;
  };
  for (int round = 0; round < 3000; ++round) {
    std::vector<Requirement> a{random_req()}, b{random_req()};
    if (rng() % 2 == 0) a.push_back(random_req());
    Domain da = Domain::any(), db = Domain::any();
    for (const Requirement& r : a)
      da.narrow(r);
    for (const Requirement& r : b)
      db.narrow(r);
    // Values outside the universe: a string not named, integers above and below.
    std::vector<std::optional<std::string>> nodes = {std::nullopt, "zz", "7", "0", "-5"};
    for (const std::string& v : universe)
      nodes.push_back(v);
    bool some = false;
    for (const auto& v : nodes)
      some = some || (holds(a, v) && holds(b, v));
    EXPECT_EQ(da.compatible(db), some) << describe(a[0]) << " / " << describe(b[0]);
  }
}

}  // namespace
}  // namespace archfit::nodepools
