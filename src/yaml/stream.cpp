#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

#include <archfit/base/error.hpp>
#include <archfit/yaml/stream.hpp>

namespace archfit::yaml {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

bool is_marker(std::string_view line, char c) {
  if (line.size() < 3 || line[0] != c || line[1] != c || line[2] != c) return false;
  if (line.size() == 3) return true;
  char next = line[3];
  return next == ' ' || next == '\t' || next == '\n' || next == '\r';
}

// Comment, blank or whitespace-only line.
bool is_blank_or_comment(std::string_view line) {
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '#';
  }
  return true;
}

}  // namespace

StreamSplitter::StreamSplitter(std::string_view stream, std::uint32_t offset,
                               std::uint32_t first_line)
    : stream_(stream), pos_(offset), start_(offset), line_no_(first_line) {
  if (stream.size() > std::numeric_limits<std::uint32_t>::max()) {
    fail(ErrorKind::Input, "input is larger than 4 GiB; split it into several files");
  }
  current_.first_line = first_line;
  if (offset == 0 && stream.substr(0, kBom.size()) == kBom) pos_ = kBom.size();
}

void StreamSplitter::close_at(std::size_t pos, std::uint32_t next_line) {
  current_.text = stream_.substr(start_, pos - start_);
  current_.offset = static_cast<std::uint32_t>(start_);
  if (pending_) ready_ = pending_;
  pending_ = current_;
  current_ = DocumentText{};
  current_.first_line = next_line;
  start_ = pos;
}

std::optional<DocumentText> StreamSplitter::next() {
  // A document is handed out once the next one has begun, or at the end: the
  // comments after a last `...` belong to the document before them.
  while (!ready_ && pos_ < stream_.size()) {
    std::size_t len = line_length(pos_);
    std::string_view line = stream_.substr(pos_, len);
    if (is_marker(line, '-')) {
      if (current_.explicit_start || current_.has_content) close_at(pos_, line_no_);
      current_.explicit_start = true;
      if (!is_blank_or_comment(line.substr(3))) current_.has_content = true;
    } else if (is_marker(line, '.')) {
      close_at(pos_ + len, line_no_ + 1);
    } else if (!current_.has_content && !is_blank_or_comment(line)) {
      bool directive = line[0] == '%' && !current_.explicit_start && !current_.has_content;
      if (!directive) current_.has_content = true;
    }
    pos_ += len;
    ++line_no_;
  }
  if (!ready_ && !finished_) {
    finished_ = true;
    // What is left: a document, or only comments after a `...`, which stay
    // with the document they follow.
    bool leftover_is_trailer = !current_.explicit_start && !current_.has_content && pending_;
    if (leftover_is_trailer) {
      pending_->text = stream_.substr(pending_->offset, stream_.size() - pending_->offset);
    } else if (start_ < stream_.size()) {
      close_at(stream_.size(), line_no_);
    }
  }
  if (!ready_ && finished_) {
    ready_ = pending_;
    pending_.reset();
  }
  std::optional<DocumentText> out = ready_;
  ready_.reset();
  return out;
}

std::size_t StreamSplitter::line_length(std::size_t pos) {
  const char* base = stream_.data();
  std::size_t size = stream_.size();
  if (!cr_known_ || next_cr_ < pos) {
    cr_known_ = true;
    const void* cr = std::memchr(base + pos, '\r', size - pos);
    next_cr_ = cr ? static_cast<std::size_t>(static_cast<const char*>(cr) - base) : size;
  }
  const void* lf = std::memchr(base + pos, '\n', std::min(size, next_cr_ + 1) - pos);
  std::size_t end = lf ? static_cast<std::size_t>(static_cast<const char*>(lf) - base) : next_cr_;
  if (end >= size) return size - pos;
  if (stream_[end] == '\r' && end + 1 < size && stream_[end + 1] == '\n') ++end;
  return end + 1 - pos;
}

