#include "cache/entry_json.hpp"

#include <chrono>
#include <cstdint>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace archfit::cache {

namespace {

constexpr std::int64_t kVersion = 1;

using Seconds = std::chrono::seconds;

std::int64_t unix_seconds(TimePoint t) {
  return std::chrono::floor<Seconds>(t.time_since_epoch()).count();
}

// Whole seconds a TimePoint can hold (system_clock counts nanoseconds in
// libstdc++, up to the year 2262); anything outside is not a time we wrote.
std::optional<TimePoint> from_unix_seconds(const rapidjson::Value& v) {
  if (!v.IsInt64()) return std::nullopt;
  std::int64_t s = v.GetInt64();
  constexpr std::int64_t kMax =
      std::chrono::duration_cast<Seconds>(TimePoint::duration::max()).count() - 1;
  if (s < 0 || s > kMax) return std::nullopt;
  return TimePoint(std::chrono::duration_cast<TimePoint::duration>(Seconds(s)));
}

class Writer {
 public:
  Writer() : writer_(buffer_) { writer_.StartObject(); }

  void key(std::string_view k) {
    writer_.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
  }
  void string(std::string_view s) {
    writer_.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  }
  void member(std::string_view k, std::string_view s) {
    key(k);
    string(s);
  }
  void member(std::string_view k, std::int64_t n) {
    key(k);
    writer_.Int64(n);
  }
  rapidjson::Writer<rapidjson::StringBuffer>& raw() { return writer_; }

  std::string finish() {
    writer_.EndObject();
    return std::string(buffer_.GetString(), buffer_.GetSize()) + "\n";
  }

 private:
  rapidjson::StringBuffer buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_;
};

const rapidjson::Value* member(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::optional<std::string> string_member(const rapidjson::Value& object, const char* name) {
  const rapidjson::Value* v = member(object, name);
  if (!v || !v->IsString()) return std::nullopt;
  return std::string(v->GetString(), v->GetStringLength());
}

std::optional<DigestEntry> decode_digest(const rapidjson::Value& doc) {
  DigestEntry entry;
  auto digest = string_member(doc, "digest");
  if (!digest || !is_sha256_digest(*digest)) return std::nullopt;
  entry.digest = std::move(*digest);
  if (const rapidjson::Value* media_type = member(doc, "mediaType")) {
    if (!media_type->IsString()) return std::nullopt;
    entry.media_type.assign(media_type->GetString(), media_type->GetStringLength());
  }
  const rapidjson::Value* platforms = member(doc, "platforms");
  if (!platforms || !platforms->IsArray() || platforms->Empty()) return std::nullopt;
  for (const rapidjson::Value& item : platforms->GetArray()) {
    if (!item.IsString()) return std::nullopt;
    auto platform =
        image::Platform::try_parse(std::string_view(item.GetString(), item.GetStringLength()));
    if (!platform) return std::nullopt;
    entry.platforms.insert(*platform);
  }
  const rapidjson::Value* written = member(doc, "written");
  if (!written) return std::nullopt;
  auto time = from_unix_seconds(*written);
  if (!time) return std::nullopt;
  entry.written = *time;
  return entry;
}

std::optional<TagEntry> decode_tag(const rapidjson::Value& doc) {
  TagEntry entry;
  auto reference = string_member(doc, "reference");
  auto digest = string_member(doc, "digest");
  const rapidjson::Value* fetched = member(doc, "fetched");
  if (!reference || reference->empty() || !digest || !is_sha256_digest(*digest) || !fetched) {
    return std::nullopt;
  }
  auto time = from_unix_seconds(*fetched);
  if (!time) return std::nullopt;
  entry.reference = std::move(*reference);
  entry.digest = std::move(*digest);
  entry.fetched = *time;
  return entry;
}

}  // namespace

bool is_sha256_digest(std::string_view digest) {
  constexpr std::string_view kPrefix = "sha256:";
  if (digest.size() != kPrefix.size() + 64 || digest.substr(0, kPrefix.size()) != kPrefix) {
    return false;
  }
  for (char c : digest.substr(kPrefix.size())) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string encode_digest_entry(const DigestEntry& entry) {
  Writer w;
  w.member("version", kVersion);
  w.member("kind", "digest");
  w.member("digest", entry.digest);
  w.member("mediaType", entry.media_type);
  w.key("platforms");
  w.raw().StartArray();
  for (const std::string& p : entry.platforms.strs())
    w.string(p);
  w.raw().EndArray();
  w.member("written", unix_seconds(entry.written));
  return w.finish();
}

std::string encode_tag_entry(const TagEntry& entry) {
  Writer w;
  w.member("version", kVersion);
  w.member("kind", "tag");
  w.member("reference", entry.reference);
  w.member("digest", entry.digest);
  w.member("fetched", unix_seconds(entry.fetched));
  return w.finish();
}

DecodedEntry decode_entry(std::string_view text) {
  DecodedEntry out;
  rapidjson::Document doc;
  // Entries are flat; a deep document is not ours, and the iterative parser
  // cannot overflow the stack on one.
  doc.Parse<rapidjson::kParseIterativeFlag>(text.data(), text.size());
  if (doc.HasParseError() || !doc.IsObject()) return out;
  const rapidjson::Value* version = member(doc, "version");
  if (!version || !version->IsInt64() || version->GetInt64() != kVersion) return out;
  auto kind = string_member(doc, "kind");
  if (!kind) return out;
  if (*kind == "digest") {
    out.digest = decode_digest(doc);
  } else if (*kind == "tag") {
    out.tag = decode_tag(doc);
  }
  return out;
}

TimePoint to_stored_time(TimePoint t) {
  return std::chrono::floor<Seconds>(t);
}

}  // namespace archfit::cache
