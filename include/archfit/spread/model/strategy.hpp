// The CustomPodScheduleStrategy annotation of the in-cluster spreading
// webhooks: groups separated by ':', each a comma-separated list of a node
// label (key=value) and its `base` and `weight`, e.g.
//   nodesize=od4vcpu16gb,base=1,weight=0:nodesize=spot4vcpu16gb,weight=1
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/spread/model/allocation.hpp>

namespace archfit::spread {

inline constexpr const char* kStrategyAnnotation = "CustomPodScheduleStrategy";

// One group: the nodes labelled `label_key=label_value`, and its share.
struct StrategyGroup {
  std::string label_key;
  std::string label_value;
  Share share;
};

// The groups of an annotation's value; nullopt, with `why` quoting the part
// at fault, when it is not one.
std::optional<std::vector<StrategyGroup>> try_parse_strategy(std::string_view text,
                                                             std::string* why = nullptr);

}  // namespace archfit::spread
