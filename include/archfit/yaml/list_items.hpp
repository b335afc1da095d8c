// The items of a Kubernetes list (`kind: List`, what `kubectl get -o yaml`
// prints, or any kind that ends in List), found from libyaml's events without
// building the list's tree, so that a list of many objects is read as a
// stream of its items: each is analysed, edited and proved as a document of
// its own, and what the run holds of the list at once is one window of them
// (docs/architecture.md, "Lists").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <archfit/yaml/block_steps.hpp>
namespace archfit::yaml {

struct ListItem {
  std::uint32_t begin = 0;   // byte of its first character: its first key, or a flow item's '{'
  std::uint32_t end = 0;     // past its last character
  std::uint32_t line = 0;    // 0-based, in the document's text
  std::uint32_t column = 0;  // 0-based
  bool flow = false;         // a flow mapping: its text stands alone as it is
};

struct ListItems {
  std::vector<ListItem> items;
  // How the whole list indents its block collections, and whether it is a
  // JSON object: what text added to an item must look like.
  BlockSteps steps;
  bool json = false;
};

// The items of a document that is such a list, in order; nothing when it is
// anything else, or when an item could not stand alone as a document: an
// anchor or alias anywhere (an item may use another's), a key given twice at
// the top, an `items` that is not a sequence of mappings, more than one
// document, or YAML that does not parse (the document is then read whole,
// which reports it).
std::optional<ListItems> list_items(std::string_view document);

}  // namespace archfit::yaml
