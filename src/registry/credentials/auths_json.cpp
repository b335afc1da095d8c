#include "registry/credentials/auths_json.hpp"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <archfit/base/base64.hpp>
#include <archfit/base/text.hpp>

namespace archfit::registry {

namespace {

using rapidjson::Value;

std::string_view type_name(const Value& v) {
  if (v.IsNull()) return "null";
  if (v.IsBool()) return "a boolean";
  if (v.IsNumber()) return "a number";
  if (v.IsString()) return "a string";
  if (v.IsArray()) return "an array";
  return "an object";
}

std::string_view text_of(const Value& v) {
  return std::string_view(v.GetString(), v.GetStringLength());
}

// 1-based line and column (in characters) of a byte offset.
Location locate(std::string_view text, std::size_t offset, const std::string& file) {
  Location where{file, 1, 1};
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++where.line;
      where.column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++where.column;
    }
  }
  return where;
}

class Reader {
 public:
  explicit Reader(const AuthsJsonFormat& format) : format_(format) {}

  AuthsJson read(std::string_view text) {
    rapidjson::Document doc;
    // Iterative parsing: a pull secret is untrusted input and must not be
    // able to exhaust the stack with deep nesting.
    doc.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag>(text.data(),
                                                                                      text.size());
    if (doc.HasParseError()) {
      std::string message = rapidjson::GetParseError_En(doc.GetParseError());
      if (!message.empty() && message.back() == '.') message.pop_back();
      if (!message.empty() && message[0] >= 'A' && message[0] <= 'Z') message[0] += 'a' - 'A';
      Location where;
      if (!format_.file.empty()) where = locate(text, doc.GetErrorOffset(), format_.file);
      fail(format_.kind, format_.prefix + "invalid JSON: " + message, where);
    }
    AuthsJson out;
    if (format_.legacy) {
      read_auths(doc, "", out);
      return out;
    }
    if (!doc.IsObject()) mistyped(doc, "the document", "an object");
    for (const auto& m : doc.GetObject()) {
      std::string_view key = text_of(m.name);
      if (key == "auths") {
        read_auths(m.value, "auths.", out);
      } else if (key == "credHelpers") {
        read_helpers(m.value, out);
      } else if (key == "credsStore") {
        if (m.value.IsNull()) continue;
        if (!m.value.IsString()) mistyped(m.value, "credsStore", "a string");
        out.creds_store = std::string(text_of(m.value));
      }
    }
    return out;
  }

 private:
  [[noreturn]] void error(const std::string& message) const {
    Location where;
    where.file = format_.file;
    fail(format_.kind, format_.prefix + message, where);
  }
  [[noreturn]] void mistyped(const Value& v, const std::string& path, std::string_view want) const {
    error(path + ": expected " + std::string(want) + ", got " + std::string(type_name(v)));
  }

  void read_auths(const Value& auths, const std::string& prefix, AuthsJson& out) const {
    if (auths.IsNull()) return;
    if (!auths.IsObject()) {
      mistyped(auths, prefix.empty() ? "the document" : "auths", "an object of registry -> auth");
    }
    for (const auto& m : auths.GetObject()) {
      std::string key(text_of(m.name));
      std::string path = prefix + archfit::quoted(key);
      AuthEntry entry{key, read_entry(m.value, path)};
      // A key given twice: the last one counts, as Go's encoding/json reads it.
      std::erase_if(out.auths, [&](const AuthEntry& e) { return e.key == key; });
      out.auths.push_back(std::move(entry));
    }
  }

  Credential read_entry(const Value& v, const std::string& path) const {
    Credential c;
    if (v.IsNull()) return c;
    if (!v.IsObject()) mistyped(v, path, "an object");
    std::string auth;
    for (const auto& m : v.GetObject()) {
      std::string_view field = text_of(m.name);
      std::string* into = field == "auth"            ? &auth
                          : field == "username"      ? &c.username
                          : field == "password"      ? &c.password
                          : field == "identitytoken" ? &c.identity_token
                          : field == "registrytoken" ? &c.registry_token
                                                     : nullptr;
      if (!into || m.value.IsNull()) continue;
      if (!m.value.IsString()) mistyped(m.value, path + '.' + std::string(field), "a string");
      *into = std::string(text_of(m.value));
    }
    if (!auth.empty()) split_auth(auth, path + ".auth", c);
    return c;
  }

  // "auth" wins over "username" and "password", as in docker and kubelet.
  void split_auth(const std::string& auth, const std::string& path, Credential& c) const {
    std::optional<std::string> decoded = base64_decode(auth);
    if (!decoded) error(path + ": not valid base64; write base64 of \"user:password\"");
    std::size_t colon = decoded->find(':');
    if (colon == std::string::npos) {
      error(path + ": expected base64 of \"user:password\", but the decoded text has no ':'");
    }
    c.username = decoded->substr(0, colon);
    c.password = decoded->substr(colon + 1);
    // docker trims NUL padding that some tools wrote after the password.
    while (!c.password.empty() && c.password.back() == '\0')
      c.password.pop_back();
  }

  void read_helpers(const Value& helpers, AuthsJson& out) const {
    if (helpers.IsNull()) return;
    if (!helpers.IsObject()) mistyped(helpers, "credHelpers", "an object of registry -> helper");
    for (const auto& m : helpers.GetObject()) {
      std::string key(text_of(m.name));
      if (!m.value.IsString()) mistyped(m.value, "credHelpers." + archfit::quoted(key), "a string");
      std::erase_if(out.cred_helpers, [&](const auto& h) { return h.first == key; });
      out.cred_helpers.emplace_back(std::move(key), std::string(text_of(m.value)));
    }
  }

  const AuthsJsonFormat& format_;
};

}  // namespace

AuthsJson parse_auths_json(std::string_view text, const AuthsJsonFormat& format) {
  return Reader(format).read(text);
}

}  // namespace archfit::registry
