#include <charconv>

#include "spread/detail.hpp"

namespace archfit::spread::detail {

using yaml::NodeRef;

std::string Record::str() const {
  std::string out = std::to_string(piece) + "/" + std::to_string(pieces) + " of " + name +
                    " replicas=" + replicas + " key=" + key;
  if (created_node_selector) out += " +nodeSelector";
  if (created_annotations) out += " +annotations";
  return out;
}

std::optional<Record> Record::parse(std::string_view text) {
  Record r;
  std::vector<std::string_view> words;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    if (end > at) words.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (words.size() < 5 || words[1] != "of" || !words[3].starts_with("replicas=") ||
      !words[4].starts_with("key=")) {
    return std::nullopt;
  }
  std::size_t slash = words[0].find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  auto number = [](std::string_view s, std::size_t& out) {
    auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), out);
    return error == std::errc() && end == s.data() + s.size() && out > 0;
  };
  if (!number(words[0].substr(0, slash), r.piece) ||
      !number(words[0].substr(slash + 1), r.pieces) || r.piece > r.pieces) {
    return std::nullopt;
  }
  r.name = std::string(words[2]);
  r.replicas = std::string(words[3].substr(9));
  r.key = std::string(words[4].substr(4));
  for (std::size_t i = 5; i < words.size(); ++i) {
    if (words[i] == "+nodeSelector") {
      r.created_node_selector = true;
    } else if (words[i] == "+annotations") {
      r.created_annotations = true;
    } else {
      return std::nullopt;
    }
  }
  return r;
}

std::optional<Record> record_of(NodeRef root) {
  NodeRef value = yaml::lookup_path(root, {"metadata", "annotations", kSplitAnnotation});
  if (!value.is_scalar()) return std::nullopt;
  return Record::parse(value.scalar());
}

}  // namespace archfit::spread::detail
