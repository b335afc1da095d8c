// Pull secrets matched the way kubelet matches them (pkg/credentialprovider:
// keyring.go and config.go), with two refinements: Docker Hub's host names
// are one registry, and a key's path must end on a '/' of the repository
// ("quay.io/org" does not match "quay.io/organic/app").
#include <algorithm>

#include <archfit/base/error.hpp>
#include <archfit/registry/credentials/pull_secrets.hpp>

#include "registry/credentials/auths_json.hpp"
#include "registry/credentials/registry_key.hpp"

namespace archfit::registry {

namespace {

// One host label against one glob label, as Go's path.Match: '*' any run of
// characters, '?' one character, [abc], [a-z] and [^a-z] one of a set.
bool glob_match(std::string_view glob, std::string_view text) {
  std::size_t g = 0;
  std::size_t t = 0;
  std::size_t star = std::string_view::npos;  // glob position after the last '*'
  std::size_t star_text = 0;                  // text position that '*' covers up to
  while (t < text.size()) {
    if (g < glob.size() && glob[g] == '*') {
      star = ++g;
      star_text = t;
      continue;
    }
    if (g < glob.size() && glob[g] == '[') {
      std::size_t close = glob.find(']', g + 1);
      if (close != std::string_view::npos) {
        std::string_view set = glob.substr(g + 1, close - g - 1);
        bool negate = !set.empty() && (set[0] == '^' || set[0] == '!');
        if (negate) set.remove_prefix(1);
        bool in = false;
        for (std::size_t i = 0; i < set.size(); ++i) {
          if (i + 2 < set.size() && set[i + 1] == '-') {
            in |= set[i] <= text[t] && text[t] <= set[i + 2];
            i += 2;
          } else {
            in |= set[i] == text[t];
          }
        }
        if (in != negate) {
          g = close + 1;
          ++t;
          continue;
        }
      }
    } else if (g < glob.size() && (glob[g] == '?' || glob[g] == text[t])) {
      ++g;
      ++t;
      continue;
    }
    if (star == std::string_view::npos) return false;
    g = star;
    t = ++star_text;
  }
  while (g < glob.size() && glob[g] == '*')
    ++g;
  return g == glob.size();
}

bool hosts_match(std::string_view glob, std::string_view host) {
  std::size_t glob_labels = std::count(glob.begin(), glob.end(), '.');
  if (glob_labels != static_cast<std::size_t>(std::count(host.begin(), host.end(), '.'))) {
    return false;
  }
  for (;;) {
    std::size_t gd = glob.find('.');
    std::size_t hd = host.find('.');
    if (!glob_match(glob.substr(0, gd), host.substr(0, hd))) return false;
    if (gd == std::string_view::npos) return true;
    glob.remove_prefix(gd + 1);
    host.remove_prefix(hd + 1);
  }
}

// An IPv6 host is matched without its brackets, which would read as a glob set.
std::string_view unbracketed(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    return host.substr(1, host.size() - 2);
  return host;
}

bool key_matches(const RegistryKey& key, const RegistryKey& image, std::string_view repository) {
  if (key.port != image.port || !hosts_match(unbracketed(key.host), unbracketed(image.host))) {
    return false;
  }
  if (key.path.empty()) return true;
  return repository == key.path ||
         (repository.starts_with(key.path) && repository[key.path.size()] == '/');
}

}  // namespace

PullSecretAuths parse_pull_secret(std::string_view json, const std::string& secret, bool legacy) {
  AuthsJsonFormat format;
  format.kind = ErrorKind::Input;
  format.prefix = "pull secret " + secret + ": ";
  format.legacy = legacy;
  AuthsJson parsed = parse_auths_json(json, format);
  PullSecretAuths out;
  out.secret = secret;
  for (AuthEntry& entry : parsed.auths) {
    if (entry.credential.empty()) continue;
    entry.credential.source = "pull secret " + secret;
    out.entries.push_back(std::move(entry));
  }
  return out;
}

std::vector<Credential> match_pull_secrets(const std::vector<PullSecretAuths>& secrets,
                                           const image::Reference& image) {
  RegistryKey target = parse_registry_key(image.registry());
  struct Match {
    std::string key;  // normalized, the order kubelet sorts by
    const Credential* credential;
  };
  std::vector<Match> matches;
  for (const PullSecretAuths& secret : secrets) {
    for (const AuthEntry& entry : secret.entries) {
      RegistryKey key = parse_registry_key(entry.key);
      if (key_matches(key, target, image.repository())) {
        matches.push_back(Match{key.str(), &entry.credential});
      }
    }
  }
  // kubelet sorts its keys in reverse order, which puts a key before every key
  // that is a prefix of it ("quay.io/org/team", "quay.io/org", "quay.io") and
  // exact host labels before globs ("a.example.com" before "*.example.com").
  std::stable_sort(matches.begin(), matches.end(),
                   [](const Match& a, const Match& b) { return a.key > b.key; });
  std::vector<Credential> out;
  for (const Match& m : matches)
    out.push_back(*m.credential);
  return out;
}

}  // namespace archfit::registry
