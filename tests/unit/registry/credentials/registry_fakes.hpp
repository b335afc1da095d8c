// Fakes for the keychain's seams: the environment and the credential helper
// runner. Tests never read the real ~/.docker/config.json or run helpers
// from the real PATH unless they mean to.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <archfit/base/base64.hpp>
#include <archfit/registry/credentials/keychain.hpp>

namespace archfit::registry::testing {

inline Getenv fake_env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
}

inline std::string basic_auth(const std::string& user, const std::string& password) {
  return base64_encode(user + ":" + password);
}

// A helper that answers from a table: program -> server URL -> output. An
// unknown program or server gets "credentials not found in native keychain"
// on stdout and exit code 1, as docker's helpers answer. Records every call.
class FakeHelpers {
 public:
  void answer(const std::string& program, const std::string& server, HelperOutput output) {
    answers_[program][server] = std::move(output);
  }
  void credentials(const std::string& program, const std::string& server, const std::string& user,
                   const std::string& secret) {
    answer(program, server,
           HelperOutput{0,
                        "{\"ServerURL\":\"" + server + "\",\"Username\":\"" + user +
                            "\",\"Secret\":\"" + secret + "\"}\n",
                        ""});
  }
  HelperRunner runner() {
    return [this](const std::string& program, const std::string& server) {
      calls.emplace_back(program, server);
      auto p = answers_.find(program);
      if (p != answers_.end()) {
        auto s = p->second.find(server);
        if (s != p->second.end()) return s->second;
      }
      return HelperOutput{1, "credentials not found in native keychain\n", ""};
    };
  }

  std::vector<std::pair<std::string, std::string>> calls;

 private:
  std::map<std::string, std::map<std::string, HelperOutput>> answers_;
};

}  // namespace archfit::registry::testing
