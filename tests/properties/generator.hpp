// A deterministic generator of manifests with pod templates for the property
// tests: existing required terms (matchExpressions, matchFields, empty ones),
// preferred terms, nodeSelector, the user's own tolerations (Exists among
// them), merge keys and anchors, explicit keys, tags, flow and block styles,
// comments, CRLF, a byte order mark, document markers with comments and `...`
// ends, two, three and four space indents, several containers and init
// containers. Images come from a
// small pool, so that lock files can give each a random platform set.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace archfit::testing {

struct GenEntry;

// A YAML node as the generator writes it: its data and how it is written.
struct GenNode {
  enum class Kind { Scalar, Mapping, Sequence, Alias };
  Kind kind = Kind::Scalar;
  std::string text;  // a scalar as written (quotes included); the alias name
  bool flow = false;
  std::string anchor;
  std::string tag;                // "!!map", "!!seq", "!!str": written before the anchor
  std::string comment;            // written after the node's line, " # ..."
  std::vector<GenEntry> entries;  // of a mapping
  std::vector<GenNode> items;

  static GenNode scalar(std::string text);
  static GenNode mapping(bool flow = false);
  static GenNode sequence(bool flow = false);
  static GenNode alias(std::string name);
  GenNode& add(std::string key, GenNode value);
  GenNode& push(GenNode item);
};

// A mapping's entry (first: the key as written, second: the value).
struct GenEntry {
  std::string first;
  GenNode second;
  bool explicit_key = false;  // written "? key" with ":" on the next line
};

inline GenNode GenNode::scalar(std::string text) {
  GenNode n;
  n.text = std::move(text);
  return n;
}
inline GenNode GenNode::mapping(bool flow) {
  GenNode n;
  n.kind = Kind::Mapping;
  n.flow = flow;
  return n;
}
inline GenNode GenNode::sequence(bool flow) {
  GenNode n;
  n.kind = Kind::Sequence;
  n.flow = flow;
  return n;
}
inline GenNode GenNode::alias(std::string name) {
  GenNode n;
  n.kind = Kind::Alias;
  n.text = std::move(name);
  return n;
}
inline GenNode& GenNode::push(GenNode item) {
  items.push_back(std::move(item));
  return items.back();
}

inline GenNode& GenNode::add(std::string key, GenNode value) {
  entries.push_back(GenEntry{std::move(key), std::move(value)});
  return entries.back().second;
}

struct Layout {
  int indent = 2;
  bool indent_sequences = false;
  bool crlf = false;
};

// The document's text.
std::string render(const GenNode& root, const Layout& layout);

class ManifestGenerator {
 public:
  ManifestGenerator(std::uint64_t seed, std::size_t image_count);

  // One document (a workload or a List of two), with its layout chosen too.
  std::string document(std::size_t index);

  // Every image reference the documents can use.
  std::vector<std::string> images() const;

 private:
  bool chance(int percent) { return std::uniform_int_distribution<int>(0, 99)(rng_) < percent; }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  GenNode workload(const std::string& name, GenNode pod_template);
  GenNode pod_template(const std::string& name);
  GenNode pod_spec();
  GenNode containers(const char* prefix, int count);
  GenNode node_selector();
  GenNode affinity();
  GenNode term(bool preference);
  GenNode requirement();
  GenNode tolerations();
  GenNode strings(const std::vector<std::string>& values, bool flow);
  std::string maybe_comment();

  std::mt19937_64 rng_;
  std::size_t image_count_;
};

}  // namespace archfit::testing
