#include <rapidjson/document.h>

#include <archfit/base/text.hpp>
#include <archfit/registry/protocol/error.hpp>

namespace archfit::registry {

std::vector<OciError> parse_oci_errors(std::string_view body) {
  std::vector<OciError> out;
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseIterativeFlag>(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) return out;
  auto errors = doc.FindMember("errors");
  if (errors == doc.MemberEnd() || !errors->value.IsArray()) return out;
  for (const auto& e : errors->value.GetArray()) {
    if (!e.IsObject()) continue;
    OciError err;
    auto code = e.FindMember("code");
    if (code != e.MemberEnd() && code->value.IsString()) err.code = code->value.GetString();
    auto message = e.FindMember("message");
    if (message != e.MemberEnd() && message->value.IsString()) {
      err.message = message->value.GetString();
    }
    if (!err.code.empty() || !err.message.empty()) out.push_back(std::move(err));
  }
  return out;
}

namespace {

std::string failure_words(Failure f) {
  switch (f) {
    case Failure::Connect:
      return "cannot connect to";
    case Failure::Timeout:
      return "no answer in time from";
    case Failure::Tls:
      return "TLS handshake failed with";
    case Failure::TooLarge:
      return "response too large from";
    case Failure::Truncated:
      return "response cut short by";
    case Failure::Broken:
      return "unreadable answer from";
    case Failure::Refused:
      return "archfit would not reach";
    case Failure::Other:
    case Failure::None:
      break;
  }
  return "request failed to";
}

}  // namespace

// What a registry said goes into messages escaped and cut to size: a header
// value or an error message may hold anything, a line break or a terminal's
// escape sequence among it.
std::string describe(const RegistryProblem& p) {
  std::string out = p.image + ": ";
  if (p.status != 0) {
    out += std::to_string(p.status);
    for (const OciError& e : p.errors) {
      if (!e.code.empty()) out += " " + printable(e.code, 60);
    }
    out += " from " + printable(p.host, 100);
  } else if (p.failure != Failure::None) {
    out += failure_words(p.failure) + " " + printable(p.host, 100);
  } else {
    out += printable(p.host, 100);
  }
  if (!p.what.empty()) out += " (" + printable(p.what, 200) + ")";
  std::string detail = p.detail;
  if (detail.empty() && !p.errors.empty()) detail = p.errors.front().message;
  if (!detail.empty()) out += ": " + printable(detail, 400);
  if (!p.credentials.empty()) out += " (credentials: " + p.credentials + ")";
  return out;
}

RegistryError::RegistryError(RegistryProblem problem)
    : Error(ErrorKind::Resolution, describe(problem)), problem_(std::move(problem)) {}

}  // namespace archfit::registry
