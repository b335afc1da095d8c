#include <algorithm>
#include <functional>
#include <optional>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/text.hpp>
#include <archfit/cache/lock_file.hpp>

#include "cache/located_json.hpp"

namespace archfit::cache {

namespace {

constexpr std::int64_t kVersion = 1;

// Checks one lock file's text against the format and collects its entries.
// Every message is located at the value that broke the rule.
class LockReader {
 public:
  LockReader(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  // Reads the text, handing each entry to `add` as it is read (the images
  // are not held as a JSON tree). The file's own keys are checked before any
  // entry's error is reported.
  // `add` returns false for an image it holds already.
  void read(const std::function<bool(const image::Reference&, LockEntry)>& add) {
    std::optional<Error> entry_error;
    StreamedMembers streamed{
        "images", [&](const JsonValue::Member& m) {
          if (entry_error) return;
          try {
            image::Reference ref = key_reference(m);
            if (!add(ref, entry(ref, m))) {
              fail_at(m.key_offset, archfit::quoted(m.key) + " is listed twice; keep one entry");
            }
          } catch (const Error& e) {
            entry_error = e;
          }
        }};
    JsonValue root = parse_located_json(text_, name_, 64, &streamed);
    if (root.type != JsonValue::Type::Object) {
      fail_at(root.offset,
              std::string("expected a JSON object {\"version\": 1, \"images\": {...}}, "
                          "got ") +
                  std::string(root.type_name()));
    }
    const JsonValue* version = nullptr;
    const JsonValue* images = nullptr;
    for (const JsonValue::Member& m : root.members) {
      if (m.key == "version") {
        version = unique(version, m);
      } else if (m.key == "images") {
        images = unique(images, m);
      } else {
        fail_at(m.key_offset, "unknown key " + archfit::quoted(m.key) +
                                  "; a lock file has \"version\" "
                                  "and \"images\"");
      }
    }
    check_version(version, root);
    if (images && images->type != JsonValue::Type::Object) {
      fail_at(images->offset,
              "\"images\": expected an object of canonical image reference -> "
              "{\"digest\", \"platforms\"}, got " +
                  std::string(images->type_name()));
    }
    if (entry_error) throw *entry_error;
  }

 private:
  [[noreturn]] void fail_at(std::size_t offset, std::string message) const {
    fail(ErrorKind::Config, std::move(message), locate(text_, offset, name_));
  }

  const JsonValue* unique(const JsonValue* seen, const JsonValue::Member& m) const {
    if (seen) fail_at(m.key_offset, archfit::quoted(m.key) + " is given twice; keep one");
    return &m.value;
  }

  void check_version(const JsonValue* version, const JsonValue& root) const {
    if (!version) {
      fail_at(root.offset, "missing \"version\"; a lock file starts {\"version\": 1, ...}");
    }
    if (version->type != JsonValue::Type::Number || !version->is_integer) {
      fail_at(version->offset,
              "\"version\": expected the number 1, got " + std::string(version->type_name()));
    }
    if (version->integer != kVersion) {
      fail_at(version->offset, "unsupported lock file version " + std::to_string(version->integer) +
                                   "; this archfit reads version 1 (upgrade archfit, or write "
                                   "the file again with `archfit lock`, or without a registry "
                                   "`archfit lock --set IMAGE=PLATFORMS`)");
    }
  }

  image::Reference key_reference(const JsonValue::Member& m) const {
    std::string why;
    auto ref = image::Reference::try_parse(m.key, &why);
    if (!ref) fail_at(m.key_offset, why);
    if (ref->canonical() != m.key) {
      fail_at(m.key_offset, archfit::quoted(m.key) + " is not a canonical image reference; write " +
                                archfit::quoted(ref->canonical()));
    }
    return *ref;
  }

  LockEntry entry(const image::Reference& ref, const JsonValue::Member& m) const {
    const std::string where = archfit::quoted(m.key);
    if (m.value.type != JsonValue::Type::Object) {
      fail_at(m.value.offset, where + ": expected an object {\"digest\", \"platforms\"}, got " +
                                  std::string(m.value.type_name()));
    }
    LockEntry out;
    const JsonValue* platforms = nullptr;
    bool have_digest = false;
    for (const JsonValue::Member& field : m.value.members) {
      if (field.key == "digest") {
        if (have_digest) fail_at(field.key_offset, where + ": \"digest\" is given twice; keep one");
        have_digest = true;
        out.digest = digest(ref, where, field.value);
      } else if (field.key == "platforms") {
        platforms = unique(platforms, field);
      } else {
        fail_at(field.key_offset, where + ": unknown key " + archfit::quoted(field.key) +
                                      "; an entry has \"digest\" (optional) and \"platforms\"");
      }
    }
    if (!platforms) {
      fail_at(m.value.offset, where +
                                  ": missing \"platforms\"; list the platforms the image is "
                                  "built for, e.g. \"platforms\": [\"linux/amd64\"]");
    }
    out.platforms = platform_set(where, *platforms);
    return out;
  }

  std::string digest(const image::Reference& ref, const std::string& where,
                     const JsonValue& value) const {
    if (value.type != JsonValue::Type::String) {
      fail_at(value.offset,
              where + ": \"digest\": expected a string, got " + std::string(value.type_name()));
    }
    // The reference grammar owns the digest rules; check against a stand-in name.
    if (!image::Reference::try_parse("example.com/digest-check@" + value.string)) {
      fail_at(value.offset, where + ": invalid digest " + archfit::quoted(value.string) +
                                "; write <algorithm>:<hex>, e.g. sha256: and 64 lowercase hex "
                                "digits");
    }
    if (ref.has_digest() && ref.digest() != value.string) {
      fail_at(value.offset, where + ": digest " + archfit::quoted(value.string) +
                                " differs from the digest in the key; remove it or make them "
                                "agree");
    }
    return value.string;
  }

  image::PlatformSet platform_set(const std::string& where, const JsonValue& value) const {
    if (value.type != JsonValue::Type::Array) {
      fail_at(value.offset, where +
                                ": \"platforms\": expected an array of \"os/arch[/variant]\" "
                                "strings, got " +
                                std::string(value.type_name()));
    }
    if (value.items.empty()) {
      fail_at(value.offset, where +
                                ": \"platforms\" is empty; list at least one platform, e.g. "
                                "[\"linux/amd64\"]");
    }
    image::PlatformSet set;
    for (const JsonValue& item : value.items) {
      if (item.type != JsonValue::Type::String) {
        fail_at(item.offset, where +
                                 ": \"platforms\": expected \"os/arch[/variant]\" strings, "
                                 "got " +
                                 std::string(item.type_name()));
      }
      std::string why;
      auto platform = image::Platform::try_parse(item.string, &why);
      if (!platform) fail_at(item.offset, where + ": " + why);
      set.insert(*platform);
    }
    return set;
  }

  std::string_view text_;
  const std::string& name_;
};

}  // namespace

LockFile LockFile::parse(std::string_view text, const std::string& name) {
  LockFile out;
  LockReader(text, name).read([&out](const image::Reference& ref, LockEntry entry) {
    // Files archfit writes list their images sorted: each goes at the end.
    std::size_t before = out.entries_.size();
    out.entries_.try_emplace(
        out.entries_.end(), ref.canonical(),
        Stored{out.add_digest(std::move(entry.digest)), out.intern(std::move(entry.platforms))});
    return out.entries_.size() > before;
  });
  return out;
}

LockFile LockFile::load(const std::filesystem::path& path) {
  return parse(read_file(path, ReadLimit{kMaxLockBytes, "a lock file"}), path.string());
}

std::uint32_t LockFile::add_digest(std::string digest) {
  if (digest.empty()) return 0;
  if (digests_.empty()) digests_.emplace_back();  // 0: none
  digests_.push_back(std::move(digest));
  return static_cast<std::uint32_t>(digests_.size() - 1);
}

std::uint32_t LockFile::intern(image::PlatformSet set) {
  auto [it, inserted] = set_index_.try_emplace(set.str(), static_cast<std::uint32_t>(sets_.size()));
  if (inserted) sets_.push_back(std::move(set));
  return it->second;
}

LockEntry LockFile::entry_of(const Stored& stored) const {
  return LockEntry{stored.digest == 0 ? std::string() : digests_[stored.digest],
                   sets_[stored.platforms]};
}

// A reference with a digest names one image whatever its tag says, so it also
// finds an entry written by digest alone, or under its tag when that entry
// records the same digest. A reference without a digest finds its own key only.
std::optional<std::string> LockFile::key_of(const image::Reference& ref) const {
  if (auto it = entries_.find(ref.canonical()); it != entries_.end()) return it->first;
  if (!ref.has_digest()) return std::nullopt;
  if (auto it = entries_.find(ref.name() + "@" + ref.digest()); it != entries_.end()) {
    return it->first;
  }
  if (!ref.tag().empty()) {
    auto it = entries_.find(ref.name() + ":" + ref.tag());
    if (it != entries_.end() && it->second.digest != 0 &&
        digests_[it->second.digest] == ref.digest())
      return it->first;
  }
  return std::nullopt;
}

std::optional<LockEntry> LockFile::find(const image::Reference& ref) const {
  std::optional<std::string> key = key_of(ref);
  if (!key) return std::nullopt;
  return entry_of(entries_.find(*key)->second);
}

std::optional<LockEntry> LockFile::find(const std::string& canonical) const {
  auto it = entries_.find(canonical);
  if (it == entries_.end()) return std::nullopt;
  return entry_of(it->second);
}

bool LockFile::remove(const std::string& canonical) {
  return entries_.erase(canonical) > 0;
}

void LockFile::remove_all_but(const std::set<std::string>& keep,
                              const std::function<void(const std::string&, LockEntry)>& removed) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (keep.contains(it->first)) {
      ++it;
      continue;
    }
    removed(it->first, entry_of(it->second));
    it = entries_.erase(it);
  }
}

