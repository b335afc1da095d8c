// Splitting a multi-document YAML stream into documents without losing a
// byte: concatenating the `text` of every piece gives back the input exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/base/file.hpp>

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
// The documents point into `stream`: a temporary does not compile.
std::vector<DocumentText> split_stream(std::string&& stream) = delete;
inline std::vector<DocumentText> split_stream(const char* stream) {
  return split_stream(std::string_view(stream));
}

// The same, one document at a time, so that a stream of many small documents
// costs no list of them. It can start at any document's offset and first
// line (as split_stream found them), and then yields that document and the
// ones after it, exactly as split_stream would.
class StreamSplitter {
 public:
  // Throws Error(Input) when the stream is larger than 4 GiB.
  explicit StreamSplitter(std::string_view stream, std::uint32_t offset = 0,
                          std::uint32_t first_line = 0);
  // It reads `stream` as it goes: a temporary does not compile.
  explicit StreamSplitter(std::string&& stream, std::uint32_t offset = 0,
                          std::uint32_t first_line = 0) = delete;
  // The next document, or nothing at the end.
  std::optional<DocumentText> next();

 private:
  void close_at(std::size_t pos, std::uint32_t next_line);
  std::size_t line_length(std::size_t pos);

  std::string_view stream_;
  std::size_t pos_ = 0;    // of the next line to read
  std::size_t start_ = 0;  // of current_
  std::uint32_t line_no_ = 0;
  DocumentText current_;                 // being read
  std::optional<DocumentText> pending_;  // closed; handed out when the next one is known
  std::optional<DocumentText> ready_;    // to hand out
  bool finished_ = false;
  std::size_t next_cr_ = 0;  // line ends: memchr for LF, the next CR cached
  bool cr_known_ = false;
};

// Refuses, with Error(Input) at the offending line and column, what archfit
// cannot edit byte for byte: UTF-16 and UTF-32 text (a byte order mark or a
// NUL byte) and lone-CR line breaks. lint and fix read through this check, so
// they refuse the same files.
void check_encoding(std::string_view stream);

// The part of that check that can run while a stream is still arriving: a
// UTF-16 or UTF-32 byte order mark at its start, and from byte `from` on any
// byte YAML never allows (NUL, the other C0 controls but tab, LF and CR, and
// DEL), at its line and column.
void check_stream_bytes(std::string_view stream, std::size_t from);

// The rest of it, once the whole stream is there: no line ends in a lone CR.
void check_line_breaks(std::string_view stream);

// How manifest streams are read (files, stdin, ResourceLists): at most
// kMaxManifestBytes, failing at the first byte that cannot be YAML instead
// of reading a binary stream to its end.
ReadLimit manifest_read_limit(std::string_view what = "a manifest stream");

}  // namespace archfit::yaml
