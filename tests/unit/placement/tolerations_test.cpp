// Tolerations as Kubernetes matches them against taints.
#include <gtest/gtest.h>

#include "placement/tolerations.hpp"
#include "unit/placement/placement_support.hpp"

namespace archfit::placement {
namespace {

using testing::data;

const Toleration kArm{"kubernetes.io/arch", "Equal", "arm64", "NoSchedule", std::nullopt};

struct ToleratesRow {
  const char* name;
  const char* existing;
  bool tolerates;
};

class Tolerates : public ::testing::TestWithParam<ToleratesRow> {};

TEST_P(Tolerates, TheArm64Taint) {
  EXPECT_EQ(detail::tolerates(data(GetParam().existing), kArm), GetParam().tolerates);
}

INSTANTIATE_TEST_SUITE_P(
    Tolerations, Tolerates,
    ::testing::Values(ToleratesRow{"same", "{key: kubernetes.io/arch, operator: Equal, value: arm64, effect: NoSchedule}", true},
                      ToleratesRow{"default_operator_is_equal", "{key: kubernetes.io/arch, value: arm64, effect: NoSchedule}", true},
                      ToleratesRow{"exists_for_the_key", "{key: kubernetes.io/arch, operator: Exists}", true},
                      ToleratesRow{"exists_for_everything", "{operator: Exists}", true},
                      ToleratesRow{"empty_effect_is_every_effect", "{key: kubernetes.io/arch, operator: Equal, value: arm64}", true},
                      ToleratesRow{"other_value", "{key: kubernetes.io/arch, operator: Equal, value: amd64, effect: NoSchedule}", false},
                      ToleratesRow{"other_effect", "{key: kubernetes.io/arch, operator: Exists, effect: NoExecute}", false},
                      ToleratesRow{"other_key", "{key: dedicated, operator: Exists}", false},
                      ToleratesRow{"empty_key_needs_exists", "{operator: Equal, value: arm64}", false},
                      ToleratesRow{"expiring", "{key: kubernetes.io/arch, operator: Exists, tolerationSeconds: 30}", false},
                      ToleratesRow{"not_a_mapping", "arm64", false}),
    [](const auto& row) { return std::string(row.param.name); });

TEST(Tolerations, WrittenAsInAPodSpecAndDescribedAsKubectlTaintsThem) {
  EXPECT_EQ(detail::toleration_value(kArm),
            data("{key: kubernetes.io/arch, operator: Equal, value: arm64, effect: NoSchedule}"));
  EXPECT_EQ(detail::describe(kArm), "kubernetes.io/arch=arm64:NoSchedule");
  Toleration any{"", "Exists", "", "", std::nullopt};
  EXPECT_EQ(detail::toleration_value(any), data("{operator: Exists}"));
  EXPECT_EQ(detail::describe(any), "*");
}

TEST(Tolerations, PreferNoScheduleNeverKeepsPodsOff) {
  EXPECT_TRUE(detail::keeps_pods_off(kArm));
  EXPECT_TRUE(detail::keeps_pods_off(Toleration{"a", "Exists", "", "NoExecute", std::nullopt}));
  EXPECT_TRUE(detail::keeps_pods_off(Toleration{"a", "Exists", "", "", std::nullopt}));
  EXPECT_FALSE(detail::keeps_pods_off(Toleration{"a", "Exists", "", "PreferNoSchedule", std::nullopt}));
}

TEST(Tolerations, WherePodsCanStart) {
  Config c = Config::defaults();
  EXPECT_TRUE(detail::can_start_on(yaml::Value(), "amd64", c));
  EXPECT_FALSE(detail::can_start_on(yaml::Value(), "arm64", c));
  EXPECT_TRUE(detail::can_start_on(data("[{operator: Exists}]"), "arm64", c));
  c.architectures["arm64"].tolerations = {Toleration{"kubernetes.io/arch", "Equal", "arm64",
                                                     "PreferNoSchedule", std::nullopt}};
  EXPECT_TRUE(detail::can_start_on(yaml::Value(), "arm64", c));
}

}  // namespace
}  // namespace archfit::placement