std::vector<DocumentText> split_stream(std::string_view stream) {
  std::vector<DocumentText> docs;
  StreamSplitter split(stream);
  while (std::optional<DocumentText> doc = split.next())
    docs.push_back(*doc);
  return docs;
}

namespace {

Location position_of(std::string_view stream, std::size_t pos) {
  Location where;
  where.line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < pos; ++i) {
    if (stream[i] == '\n') {
      ++where.line;
      line_start = i + 1;
    }
  }
  where.column = static_cast<std::uint32_t>(pos - line_start + 1);
  return where;
}

}  // namespace

void check_stream_bytes(std::string_view stream, std::size_t from) {
  using namespace std::string_view_literals;
  if (from == 0) {
    auto starts = [&stream](std::string_view prefix) {
      return stream.substr(0, prefix.size()) == prefix;
    };
    const char* encoding = starts("\x00\x00\xFE\xFF"sv) || starts("\xFF\xFE\x00\x00"sv) ? "UTF-32"
                           : starts("\xFE\xFF"sv) || starts("\xFF\xFE"sv)               ? "UTF-16"
                                                                                        : nullptr;
    if (encoding != nullptr) {
      fail(ErrorKind::Input,
           std::string("the file is ") + encoding +
               " (it starts with that byte order mark); archfit reads UTF-8: convert it, e.g. "
               "iconv -f " +
               encoding + " -t UTF-8",
           Location{"", 1, 1});
    }
  }
  // C0 control characters but tab, LF and CR, and DEL: what libyaml's reader
  // refuses wherever it is, in a comment too.
  static constexpr auto kForbidden = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 0x20; ++c)
      t[static_cast<std::size_t>(c)] = c != '\t' && c != '\n' && c != '\r';
    t[0x7F] = true;
    return t;
  }();
  const auto* bytes = reinterpret_cast<const unsigned char*>(stream.data());
  std::size_t pos = from;
  // Sixteen bytes at a time; a block with a byte to refuse is looked at
  // byte by byte below.
  using Block = unsigned char __attribute__((vector_size(16)));
  for (; pos + 16 <= stream.size(); pos += 16) {
    Block b;
    std::memcpy(&b, bytes + pos, sizeof b);
    const auto bad = ((b < 0x20) & (b != '\t') & (b != '\n') & (b != '\r')) | (b == 0x7F);
    std::uint64_t halves[2];
    std::memcpy(halves, &bad, sizeof halves);
    if ((halves[0] | halves[1]) != 0) break;
  }
  for (; pos < stream.size(); ++pos) {
    if (!kForbidden[bytes[pos]]) continue;
    if (bytes[pos] == 0) {
      fail(ErrorKind::Input,
           "the file holds a NUL byte, which YAML does not allow: it is binary, or UTF-16 or "
           "UTF-32 without a byte order mark; archfit reads UTF-8 text",
           position_of(stream, pos));
    }
    char code[8];
    std::snprintf(code, sizeof code, "0x%02X", bytes[pos]);
    fail(ErrorKind::Input,
         std::string("the file holds the control character ") + code +
             ", which YAML does not allow anywhere: it is binary, or not the text it should be",
         position_of(stream, pos));
  }
}

void check_encoding(std::string_view stream) {
  check_stream_bytes(stream, 0);
  check_line_breaks(stream);
}

void check_line_breaks(std::string_view stream) {
  for (std::size_t pos = stream.find('\r'); pos != std::string_view::npos;
       pos = stream.find('\r', pos + 1)) {
    if (pos + 1 < stream.size() && stream[pos + 1] == '\n') continue;
    fail(ErrorKind::Input,
         "a line ends with a lone carriage return (CR): archfit reads LF or CRLF line breaks; "
         "convert the file, e.g. tr '\\r' '\\n'",
         position_of(stream, pos));
  }
}

ReadLimit manifest_read_limit(std::string_view what) {
  return ReadLimit{kMaxManifestBytes, what, check_stream_bytes};
}

}  // namespace archfit::yaml
