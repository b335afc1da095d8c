#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/registry/protocol/digest.hpp>
#include <archfit/registry/protocol/manifest.hpp>

namespace archfit::registry {

namespace {

using Json = rapidjson::Value;

std::string string_member(const Json& object, const char* name) {
  if (!object.IsObject()) return {};
  auto it = object.FindMember(name);
  return it != object.MemberEnd() && it->value.IsString() ? it->value.GetString() : std::string();
}

std::string_view bare_type(std::string_view content_type) {
  content_type = content_type.substr(0, content_type.find(';'));
  return trim(content_type);
}

[[noreturn]] void bad(const std::string& what, const std::string& why) {
  fail(ErrorKind::Resolution, what + ": " + why);
}

rapidjson::Document parse_json(std::string_view body, const std::string& what,
                               const char* document) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseIterativeFlag>(body.data(), body.size());
  if (doc.HasParseError()) {
    bad(what, std::string("the registry sent an invalid ") + document + " (JSON error at byte " +
                  std::to_string(doc.GetErrorOffset()) + ": " +
                  rapidjson::GetParseError_En(doc.GetParseError()) + ")");
  }
  if (!doc.IsObject())
    bad(what, std::string("the registry sent a ") + document + " that is not a JSON object");
  return doc;
}

Descriptor read_descriptor(const Json& d, const std::string& what) {
  Descriptor out;
  out.media_type = string_member(d, "mediaType");
  out.digest = string_member(d, "digest");
  auto size = d.FindMember("size");
  if (size != d.MemberEnd() && size->value.IsInt64()) out.size = size->value.GetInt64();
  if (out.digest.empty()) bad(what, "a descriptor in the manifest has no digest");
  if (!is_checkable_digest(out.digest)) {
    bad(what, "a descriptor in the manifest names " + quoted(out.digest, 80) +
                  ", which is not a digest archfit can check (sha256 or sha512, lowercase hex)");
  }
  auto platform = d.FindMember("platform");
  if (platform != d.MemberEnd() && platform->value.IsObject()) {
    std::string os = string_member(platform->value, "os");
    std::string arch = string_member(platform->value, "architecture");
    if (os == "unknown" && arch == "unknown") {
      out.attestation = true;
    } else if (!os.empty() && !arch.empty()) {
      try {
        out.platform =
            image::Platform::from_parts(os, arch, string_member(platform->value, "variant"),
                                        string_member(platform->value, "os.version"));
      } catch (const Error& e) {
        bad(what, "index entry " + out.digest + " has " + e.message());
      }
    }
  }
  auto annotations = d.FindMember("annotations");
  if (annotations != d.MemberEnd() &&
      string_member(annotations->value, "vnd.docker.reference.type") == "attestation-manifest") {
    out.attestation = true;
  }
  return out;
}

}  // namespace

std::string_view manifest_accept() {
  static const std::string kAccept =
      std::string(media_type::kOciIndex) + ", " + std::string(media_type::kDockerList) + ", " +
      std::string(media_type::kOciManifest) + ", " + std::string(media_type::kDockerManifest);
  return kAccept;
}

bool is_index_type(std::string_view t) {
  return t == media_type::kOciIndex || t == media_type::kDockerList;
}
bool is_manifest_type(std::string_view t) {
  return t == media_type::kOciManifest || t == media_type::kDockerManifest;
}
bool is_schema1_type(std::string_view t) {
  return t == media_type::kDockerSchema1 || t == media_type::kDockerSchema1Signed;
}

Manifest parse_manifest(std::string_view body, std::string_view content_type,
                        const std::string& what) {
  rapidjson::Document doc = parse_json(body, what, "manifest");
  Manifest m;
  m.media_type = string_member(doc, "mediaType");
  if (m.media_type.empty()) m.media_type = std::string(bare_type(content_type));
  auto version = doc.FindMember("schemaVersion");
  bool schema1 =
      is_schema1_type(m.media_type) ||
      (version != doc.MemberEnd() && version->value.IsInt() && version->value.GetInt() == 1);
  if (schema1) {
    m.kind = Manifest::Kind::Schema1;
    m.media_type = std::string(media_type::kDockerSchema1);
    return m;
  }
  auto manifests = doc.FindMember("manifests");
  auto config = doc.FindMember("config");
  bool has_entries = manifests != doc.MemberEnd() && manifests->value.IsArray();
  bool has_config = config != doc.MemberEnd() && config->value.IsObject();
  // An OCI manifest may leave mediaType out; the fields tell which it is.
  if (!is_index_type(m.media_type) && !is_manifest_type(m.media_type)) {
    if (has_entries && !has_config) {
      m.media_type = std::string(media_type::kOciIndex);
    } else if (has_config && !has_entries) {
      m.media_type = std::string(media_type::kOciManifest);
    } else {
      bad(what, "the registry sent a document of type " + quoted(m.media_type) +
                    " that is neither an image index nor an image manifest");
    }
  }
  if (is_index_type(m.media_type)) {
    if (!has_entries) bad(what, "the image index has no \"manifests\" list");
    m.kind = Manifest::Kind::Index;
    for (const Json& entry : manifests->value.GetArray()) {
      m.entries.push_back(read_descriptor(entry, what));
    }
    return m;
  }
  if (!has_config) bad(what, "the image manifest has no \"config\"");
  m.kind = Manifest::Kind::Image;
  m.config = read_descriptor(config->value, what);
  return m;
}

image::Platform parse_config_platform(std::string_view body, const std::string& what) {
  rapidjson::Document doc = parse_json(body, what, "image config");
  std::string os = string_member(doc, "os");
  std::string arch = string_member(doc, "architecture");
  if (os.empty() || arch.empty()) {
    bad(what, "the image config names no os and architecture");
  }
  try {
    return image::Platform::from_parts(os, arch, string_member(doc, "variant"),
                                       string_member(doc, "os.version"));
  } catch (const Error& e) {
    bad(what, "the image config has " + e.message());
  }
}

}  // namespace archfit::registry
