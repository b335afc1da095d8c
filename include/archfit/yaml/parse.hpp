// Parsing one document's text into a Tree with libyaml.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <archfit/yaml/node.hpp>

namespace archfit::yaml {

struct Limits {
  std::size_t max_document_bytes = std::size_t{256} << 20;  // 256 MiB
  std::uint32_t max_depth = 512;                            // nesting of collections
  std::size_t max_alias_expansion = 1'000'000;              // nodes produced by expanding aliases
  // A key given twice in one mapping is an input error, as in Kubernetes'
  // strict decoding. Only tests that study files as they are turn it off.
  bool reject_duplicate_keys = true;
};

// Parses `text`, which must hold at most one document (see split_stream).
// `first_line` is the 0-based line of text[0] in its file, so that node lines
// and error positions are file lines. A leading byte order mark is skipped.
//
// Throws Error(Input) at the offending line and column, e.g.
// "14:7: cannot parse YAML: mapping values are not allowed in this context".
// The caller adds the file name with Error::in_file.
Tree parse_document(std::string_view text, std::uint32_t first_line = 0, const Limits& limits = {});
// The tree points into `text`, which must outlive it: a temporary string
// would leave it dangling, so one does not compile. A literal lives on.
Tree parse_document(std::string&& text, std::uint32_t first_line = 0,
                    const Limits& limits = {}) = delete;
inline Tree parse_document(const char* text, std::uint32_t first_line = 0,
                           const Limits& limits = {}) {
  return parse_document(std::string_view(text), first_line, limits);
}

}  // namespace archfit::yaml
