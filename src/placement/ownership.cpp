#include <algorithm>
#include <cctype>

#include <archfit/base/text.hpp>
#include <archfit/placement/ownership.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::placement {

using yaml::Value;

namespace {

constexpr std::string_view kRequired = "requiredDuringSchedulingIgnoredDuringExecution";
constexpr std::string_view kPreferred = "preferredDuringSchedulingIgnoredDuringExecution";

// The short names of node affinity's two long keys, in paths.
std::string_view short_name(const Path& path, std::size_t i) {
  if (i > 0 && !path[i - 1].is_index && path[i - 1].key == "nodeAffinity") {
    if (path[i].key == kRequired) return "required";
    if (path[i].key == kPreferred) return "preferred";
  }
  return path[i].key;
}

// Reads entries off the front of the annotation's text.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool done() const { return pos_ >= text_.size(); }
  const std::string& why() const { return why_; }

  bool entry(OwnedEntry& out) {
    if (accept('+')) {
      out.kind = OwnedEntry::Kind::Created;
      return path(out.path) && end_of_entry();
    }
    bool took = accept('-');
    if (!path(out.path)) return false;
    if (took) {
      out.kind = OwnedEntry::Kind::Took;
      if (!out.path.back().is_index) {
        if (!accept('@') || !number(out.position))
          return fail("expected @<position> after the key");
      }
      if (!accept('=')) return fail("expected =<value>");
      return json(out.value) && end_of_entry();
    }
    if (accept('#')) {
      out.kind = OwnedEntry::Kind::Wrote;
      std::size_t start = pos_;
      while (pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_])))
        ++pos_;
      if (pos_ - start != 8) return fail("expected 8 hex digits after '#'");
      out.hash =
          static_cast<std::uint32_t>(std::stoul(std::string(text_.substr(start, 8)), nullptr, 16));
      return end_of_entry();
    }
    if (accept('=')) {
      out.kind = OwnedEntry::Kind::Filled;
      std::size_t start = pos_;
      while (pos_ < text_.size() && text_[pos_] != ',')
        ++pos_;
      out.written = std::string(text_.substr(start, pos_ - start));
      if (out.written != "" && out.written != "~" && out.written != "null" &&
          out.written != "Null" && out.written != "NULL") {
        return fail("expected ~, null or nothing after '='");
      }
      return end_of_entry();
    }
    return fail("expected '#', '=' or the end of the entry");
  }

 private:
  bool fail(std::string why) {
    if (why_.empty()) why_ = std::move(why) + " at character " + std::to_string(pos_ + 1);
    return false;
  }
  bool accept(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool end_of_entry() {
    if (done()) return true;
    if (text_.substr(pos_, 2) == ", ") {
      pos_ += 2;
      if (done()) return fail("expected an entry after ', '");
      return true;
    }
    return fail("expected ', ' between entries");
  }
  bool number(std::size_t& out) {
    std::size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
    if (pos_ == start || pos_ - start > 9) return fail("expected a number");
    out = std::stoul(std::string(text_.substr(start, pos_ - start)));
    return true;
  }
  bool path(Path& out) {
    std::string why;
    std::size_t start = out.size();
    std::size_t stopped = 0;
    std::size_t read = yaml::read_path(text_.substr(pos_), out, &why, &stopped);
    if (read == 0) {
      pos_ += stopped;
      return fail(why);
    }
    pos_ += read;
    for (std::size_t i = std::max<std::size_t>(start, 1); i < out.size(); ++i) {
      const PathStep& before = out[i - 1];
      if (out[i].is_index || before.is_index || before.key != "nodeAffinity") continue;
      if (out[i].key == "required") out[i].key = kRequired;
      if (out[i].key == "preferred") out[i].key = kPreferred;
    }
    return true;
  }
  // A JSON value (which is also YAML): its extent found by brackets and
  // quotes, its meaning by the YAML parser.
  bool json(Value& out) {
    std::size_t start = pos_;
    int depth = 0;
    bool in_string = false;
    for (; pos_ < text_.size(); ++pos_) {
      char c = text_[pos_];
      if (in_string) {
        if (c == '\\') {
          ++pos_;
        } else if (c == '"') {
          in_string = false;
          if (depth == 0) {
            ++pos_;
            break;
          }
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (depth == 0) break;
        if (--depth == 0) {
          ++pos_;
          break;
        }
      } else if (depth == 0 && (c == ',' || c == ']')) {
        break;
      }
    }
    std::string_view json_text = text_.substr(start, pos_ - start);
    if (json_text.empty() || in_string || depth != 0) return fail("expected a JSON value");
    try {
      yaml::Tree tree = yaml::parse_document(json_text);
      out = yaml::to_value(tree.root());
    } catch (const std::exception&) {
      return fail("expected a JSON value");
    }
    return true;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string why_;
};

}  // namespace

namespace {}  // namespace

std::string format_record_path(const Path& path) {
  return yaml::format_path(path, short_name);
}

// FNV-1a over the canonical JSON of the value (mapping keys sorted), folded
// to 32 bits.
std::uint32_t data_hash(const Value& value) {
  std::uint64_t h = yaml::json_fnv1a(value, yaml::KeyOrder::Sorted);
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

std::string Ownership::str() const {
  std::string out;
  out.reserve(64 * entries.size());
  for (const OwnedEntry& e : entries) {
    if (!out.empty()) out += ", ";
    switch (e.kind) {
      case OwnedEntry::Kind::Created:
        out += '+';
        yaml::append_path(out, e.path, short_name);
        break;
      case OwnedEntry::Kind::Wrote: {
        yaml::append_path(out, e.path, short_name);
        // "#" and eight lower-case hex digits.
        static constexpr char kHex[] = "0123456789abcdef";
        out += '#';
        for (int shift = 28; shift >= 0; shift -= 4)
          out += kHex[(e.hash >> shift) & 0xf];
        break;
      }
      case OwnedEntry::Kind::Took:
        out += '-';
        yaml::append_path(out, e.path, short_name);
        if (!e.path.back().is_index) {
          out += '@';
          out += std::to_string(e.position);
        }
        out += '=';
        out += yaml::to_json(e.value);
        break;
      case OwnedEntry::Kind::Filled:
        yaml::append_path(out, e.path, short_name);
        out += '=';
        out += e.written;
        break;
    }
  }
  return out;
}

std::optional<Ownership> Ownership::parse(std::string_view text, std::string* why) {
  Ownership out;
  Reader reader(text);
  while (!reader.done()) {
    OwnedEntry& entry = out.entries.emplace_back();
    if (!reader.entry(entry)) {
      if (why != nullptr) *why = reader.why();
      return std::nullopt;
    }
  }
  return out;
}

bool path_less(const Path& a, const Path& b) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i].is_index != b[i].is_index) return a[i].is_index;
    if (a[i].is_index ? a[i].index != b[i].index : a[i].key != b[i].key) {
      return a[i].is_index ? a[i].index < b[i].index : a[i].key < b[i].key;
    }
  }
  return a.size() < b.size();
}

}  // namespace archfit::placement
