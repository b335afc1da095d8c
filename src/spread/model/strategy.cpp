#include <charconv>

#include <archfit/base/text.hpp>
#include <archfit/spread/model/strategy.hpp>

namespace archfit::spread {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char by) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0;;) {
    std::size_t end = s.find(by, at);
    out.push_back(s.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos) return out;
    at = end + 1;
  }
}

bool read_number(std::string_view text, std::uint32_t limit, std::uint32_t& out) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size() && !text.empty() && out <= limit;
}

}  // namespace

std::optional<std::vector<StrategyGroup>> try_parse_strategy(std::string_view text,
                                                             std::string* why) {
  auto refuse = [why](std::string message) -> std::optional<std::vector<StrategyGroup>> {
    if (why != nullptr) *why = std::move(message);
    return std::nullopt;
  };
  std::vector<StrategyGroup> groups;
  for (std::string_view part : split(text, ':')) {
    if (trimmed(part).empty()) {
      return refuse(quoted(text) + " has an empty group (':' twice in a row, or at an end)");
    }
    StrategyGroup group;
    bool has_label = false;
    for (std::string_view field : split(part, ',')) {
      field = trimmed(field);
      std::size_t eq = field.find('=');
      if (eq == std::string_view::npos || eq == 0) {
        return refuse("group " + quoted(part) + ": " + quoted(field) +
                      " is not key=value (a node label, base=N or weight=N)");
      }
      std::string_view key = trimmed(field.substr(0, eq));
      std::string_view value = trimmed(field.substr(eq + 1));
      if (key == "base" || key == "weight") {
        std::uint32_t& n = key == "base" ? group.share.base : group.share.weight;
        std::uint32_t limit = key == "base" ? kMaxReplicas : kMaxWeight;
        if (!read_number(value, limit, n)) {
          return refuse("group " + quoted(part) + ": " + std::string(key) + " " + quoted(value) +
                        " is not a whole number from 0 to " + std::to_string(limit));
        }
      } else if (has_label) {
        return refuse("group " + quoted(part) + " names two node labels; a group is one label");
      } else {
        has_label = true;
        group.label_key = key;
        group.label_value = value;
      }
    }
    if (!has_label) {
      return refuse("group " + quoted(part) + " names no node label (as nodesize=spot4vcpu16gb)");
    }
    groups.push_back(std::move(group));
  }
  if (groups.size() > kMaxGroups) {
    return refuse(std::to_string(groups.size()) + " groups, more than the " +
                  std::to_string(kMaxGroups) + " archfit spreads over");
  }
  return groups;
}

}  // namespace archfit::spread
