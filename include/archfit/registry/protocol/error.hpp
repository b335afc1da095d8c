// What went wrong talking to a registry, as data: the image, the host that
// answered, the HTTP status and OCI error codes, the credentials used, and
// whether trying again could help. The message names all of them, e.g.
//   docker.io/library/nginx:1.25: 401 UNAUTHORIZED from registry-1.docker.io
//   (credentials: ~/.docker/config.json auths)
// and never holds a credential or token.
#pragma once

#include <string>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/registry/transport/http.hpp>

namespace archfit::registry {

struct OciError {
  std::string code;  // "UNAUTHORIZED", "MANIFEST_UNKNOWN", "TOOMANYREQUESTS"
  std::string message;
};

struct RegistryProblem {
  std::string image;  // canonical reference
  std::string host;   // the host that answered (or did not)
  long status = 0;    // 0 when no HTTP response came
  Failure failure = Failure::None;
  std::vector<OciError> errors;
  std::string what;         // what was being done or what was wrong: "token request", ...
  std::string detail;       // transport message or a hint
  std::string credentials;  // Credential::source, or "none"
  bool retryable = false;
};

class RegistryError : public Error {
 public:
  explicit RegistryError(RegistryProblem problem);
  const RegistryProblem& problem() const { return problem_; }

 private:
  RegistryProblem problem_;
};

// The OCI error body {"errors":[{"code","message","detail"}]}; empty when the
// body is not one.
std::vector<OciError> parse_oci_errors(std::string_view body);

// The message of a problem (what RegistryError::what() says).
std::string describe(const RegistryProblem& problem);

}  // namespace archfit::registry
