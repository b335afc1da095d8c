// The ownership record's text: every kind of entry reads back as written,
// malformed records are refused with where, and the hash is of the data.
#include <gtest/gtest.h>

#include <archfit/placement/ownership.hpp>


#include "unit/placement/placement_support.hpp"

namespace archfit::placement {
namespace {

using testing::data;

struct RoundTrip {
  const char* name;
  const char* text;
};

class OwnershipText : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(OwnershipText, ReadsBackAsWritten) {
  std::string why;
  std::optional<Ownership> record = Ownership::parse(GetParam().text, &why);
  ASSERT_TRUE(record) << why;
  EXPECT_EQ(record->str(), GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(
    Entries, OwnershipText,
    ::testing::Values(
        RoundTrip{"created", "+metadata.annotations"},
        RoundTrip{"wrote", "spec.affinity.nodeAffinity.required#93fedced"},
        RoundTrip{"wrote_item", "spec.tolerations[12]#00000001"},
        RoundTrip{"quoted_key", "spec.nodeSelector[\"kubernetes.io/arch\"]#0a0b0c0d"},
        RoundTrip{"took_key", "-spec.nodeSelector[\"kubernetes.io/arch\"]@3=\"amd64\""},
        RoundTrip{"took_item",
                  "-spec.affinity.nodeAffinity.required.nodeSelectorTerms[1].matchExpressions[0]="
                  "{\"key\":\"kubernetes.io/arch\",\"operator\":\"In\",\"values\":[\"a, b\",\"c\"]}"},
        RoundTrip{"filled_tilde", "spec.affinity=~"},
        RoundTrip{"filled_empty", "spec.tolerations="},
        RoundTrip{"preferred", "spec.affinity.nodeAffinity.preferred[0]#12345678"},
        RoundTrip{"several",
                  "+metadata.annotations, spec.affinity=null, +spec.affinity.nodeAffinity, "
                  "spec.affinity.nodeAffinity.required#b2b0fc2c, -spec.nodeSelector@1={\"a\":\"b\"}, "
                  "spec.tolerations=, spec.tolerations[0]#1290afd0"}),
    [](const auto& row) { return std::string(row.param.name); });

TEST(Ownership, LongAffinityKeysAreWrittenShortAndReadLong) {
  std::optional<Ownership> r =
      Ownership::parse("spec.affinity.nodeAffinity.required.nodeSelectorTerms[0]#00000000", nullptr);
  ASSERT_TRUE(r);
  const Path& p = r->entries[0].path;
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[3].key, "requiredDuringSchedulingIgnoredDuringExecution");
  EXPECT_EQ(p[4].key, "nodeSelectorTerms");
  EXPECT_TRUE(p[5].is_index);
  // "required" means the long key only under nodeAffinity.
  std::optional<Ownership> other = Ownership::parse("spec.required#00000000", nullptr);
  ASSERT_TRUE(other);
  EXPECT_EQ(other->entries[0].path[1].key, "required");
}

struct Malformed {
  const char* name;
  const char* text;
  const char* why;  // a part of the reason
};

class OwnershipRefuses : public ::testing::TestWithParam<Malformed> {};

TEST_P(OwnershipRefuses, SayingWhere) {
  std::string why;
  EXPECT_FALSE(Ownership::parse(GetParam().text, &why)) << GetParam().text;
  EXPECT_NE(why.find(GetParam().why), std::string::npos) << why;
}

INSTANTIATE_TEST_SUITE_P(
    Records, OwnershipRefuses,
    ::testing::Values(Malformed{"short_hash", "spec.tolerations[0]#12ab", "8 hex digits"},
                      Malformed{"no_kind", "spec.tolerations[0]", "expected '#', '='"},
                      Malformed{"bad_separator", "+spec.a,+spec.b", "', ' between entries"},
                      Malformed{"trailing_separator", "+spec.a, ", "an entry after"},
                      Malformed{"took_without_place", "-spec.nodeSelector[\"a\"]=\"b\"", "@<position>"},
                      Malformed{"took_without_json", "-spec.x@1=", "JSON value"},
                      Malformed{"bad_null", "spec.affinity=nothing", "~, null or nothing"},
                      Malformed{"empty_name", "+spec..a", "field name"},
                      Malformed{"prose", "archfit added these", "expected"}),
    [](const auto& row) { return std::string(row.param.name); });

TEST(Ownership, HashIsOfTheDataNotTheText) {
  EXPECT_EQ(data_hash(data("{key: a, operator: In, values: [x]}")),
            data_hash(data("operator: In\nvalues:\n- x\nkey: a\n")));
  EXPECT_NE(data_hash(data("{key: a, values: [x, y]}")), data_hash(data("{key: a, values: [y, x]}")));
  EXPECT_NE(data_hash(data("{a: '1'}")), data_hash(data("{a: 1}")));
}

}  // namespace
}  // namespace archfit::placement
