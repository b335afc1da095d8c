#include "placement/wording.hpp"

#include <cctype>

#include "placement/constraints.hpp"
#include "placement/view.hpp"

namespace archfit::placement::detail {

using yaml::Value;

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += separator;
    out += p;
  }
  return out;
}

std::string list(const image::PlatformSet& set) {
  return set.empty() ? std::string("no platform") : join(set.strs(), ", ");
}

std::string describe_requirement(const Value& requirement) {
  std::string key = string_field(requirement, "key");
  std::string op = string_field(requirement, "operator");
  if (op == "Exists") return key;
  if (op == "DoesNotExist") return "!" + key;
  std::vector<std::string> values;
  if (const Value* v = requirement.find("values"); v != nullptr && v->is_sequence()) {
    for (const Value& item : v->items())
      values.push_back(item.is_string() ? item.as_string() : yaml::to_json(item));
  }
  std::string lower;
  for (char c : op)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (op == "Gt" || op == "Lt") return key + " " + lower + " " + join(values, ", ");
  return key + " " + lower + " (" + join(values, ", ") + ")";
}

std::string describe_constraints(const Value& view, const NodeModel& nodes, bool arch_only) {
  auto counts = [&nodes, arch_only](const std::string& key) {
    return arch_only ? nodes.tells_arch(key) : nodes.knows(key);
  };
  std::vector<std::string> parts;
  if (const Value* selector = yaml::lookup(view, node_selector_path());
      selector != nullptr && selector->is_mapping()) {
    std::vector<std::string> entries;
    for (const Value::Entry& e : selector->entries()) {
      if (counts(e.first) && e.second.is_string()) {
        entries.push_back(e.first + "=" + e.second.as_string());
      }
    }
    if (!entries.empty()) parts.push_back("nodeSelector " + join(entries, ","));
  }
  if (const Value* terms = yaml::lookup(view, terms_path());
      terms != nullptr && terms->is_sequence()) {
    std::vector<std::string> described;
    for (const Value& term : terms->items()) {
      std::vector<std::string> requirements;
      if (const Value* list = term.find("matchExpressions");
          list != nullptr && list->is_sequence()) {
        for (const Value& r : list->items()) {
          if (r.is_mapping() && counts(string_field(r, "key"))) {
            requirements.push_back(describe_requirement(r));
          }
        }
      }
      if (!requirements.empty()) described.push_back(join(requirements, ", "));
    }
    if (!described.empty()) parts.push_back("node affinity " + join(described, " or "));
  }
  return join(parts, " and ");
}

}  // namespace archfit::placement::detail
