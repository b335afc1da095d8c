// What spreads see of the input and of a configuration, read once and
// indexed: no lookup of a Deployment's distributor, profile or pool is a
// scan of them all (docs/performance.md, "How it scales").
#include <algorithm>
#include <unordered_set>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/spread/spread.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

#include "spread/detail.hpp"

namespace archfit::spread {

namespace {

using yaml::NodeRef;

// Calls read(tree, file) for each document of the files that `wanted` says
// may hold something; documents that cannot be read are left to the run,
// which reports them where it analyses them.
template <class Wanted, class Read>
void scan(const std::vector<FileResult>& files, Wanted wanted, Read read) {
  for (const FileResult& file : files) {
    if (!wanted(std::string_view(file.original))) continue;
    yaml::StreamSplitter split(file.original);
    while (std::optional<yaml::DocumentText> doc = split.next()) {
      if (!doc->has_content || !wanted(doc->text)) continue;
      try {
        yaml::Tree tree = yaml::parse_document(doc->text, doc->first_line);
        read(tree.root(), file);
      } catch (const Error& e) {
        if (!e.in_input()) throw e.where().file.empty() ? e.in_file(file.input.name) : e;
      }
    }
  }
}

bool may_hold_scalers(std::string_view text) {
  return contains(text, "HorizontalPodAutoscaler") || contains(text, "ScaledObject");
}

std::string label_key(std::string_view key, std::string_view value) {
  std::string out(key);
  out.push_back('\0');
  out.append(value);
  return out;
}

// The steps finding a group's pools takes: a question to each pool.
std::uint64_t group_steps(const SpreadWorld& world) {
  return 1 + world.stream().pools->size() + world.declared().size();
}

}  // namespace

std::shared_ptr<SpreadStream> spread_stream(const std::vector<FileResult>& files,
                                            const std::vector<nodepools::Pool>& pools) {
  auto out = std::make_shared<SpreadStream>();
  out->pools = &pools;
  out->pool_keys.reserve(pools.size());
  for (std::uint32_t i = 0; i < pools.size(); ++i) {
    out->pool_keys.emplace_back(pools[i]);
    out->pools_named[pools[i].name].push_back(i);
  }
  // A PodDistributor that cannot be read spreads nothing (the scan leaves it
  // to the run).
  scan(files, spread::may_hold_distributors, [&out](NodeRef root, const FileResult& file) {
    if (std::optional<spread::Distributor> dist = spread::read_distributor(root)) {
      dist->file = file.input.name;
      out->distributors_of[dist->namespace_name + "/" + dist->target_name].push_back(
          out->distributors.size());
      out->distributors.push_back(std::move(*dist));
    }
  });
  for (const FileResult& f : files) {
    std::string_view text = f.original;
    out->marked = out->marked || contains(text, spread::kStrategyAnnotation) ||
                  contains(text, kSplitAnnotation) || contains(text, spread::kProfileAnnotation);
    out->deployments = out->deployments || contains(text, "Deployment");
    if (out->marked && out->deployments) break;
  }
  return out;
}

void read_autoscalers(const std::vector<FileResult>& files, SpreadStream& stream) {
  scan(files, may_hold_scalers, [&stream](NodeRef root, const FileResult&) {
    std::string kind = yaml::scalar_text(yaml::lookup_path(root, {"kind"}));
    if (kind != "HorizontalPodAutoscaler" && kind != "ScaledObject") return;
    NodeRef target = yaml::lookup_path(root, {"spec", "scaleTargetRef"});
    std::string target_kind = yaml::scalar_text(yaml::lookup_path(target, {"kind"}));
    if (target_kind.empty() || target_kind == "Deployment") {
      stream.autoscaled.insert(
          yaml::scalar_text(yaml::lookup_path(root, {"metadata", "namespace"})) + "/" +
          yaml::scalar_text(yaml::lookup_path(target, {"name"})));
    }
  });
}

SpreadWorld::SpreadWorld(std::shared_ptr<const SpreadStream> stream,
                         std::vector<nodepools::Pool> declared,
                         std::vector<spread::SpreadProfile> profiles, WorkBudget* budget)
    : stream_(std::move(stream)),
      declared_(std::move(declared)),
      profiles_(std::move(profiles)),
      budget_(budget) {
  declared_keys_.reserve(declared_.size());
  for (const nodepools::Pool& p : declared_)
    declared_keys_.emplace_back(p);
  // How often each matchLabels pair is asked for: a profile is filed under
  // its rarest, so that few profiles share a Deployment's labels' lists.
  std::unordered_map<std::string, std::size_t, KeyedHash, std::equal_to<>> asked;
  for (std::size_t i = 0; i < profiles_.size(); ++i) {
    const spread::SpreadProfile& p = profiles_[i];
    profile_names_.try_emplace(p.name, i);
    if (!p.assigns) continue;
    for (const auto& [k, v] : p.match_labels)
      ++asked[label_key(k, v)];
  }
  for (std::size_t i = 0; i < profiles_.size(); ++i) {
    const spread::SpreadProfile& p = profiles_[i];
    if (!p.assigns) continue;
    if (!p.match_labels.empty()) {
      std::string rarest;
      std::size_t count = 0;
      for (const auto& [k, v] : p.match_labels) {
        std::string key = label_key(k, v);
        std::size_t n = asked[key];
        if (rarest.empty() || n < count) {
          rarest = std::move(key);
          count = n;
        }
      }
      by_label_[rarest].push_back(i);
    } else if (!p.namespaces.empty()) {
      // It selects every Deployment of these namespaces: the first such is enough.
      for (const std::string& ns : p.namespaces)
        by_namespace_.try_emplace(ns, std::vector<std::size_t>{i});
    } else if (select_all_.empty()) {
      select_all_.push_back(i);  // it selects every Deployment: the first is enough
    }
  }
  for (const spread::SpreadProfile& p : profiles_)
    topologies.push_back(detail::prepare_topology(p, *this));
  some_file_may_spread =
      stream_->marked ||
      (stream_->deployments &&
       (!stream_->distributors.empty() ||
        std::any_of(profiles_.begin(), profiles_.end(), [](const spread::SpreadProfile& p) {
          return p.assigns && p.realisation == spread::Realisation::Split;
        })));
}

const nodepools::Pool* SpreadWorld::first_named(std::string_view name) const {
  auto it = stream_->pools_named.find(name);
  if (it != stream_->pools_named.end()) return &(*stream_->pools)[it->second.front()];
  for (const nodepools::Pool& p : declared_) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

const nodepools::Pool* SpreadWorld::last_karpenter_named(std::string_view name) const {
  // Declared pools are never Karpenter's: the stream's last.
  auto it = stream_->pools_named.find(name);
  if (it == stream_->pools_named.end()) return nullptr;
  for (auto i = it->second.rbegin(); i != it->second.rend(); ++i) {
    if ((*stream_->pools)[*i].karpenter()) return &(*stream_->pools)[*i];
  }
  return nullptr;
}

const spread::SpreadProfile* SpreadWorld::profile_named(std::string_view name) const {
  auto it = profile_names_.find(name);
  return it == profile_names_.end() ? nullptr : &profiles_[it->second];
}

const spread::SpreadProfile* SpreadWorld::profile_for(
    const std::vector<std::pair<std::string, std::string>>& labels,
    const std::string& namespace_name) const {
  // The candidates: the profiles filed under one of the labels or the
  // namespace, and those that select anything; the first that selects wins.
  std::vector<std::size_t> candidates = select_all_;
  for (const auto& [k, v] : labels) {
    auto it = by_label_.find(label_key(k, v));
    if (it != by_label_.end())
      candidates.insert(candidates.end(), it->second.begin(), it->second.end());
  }
  if (auto it = by_namespace_.find(namespace_name); it != by_namespace_.end())
    candidates.insert(candidates.end(), it->second.begin(), it->second.end());
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  for (std::size_t i : candidates) {
    if (profiles_[i].selects(labels, namespace_name)) return &profiles_[i];
  }
  return nullptr;
}

std::optional<SpreadWorld::Group> SpreadWorld::group(const std::string& key,
                                                     const std::string& value) const {
  std::string id = label_key(key, value);
  {
    std::lock_guard lock(mutex_);
    auto it = groups_.find(id);
    if (it != groups_.end()) return it->second;
  }
  if (budget_ != nullptr && !budget_->spend(group_steps(*this))) return std::nullopt;
  Group out;
  std::unordered_set<std::string, KeyedHash> seen;  // taints, once each
  auto add = [&](const nodepools::PoolKeys& keys) {
    if (!keys.domain(key).allows(value)) return;
    out.known = true;
    std::set<std::string> a = keys.archs();
    out.archs.insert(a.begin(), a.end());
    for (const nodepools::Taint& t : keys.pool().taints) {
      if (t.effect == "PreferNoSchedule") continue;
      if (seen.insert(t.key + '\0' + t.value + '\0' + t.effect).second) out.taints.push_back(t);
    }
  };
  for (const nodepools::PoolKeys& k : stream_->pool_keys)
    add(k);
  for (const nodepools::PoolKeys& k : declared_keys_)
    add(k);
  std::lock_guard lock(mutex_);
  return groups_.try_emplace(std::move(id), std::move(out)).first->second;
}

std::unique_ptr<SpreadWorld> spread_world(std::shared_ptr<const SpreadStream> stream,
                                          std::vector<nodepools::Pool> declared,
                                          std::vector<spread::SpreadProfile> profiles,
                                          WorkBudget* budget) {
  return std::make_unique<SpreadWorld>(std::move(stream), std::move(declared), std::move(profiles),
                                       budget);
}

}  // namespace archfit::spread
