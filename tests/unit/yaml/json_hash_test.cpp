// json_fnv1a is the FNV-1a hash of to_json's text in either key order, for
// generated values of every kind (ownership records keep these hashes, so
// they must not change with how they are computed).
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <archfit/yaml/value.hpp>

namespace archfit::yaml {
namespace {

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

Value generated(std::mt19937& random, int depth) {
  auto pick = [&random](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  static const std::string pieces[] = {
      "a", "key", "Ω", "\"q\"", "back\\slash", "tab\t", "\x01", "kubernetes.io/arch", "", "z"};
  auto text = [&] {
    std::string s;
    for (int i = pick(0, 4); i > 0; --i)
      s += pieces[static_cast<std::size_t>(pick(0, 9))];
    return s;
  };
  switch (depth >= 4 ? pick(0, 5) : pick(0, 7)) {
    case 0:
      return Value();
    case 1:
      return Value::boolean(pick(0, 1) == 1);
    case 2:
      return Value::integer(static_cast<std::int64_t>(random()) - (1ll << 31));
    case 3: {
      const double specials[] = {0.5, -1e300, std::nan(""), std::numeric_limits<double>::infinity(),
                                 3.0};
      return Value::real(specials[pick(0, 4)]);
    }
    case 4:
    case 5:
      return Value::string(text());
    case 6: {
      Value v = Value::sequence();
      for (int i = pick(0, 4); i > 0; --i)
        v.items().push_back(generated(random, depth + 1));
      return v;
    }
    default: {
      Value v = Value::mapping();
      // Up to 20 entries: more than are sorted on the stack.
      for (int i = pick(0, 20); i > 0; --i)
        v.entries().emplace_back(text() + std::to_string(pick(0, 30)),
                                 generated(random, depth + 1));
      return v;
    }
  }
}

TEST(JsonHash, IsTheHashOfTheJsonText) {
  std::mt19937 random(5);
  for (int round = 0; round < 3000; ++round) {
    Value v = generated(random, 0);
    for (KeyOrder order : {KeyOrder::AsWritten, KeyOrder::Sorted}) {
      ASSERT_EQ(json_fnv1a(v, order), fnv1a(to_json(v, order))) << to_json(v, order);
    }
  }
}

}  // namespace
}  // namespace archfit::yaml