std::vector<std::string> LockFile::keys() const {
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const auto& [key, stored] : entries_)
    out.push_back(key);
  return out;
}

void LockFile::set(const image::Reference& ref, LockEntry entry) {
  if (entry.platforms.empty()) {
    fail(ErrorKind::Internal,
         "lock entry for " + archfit::quoted(ref.canonical()) + " has no platforms");
  }
  entries_[ref.canonical()] =
      Stored{add_digest(std::move(entry.digest)), intern(std::move(entry.platforms))};
}

// The bytes `jq -S --indent 2` would print: keys sorted (std::map keeps the
// image keys sorted; "digest" < "platforms" and "images" < "version" by
// writing them in that order), two-space indent, one array item per line.
namespace {

// RapidJSON's output stream over a sink, a piece of 64 KiB at a time.
class PieceStream {
 public:
  using Ch = char;
  explicit PieceStream(const std::function<void(std::string_view)>& put) : put_(put) {
    piece_.reserve(kPiece);
  }
  void Put(char c) {
    piece_.push_back(c);
    if (piece_.size() == kPiece) Flush();
  }
  void Flush() {
    if (!piece_.empty()) put_(piece_);
    piece_.clear();
  }

 private:
  static constexpr std::size_t kPiece = 64 * 1024;
  const std::function<void(std::string_view)>& put_;
  std::string piece_;
};

}  // namespace

