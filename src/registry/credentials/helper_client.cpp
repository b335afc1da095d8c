#include "registry/credentials/helper_client.hpp"

#include <rapidjson/document.h>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>

namespace archfit::registry {

namespace {

bool says_not_found(const HelperOutput& output) {
  return to_lower(output.out).find("credentials not found") != std::string::npos ||
         to_lower(output.err).find("credentials not found") != std::string::npos;
}

// What a failed helper said. docker's helpers print their errors on stdout;
// stdout that looks like a JSON answer is left out, since it may hold a secret.
std::string helper_message(const HelperOutput& output) {
  std::string_view said = trim(output.err);
  if (said.empty() && !trim(output.out).starts_with('{')) said = trim(output.out);
  std::string message = "exit code " + std::to_string(output.exit_code);
  if (!said.empty()) message += ": " + archfit::quoted(said, 300);
  return message;
}

std::optional<std::string> string_member(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || it->value.IsNull()) return std::string();
  if (!it->value.IsString()) return std::nullopt;
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

}  // namespace

std::string helper_program(const std::string& helper) {
  return "docker-credential-" + helper;
}

std::optional<Credential> ask_helper(const HelperRunner& run, const std::string& helper,
                                     const std::string& server_url, const std::string& label) {
  std::string context = "cannot get credentials for " + server_url + " from " + label + ": ";
  if (helper.find('/') != std::string::npos) {
    // Helpers are looked up on PATH; a name with a slash would run a file elsewhere.
    fail(ErrorKind::Config, context + archfit::quoted(helper) + " is not a helper name");
  }
  HelperOutput output;
  try {
    output = run(helper_program(helper), server_url);
  } catch (const Error& e) {
    fail(ErrorKind::Config, context + e.message());
  }
  if (output.exit_code != 0) {
    if (says_not_found(output)) return std::nullopt;
    fail(ErrorKind::Config, context + helper_message(output));
  }
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseIterativeFlag>(output.out.data(), output.out.size());
  std::optional<std::string> username;
  std::optional<std::string> secret;
  if (!doc.HasParseError() && doc.IsObject()) {
    username = string_member(doc, "Username");
    secret = string_member(doc, "Secret");
  }
  if (!username || !secret) {
    fail(ErrorKind::Config, context +
                                "its answer is not the JSON object "
                                "{\"ServerURL\", \"Username\", \"Secret\"} of the helper protocol");
  }
  if (username->empty() && secret->empty()) return std::nullopt;
  Credential c;
  // A helper answers an identity token (an OAuth2 refresh token) with the
  // username "<token>".
  if (*username == "<token>") {
    c.identity_token = std::move(*secret);
  } else {
    c.username = std::move(*username);
    c.password = std::move(*secret);
  }
  c.source = label;
  return c;
}

}  // namespace archfit::registry
