// The CustomPodScheduleStrategy annotation read as the webhooks wrote it, and
// refused with the part at fault quoted.
#include <gtest/gtest.h>

#include <archfit/spread/model/strategy.hpp>

namespace archfit::spread {
namespace {

TEST(Strategy, ReadsTheWebhooksExample) {
  std::string why;
  auto groups = try_parse_strategy(
      "nodesize=od4vcpu16gb,base=1,weight=0:nodesize=spot4vcpu16gb,weight=1:"
      "nodesize=spot8vcpu32gb,weight=1",
      &why);
  ASSERT_TRUE(groups) << why;
  ASSERT_EQ(groups->size(), 3u);
  EXPECT_EQ((*groups)[0].label_key, "nodesize");
  EXPECT_EQ((*groups)[0].label_value, "od4vcpu16gb");
  EXPECT_EQ((*groups)[0].share.base, 1u);
  EXPECT_EQ((*groups)[0].share.weight, 0u);
  EXPECT_EQ((*groups)[2].label_value, "spot8vcpu32gb");
  EXPECT_EQ((*groups)[2].share.base, 0u);
  EXPECT_EQ((*groups)[2].share.weight, 1u);
  std::vector<Share> shares;
  for (const StrategyGroup& g : *groups)
    shares.push_back(g.share);
  EXPECT_EQ(try_allocate(10, shares), (std::vector<std::uint32_t>{1, 4, 5}));
  // Spaces around the parts, the label anywhere in its group.
  groups = try_parse_strategy(" weight=2 , kubernetes.io/arch = arm64 ", &why);
  ASSERT_TRUE(groups) << why;
  EXPECT_EQ((*groups)[0].label_key, "kubernetes.io/arch");
  EXPECT_EQ((*groups)[0].label_value, "arm64");
  EXPECT_EQ((*groups)[0].share.weight, 2u);
}

TEST(Strategy, RefusesWithThePartAtFault) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"nodesize=a,weight=x",
            "group \"nodesize=a,weight=x\": weight \"x\" is not a whole number"},
           {"nodesize=a,weight=-1", "weight \"-1\" is not a whole number"},
           {"nodesize=a,base=100001", "base \"100001\" is not a whole number from 0 to 100000"},
           {"weight=1", "group \"weight=1\" names no node label"},
           {"a=1,b=2", "names two node labels"},
           {"nodesize=a:", "\"nodesize=a:\" has an empty group"},
           {"nodesize", "\"nodesize\" is not key=value"},
       }) {
    std::string why;
    EXPECT_FALSE(try_parse_strategy(c.text, &why)) << c.text;
    EXPECT_NE(why.find(c.message), std::string::npos) << c.text << ": " << why;
  }
}

}  // namespace
}  // namespace archfit::spread