void LockFile::write(const std::function<void(std::string_view)>& put) const {
  PieceStream stream(put);
  rapidjson::PrettyWriter<PieceStream> writer(stream);
  writer.SetIndent(' ', 2);
  auto key = [&writer](const std::string& k) {
    writer.Key(k.c_str(), static_cast<rapidjson::SizeType>(k.size()));
  };
  auto string = [&writer](const std::string& s) {
    writer.String(s.c_str(), static_cast<rapidjson::SizeType>(s.size()));
  };
  writer.StartObject();
  key("images");
  writer.StartObject();
  for (const auto& [ref, stored] : entries_) {
    key(ref);
    writer.StartObject();
    if (stored.digest != 0) {
      key("digest");
      string(digests_[stored.digest]);
    }
    key("platforms");
    writer.StartArray();
    for (const std::string& p : sets_[stored.platforms].strs())
      string(p);
    writer.EndArray();
    writer.EndObject();
  }
  writer.EndObject();
  key("version");
  writer.Int64(kVersion);
  writer.EndObject();
  stream.Put('\n');
  stream.Flush();
}

std::string LockFile::serialize() const {
  std::string out;
  write([&out](std::string_view part) { out += part; });
  return out;
}

std::string LockFile::skeleton(const std::vector<std::string>& canonical_refs) {
  std::vector<std::string> refs = canonical_refs;
  std::sort(refs.begin(), refs.end());
  refs.erase(std::unique(refs.begin(), refs.end()), refs.end());
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
  writer.SetIndent(' ', 2);
  writer.StartObject();
  writer.Key("images");
  writer.StartObject();
  for (const std::string& ref : refs) {
    writer.Key(ref.c_str(), static_cast<rapidjson::SizeType>(ref.size()));
    writer.StartObject();
    writer.Key("platforms");
    writer.StartArray();
    writer.EndArray();
    writer.EndObject();
  }
  writer.EndObject();
  writer.Key("version");
  writer.Int64(kVersion);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace archfit::cache
