#include "registry/transport/url.hpp"

#include <memory>

#include <archfit/base/text.hpp>

#include "registry/transport/libcurl.hpp"

namespace archfit::registry {

namespace {

// A URL as libcurl reads it (its URL API): what archfit checks of a URL is
// what libcurl then connects to, with no second parser to disagree.
class Url {
 public:
  // An absolute URL; nothing when libcurl does not read it as one.
  static std::optional<Url> parse(std::string_view text) {
    Url url;
    if (!url.set(CURLUPART_URL, std::string(text), CURLU_NON_SUPPORT_SCHEME)) return std::nullopt;
    return url;
  }

  // The URL `reference` names, read relative to this one (RFC 3986).
  bool follow(std::string_view reference) {
    return set(CURLUPART_URL, std::string(reference), CURLU_NON_SUPPORT_SCHEME);
  }
  bool set(CURLUPart part, const std::string& value, unsigned flags = 0) {
    return libcurl().url_set(handle_.get(), part, value.c_str(), flags) == CURLUE_OK;
  }
  void clear(CURLUPart part) { libcurl().url_set(handle_.get(), part, nullptr, 0); }
  std::optional<std::string> get(CURLUPart part, unsigned flags = 0) const {
    char* out = nullptr;
    if (libcurl().url_get(handle_.get(), part, &out, flags) != CURLUE_OK || out == nullptr) {
      return std::nullopt;
    }
    std::string text(out);
    libcurl().free(out);
    return text;
  }

 private:
  struct Cleanup {
    void operator()(CURLU* u) const { libcurl().url_cleanup(u); }
  };
  Url() : handle_(libcurl().url()) {}
  std::unique_ptr<CURLU, Cleanup> handle_;
};

}  // namespace

std::string origin_of(std::string_view text) {
  std::optional<Url> url = Url::parse(text);
  if (!url) return {};
  std::string out = to_lower(url->get(CURLUPART_SCHEME).value_or("")) + "://" +
                    to_lower(url->get(CURLUPART_HOST).value_or(""));
  if (auto port = url->get(CURLUPART_PORT, CURLU_NO_DEFAULT_PORT)) out += ":" + *port;
  return out;
}

std::string host_of(std::string_view text) {
  std::optional<Url> url = Url::parse(text);
  if (!url) return {};
  std::string out = url->get(CURLUPART_HOST).value_or("");
  if (auto port = url->get(CURLUPART_PORT)) out += ":" + *port;
  return out;
}

std::string resolve_location(std::string_view base, std::string_view location) {
  std::optional<Url> url = Url::parse(base);
  if (!url || !url->follow(location)) return std::string(location);
  return url->get(CURLUPART_URL).value_or(std::string(location));
}

std::string with_query(std::string_view text, const std::string& query) {
  std::optional<Url> url = Url::parse(text);
  if (!url) return {};
  // The URL as it was given (libcurl would spell its host and escapes
  // again), up to its fragment: a '#' starts one wherever it stands.
  const bool has_query = url->get(CURLUPART_QUERY).has_value();
  return std::string(text.substr(0, text.find('#'))) + (has_query ? "&" : "?") + query;
}

std::string redact_url(std::string_view text) {
  std::optional<Url> url = Url::parse(text);
  if (!url) return std::string(text.substr(0, text.find_first_of("?#")));
  url->clear(CURLUPART_QUERY);
  url->clear(CURLUPART_FRAGMENT);
  return url->get(CURLUPART_URL).value_or("");
}

std::string form_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '_' || c == '.' || c == '~';
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::optional<UrlParts> url_parts(std::string_view text) {
  std::optional<Url> url = Url::parse(text);
  if (!url) return std::nullopt;
  auto scheme = url->get(CURLUPART_SCHEME);
  auto host = url->get(CURLUPART_HOST);
  auto port = url->get(CURLUPART_PORT, CURLU_DEFAULT_PORT);
  if (!scheme || !host || !port) return std::nullopt;
  UrlParts parts{to_lower(*scheme), *host, 0};
  if (parts.host.size() >= 2 && parts.host.front() == '[' && parts.host.back() == ']') {
    parts.host = parts.host.substr(1, parts.host.size() - 2);
  }
  try {
    parts.port = std::stoi(*port);
  } catch (...) {
    return std::nullopt;
  }
  return parts;
}

}  // namespace archfit::registry
