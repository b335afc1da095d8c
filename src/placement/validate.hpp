// What the API server would refuse in a pod template's placement fields
// (core/v1 validation of nodeSelector, node affinity and tolerations), and
// fields of a type archfit must not write over. archfit leaves such a
// template alone: it cannot reason about constraints Kubernetes would not
// accept, and must not replace a value it does not understand.
#pragma once

#include <string>
#include <vector>

#include <archfit/yaml/path.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::placement::detail {

struct Problem {
  const char* rule;     // invalid-node-affinity | invalid-toleration | uneditable-yaml
  yaml::Path field;     // from the pod template: spec.affinity.nodeAffinity....
  std::string message;  // what is wrong, quoting the value
};

// Problems of a template view (view.hpp), in field order.
// `comparison_operators`: the cluster enables the feature gate
// TaintTolerationComparisonOperators (tolerations may use Gt and Lt).
std::vector<Problem> validate_view(const yaml::Value& view, bool comparison_operators = false);

}  // namespace archfit::placement::detail
