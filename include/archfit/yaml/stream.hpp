// Splitting a multi-document YAML stream into documents without losing a
// byte: concatenating the `text` of every piece gives back the input exactly.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace archfit::yaml {

struct DocumentText {
  // From the first byte that belongs to this document (comments before its
  // `---`, the marker itself) up to the first byte of the next document. A
  // `...` end marker and what follows it up to the next document belong here.
  std::string_view text;
  std::uint32_t offset = 0;      // of text[0] in the stream
  std::uint32_t first_line = 0;  // 0-based line of text[0] in the stream
  bool explicit_start = false;   // has a `---` line
  bool has_content = false;      // holds anything but comments, blank lines, directives, markers
};

// Documents are separated by `---` lines and ended by `...` lines (a marker at
// column 0 followed by a space, a tab, a line break or the end). A run of
// comments and blank lines before a `---` belongs to the document after it; a
// stream of only comments is one document without content. CRLF, lone CR and
// LF line breaks, a BOM and a missing final newline are all kept as they are.
std::vector<DocumentText> split_stream(std::string_view stream);

// Refuses, with Error(Input) at the offending line and column, what archfit
// cannot edit byte for byte: UTF-16 and UTF-32 text (a byte order mark or a
// NUL byte) and lone-CR line breaks. lint and fix read through this check, so
// they refuse the same files.
void check_encoding(std::string_view stream);

}  // namespace archfit::yaml
