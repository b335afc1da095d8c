#include "registry/credentials/credentials_dir.hpp"

#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <system_error>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/text.hpp>

#include "registry/credentials/registry_key.hpp"
#include "registry/credentials/toml_strings.hpp"

namespace archfit::registry {

namespace {

namespace fs = std::filesystem;

class CredentialsDirSource : public CredentialSource {
 public:
  CredentialsDirSource(std::string dir, std::string display)
      : dir_(std::move(dir)), display_(std::move(display)) {}

  std::string name() const override { return "credentials dir " + display_; }

  std::optional<Credential> find(std::string_view registry, std::string_view) const override {
    std::string file = parse_registry_key(registry).registry();
    // A registry name never holds these; refuse rather than read outside the directory.
    if (file.empty() || file.front() == '.' || file.find_first_of("/\\") != std::string::npos ||
        file.find('\0') != std::string::npos) {
      return std::nullopt;
    }
    file += ".toml";
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, fresh] = files_.try_emplace(file);
    if (fresh) {
      try {
        it->second.credential = read(file);
      } catch (...) {
        it->second.error = std::current_exception();
      }
    }
    if (it->second.error) std::rethrow_exception(it->second.error);
    return it->second.credential;
  }

 private:
  std::optional<Credential> read(const std::string& file) const {
    fs::path path = fs::path(dir_) / file;
    std::string shown = display_ + (display_.ends_with('/') ? "" : "/") + file;
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    std::string text;
    try {
      text = read_file(path, ReadLimit{kMaxSettingsBytes, "a credentials file"});
    } catch (const Error& e) {
      fail(ErrorKind::Config,
           "cannot read " + shown + ": " + e.message().substr(e.message().rfind(": ") + 2));
    }
    Credential c;
    bool has_user = false;
    bool has_secret = false;
    for (TomlString& entry : parse_toml_strings(text, shown)) {
      if (entry.key == "user") {
        c.username = std::move(entry.value);
        has_user = true;
      } else if (entry.key == "secret") {
        c.password = std::move(entry.value);
        has_secret = true;
      } else {
        fail(ErrorKind::Config,
             "unknown key " + archfit::quoted(entry.key) +
                 "; a credentials file has user and secret",
             Location{shown, entry.line, entry.column});
      }
    }
    if (!has_user || !has_secret) {
      fail(ErrorKind::Config,
           std::string("missing ") + (has_user ? "secret" : "user") +
               "; a credentials file has user = \"...\" and secret = \"...\"",
           Location{shown});
    }
    c.source = shown;
    return c;
  }

  struct Entry {
    std::optional<Credential> credential;
    std::exception_ptr error;
  };

  std::string dir_;
  std::string display_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, Entry> files_;
};

}  // namespace

std::unique_ptr<CredentialSource> make_credentials_dir_source(const std::string& dir,
                                                              const std::string& display) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    fail(ErrorKind::Config, "resolve.credentialsDir: " + display +
                                (fs::exists(dir, ec) ? " is not a directory" : " does not exist") +
                                "; it should hold one <registry>.toml file per registry");
  }
  return std::make_unique<CredentialsDirSource>(dir, display);
}

}  // namespace archfit::registry
