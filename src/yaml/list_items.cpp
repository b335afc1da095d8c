#include <map>
#include <set>
#include <string>

#include <archfit/base/text.hpp>
#include <archfit/yaml/list_items.hpp>
#include <archfit/yaml/parse.hpp>

#include "yaml/libyaml.hpp"
#include "yaml/offsets.hpp"

namespace archfit::yaml {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

const yaml_char_t* anchor_of(const yaml_event_t& e) {
  switch (e.type) {
    case YAML_SCALAR_EVENT:
      return e.data.scalar.anchor;
    case YAML_SEQUENCE_START_EVENT:
      return e.data.sequence_start.anchor;
    case YAML_MAPPING_START_EVENT:
      return e.data.mapping_start.anchor;
    case YAML_ALIAS_EVENT:
      return e.data.alias.anchor;
    default:
      return nullptr;
  }
}

std::string_view scalar_of(const yaml_event_t& e) {
  return {reinterpret_cast<const char*>(e.data.scalar.value), e.data.scalar.length};
}

// An open collection, as the scan reads it.
struct Frame {
  bool mapping = false;
  bool block = false;
  bool at_key = true;  // a mapping's next node is a key
  std::uint32_t key_line = 0;
  std::uint32_t key_column = 0;
};

}  // namespace

std::optional<ListItems> list_items(std::string_view document) {
  // Cheap words first: a list names its kind and items.
  if (!contains(document, "List") || !contains(document, "items")) return std::nullopt;
  const std::uint32_t skipped = document.substr(0, kBom.size()) == kBom ? kBom.size() : 0;
  detail::Parser parser(document.substr(skipped));
  detail::OffsetMap offsets(document.substr(skipped));
  detail::Event event;
  auto at = [&](const yaml_mark_t& m) { return offsets.byte_offset(m.index) + skipped; };
  ListItems out;
  std::set<std::string, std::less<>> keys;  // of the list's top
  // Anchors, by the item they are in (-1: outside every item): an item's
  // aliases must name its own, for the item to read alone as it reads here.
  std::map<std::string, long, std::less<>> anchors;
  bool list_kind = false;
  int documents = 0;
  std::vector<Frame> stack;
  std::string key;           // the root's key whose value comes next
  ListItem* open = nullptr;  // the item being read
  const std::uint32_t max_depth = Limits().max_depth;
  for (;;) {
    if (!event.next(parser)) return std::nullopt;
    const yaml_event_t& e = *event;
    if (e.type == YAML_STREAM_END_EVENT) break;
    const long in_item = open != nullptr ? static_cast<long>(out.items.size()) - 1 : -1;
    if (const yaml_char_t* a = anchor_of(e)) {
      std::string name(reinterpret_cast<const char*>(a));
      if (e.type == YAML_ALIAS_EVENT) {
        auto it = anchors.find(name);
        if (in_item >= 0 && (it == anchors.end() || it->second != in_item)) return std::nullopt;
      } else {
        anchors[name] = in_item;
      }
    }
    if (e.type == YAML_DOCUMENT_START_EVENT) {
      if (++documents > 1) return std::nullopt;
      continue;
    }
    if (e.type == YAML_DOCUMENT_END_EVENT || e.type == YAML_STREAM_START_EVENT) continue;
    const bool is_mapping = e.type == YAML_MAPPING_START_EVENT;
    const bool starts = is_mapping || e.type == YAML_SEQUENCE_START_EVENT;
    const bool ends = e.type == YAML_MAPPING_END_EVENT || e.type == YAML_SEQUENCE_END_EVENT;
    const auto line = static_cast<std::uint32_t>(e.start_mark.line);
    const auto column = static_cast<std::uint32_t>(e.start_mark.column);
    if (ends) {
      stack.pop_back();
      // A flow collection ends at its closing bracket; a block one with its
      // last child (noted already).
      const std::uint32_t where = at(e.start_mark);
      const char c = where < document.size() ? document[where] : '\0';
      if (open != nullptr && (c == '}' || c == ']')) open->end = at(e.end_mark);
      if (stack.size() == 2) open = nullptr;  // an item is done
      continue;
    }
    // A node: a key or value of the collection it is in.
    const bool at_top = stack.size() == 1;
    if (stack.empty()) {
      if (!is_mapping) return std::nullopt;  // the list is a mapping
      out.json = e.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
    } else {
      Frame& f = stack.back();
      if (f.mapping && f.at_key) {
        if (at_top) {
          if (e.type != YAML_SCALAR_EVENT) return std::nullopt;
          key.assign(scalar_of(e));
          if (!keys.insert(key).second) return std::nullopt;  // given twice
          if (keys.size() == 1) {
            // A JSON object: a flow mapping whose first key is double-quoted.
            out.json = out.json && e.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
          }
        }
        f.at_key = false;
        f.key_line = line + 1;
        f.key_column = column + 1;
      } else if (f.mapping) {
        f.at_key = true;
        if (f.block) {
          const bool flow = is_mapping ? e.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                            : starts   ? e.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                                       : true;
          out.steps.count(f.key_line, f.key_column,
                          is_mapping ? Kind::Mapping
                          : starts   ? Kind::Sequence
                                     : Kind::Scalar,
                          flow ? Style::Flow : Style::Block, line + 1, column + 1);
        }
        if (at_top) {
          if (key == "kind") {
            if (e.type != YAML_SCALAR_EVENT) return std::nullopt;
            std::string_view kind = scalar_of(e);
            list_kind = kind.size() >= 4 && kind.substr(kind.size() - 4) == "List";
          } else if (key == "items" && e.type != YAML_SEQUENCE_START_EVENT) {
            return std::nullopt;
          }
        }
      }
      // An item of the list's `items`.
      if (stack.size() == 2 && key == "items") {
        if (!is_mapping) return std::nullopt;  // an item that is no object
        if (e.data.mapping_start.anchor != nullptr || e.data.mapping_start.tag != nullptr)
          return std::nullopt;  // its text would not start at its first key
        ListItem& item = out.items.emplace_back();
        item.begin = at(e.start_mark);
        item.end = at(e.end_mark);
        item.line = line;
        item.column = column;
        item.flow = e.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
        open = &item;
      }
    }
    if (e.type == YAML_SCALAR_EVENT && open != nullptr) open->end = at(e.end_mark);
    if (starts) {
      // As deep as parse_document allows; deeper, the document read whole
      // says so.
      if (stack.size() >= max_depth) return std::nullopt;
      Frame f;
      f.mapping = is_mapping;
      f.block = is_mapping ? e.data.mapping_start.style != YAML_FLOW_MAPPING_STYLE
                           : e.data.sequence_start.style != YAML_FLOW_SEQUENCE_STYLE;
      stack.push_back(f);
    }
  }
  if (!list_kind || !keys.contains("items")) return std::nullopt;
  return out;
}

}  // namespace archfit::yaml
