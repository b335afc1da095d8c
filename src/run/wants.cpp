#include <algorithm>
#include <set>

#include <archfit/base/error.hpp>
#include <archfit/run/wants.hpp>

namespace archfit::run {

std::chrono::seconds tag_ttl(const resolve::Settings& settings, std::string_view pull_policy) {
  auto it = settings.tag_ttl.find(std::string(pull_policy));
  if (it == settings.tag_ttl.end()) it = settings.tag_ttl.find("default");
  return it == settings.tag_ttl.end() ? std::chrono::seconds(0) : it->second;
}

void WantCollector::add_secrets(const yaml::Tree& tree, const std::string& file) {
  add_secrets(manifest::find_pull_secrets(tree), file);
}

void WantCollector::add_secrets(const std::vector<manifest::PullSecret>& found,
                                const std::string& file) {
  for (const manifest::PullSecret& s : found) {
    std::string key = s.namespace_name + "/" + s.name;
    try {
      secrets_.insert_or_assign(key, registry::parse_pull_secret(s.config_json, key, s.legacy));
    } catch (const Error& e) {
      warnings_.push_back(file + ":" + std::to_string(s.line) + ":" + std::to_string(s.column) +
                          ": warning: " + e.message() + "; archfit does not use this secret");
    }
  }
}

void WantCollector::add_template(const manifest::PodTemplate& t) {
  for (const manifest::Container& c : t.containers) {
    if (c.image_ref.empty() || c.pull_policy == "Never") continue;
    if (c.reference) add_use(t, *c.reference, c.pull_policy);
  }
}

WantCollector::Use WantCollector::use_of(const manifest::PodTemplate& t,
                                         const image::Reference& ref,
                                         std::string_view pull_policy) const {
  return Use{ref, tag_ttl(settings_, pull_policy), t.namespace_name, t.image_pull_secrets};
}

void WantCollector::add_use(const manifest::PodTemplate& t, const image::Reference& ref,
                            std::string_view pull_policy) {
  add_use(use_of(t, ref, pull_policy));
}

void WantCollector::add_use(Use use) {
  auto [it, inserted] = by_ref_.try_emplace(use.ref.canonical(), images_.size());
  if (inserted) {
    images_.push_back(Image{std::move(use.ref), use.ttl, {}});
  } else {
    images_[it->second].ttl = std::min(images_[it->second].ttl, use.ttl);
  }
  // Most templates list no pull secrets; their namespace does not matter.
  if (!use.secrets.empty()) {
    images_[it->second].users.emplace(std::move(use.namespace_name), std::move(use.secrets));
  }
}

std::vector<resolve::Want> WantCollector::wants() const {
  std::vector<resolve::Want> out;
  out.reserve(images_.size());
  for (const Image& image : images_) {
    resolve::Want& want = out.emplace_back(resolve::Want{image.ref, image.ttl, {}});
    std::set<std::string> credential_keys;
    for (const auto& [namespace_name, names] : image.users) {
      std::vector<registry::PullSecretAuths> listed;
      for (const std::string& name : names) {
        auto secret = secrets_.find(namespace_name + "/" + name);
        if (secret != secrets_.end()) listed.push_back(secret->second);
      }
      for (registry::Credential& c : registry::match_pull_secrets(listed, image.ref)) {
        // The same secret used by several templates counts once.
        if (credential_keys.insert(c.source + "\n" + c.username).second) {
          want.credentials.push_back(std::move(c));
        }
      }
    }
  }
  return out;
}

void WantCollector::clear() {
  std::vector<Image>().swap(images_);
  std::unordered_map<std::string, std::size_t>().swap(by_ref_);
}

}  // namespace archfit::run
