#include "placement/tolerations.hpp"

#include <algorithm>

#include "placement/labels.hpp"

namespace archfit::placement::detail {

using yaml::Value;

Value toleration_value(const Toleration& t) {
  Value v = Value::mapping();
  if (!t.key.empty()) v.set("key", Value::string(t.key));
  v.set("operator", Value::string(t.op.empty() ? "Equal" : t.op));
  if (!t.value.empty()) v.set("value", Value::string(t.value));
  if (!t.effect.empty()) v.set("effect", Value::string(t.effect));
  if (t.toleration_seconds) v.set("tolerationSeconds", Value::integer(*t.toleration_seconds));
  return v;
}

bool tolerates(const Value& existing, const Toleration& wanted) {
  if (!existing.is_mapping()) return false;
  std::string key = string_field(existing, "key");
  std::string op = string_field(existing, "operator");
  if (op.empty()) op = "Equal";
  std::string value = string_field(existing, "value");
  std::string effect = string_field(existing, "effect");
  if (!effect.empty() && effect != wanted.effect) return false;
  // A toleration that expires (tolerationSeconds) does not keep a pod on a
  // NoExecute node for good; only count one that is at least as lasting.
  if (const Value* seconds = existing.find("tolerationSeconds");
      seconds != nullptr && !seconds->is_null() && !wanted.toleration_seconds) {
    return false;
  }
  if (key.empty()) return op == "Exists";
  if (key != wanted.key) return false;
  if (op == "Exists") return true;
  std::string wanted_op = wanted.op.empty() ? "Equal" : wanted.op;
  return wanted_op == "Equal" && value == wanted.value;
}

std::string describe(const Toleration& t) {
  std::string out = t.key.empty() ? std::string("*") : t.key;
  if (t.op != "Exists" && !t.value.empty()) out += "=" + t.value;
  if (!t.effect.empty()) out += ":" + t.effect;
  return out;
}

bool keeps_pods_off(const Toleration& taint) {
  return taint.effect != "PreferNoSchedule";
}

bool can_start_on(const Value& tolerations, const std::string& arch, const Config& config) {
  auto it = config.architectures.find(arch);
  if (it == config.architectures.end()) return true;
  for (const Toleration& taint : it->second.tolerations) {
    if (!keeps_pods_off(taint)) continue;
    bool tolerated = tolerations.is_sequence() &&
                     std::any_of(tolerations.items().begin(), tolerations.items().end(),
                                 [&taint](const Value& t) { return tolerates(t, taint); });
    if (!tolerated) return false;
  }
  return true;
}

}  // namespace archfit::placement::detail
