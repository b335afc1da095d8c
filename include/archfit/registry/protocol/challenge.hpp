// WWW-Authenticate challenges (RFC 7235 section 4.1), as registries send them:
//   Bearer realm="https://auth.docker.io/token",service="registry.docker.io",
//          scope="repository:library/nginx:pull",error="insufficient_scope"
// Several challenges may share one header or come in several headers; quoted
// values may hold commas and backslash escapes.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace archfit::registry {

struct Challenge {
  std::string scheme;                         // lowercased: "bearer", "basic"
  std::map<std::string, std::string> params;  // names lowercased, values unquoted
  std::string token68;                        // the rare token68 form ("Negotiate abc==")

  // The parameter's value; "" when absent.
  std::string param(const std::string& name) const;
};

// Every challenge in the header values, in order. Malformed parts are skipped,
// never an error: a registry's odd header must not hide the challenges that
// parse.
std::vector<Challenge> parse_challenges(const std::vector<std::string_view>& header_values);

// The first challenge of a scheme; nullptr when there is none.
const Challenge* find_challenge(const std::vector<Challenge>& challenges, std::string_view scheme);

}  // namespace archfit::registry
