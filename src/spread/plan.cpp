#include <algorithm>
#include <cctype>
#include <set>

#include <archfit/nodepools/model/names.hpp>
#include <archfit/spread/model/allocation.hpp>
#include <archfit/spread/model/distributor.hpp>
#include <archfit/spread/model/profile.hpp>

#include "spread/detail.hpp"

namespace archfit::spread::detail {

namespace {

using yaml::NodeRef;

// The node label of a pool named by a profile's group.
std::optional<std::pair<std::string, std::string>> pool_label(const std::string& name,
                                                              const SpreadWorld& world) {
  if (const nodepools::Pool* found = world.first_named(name)) {
    const nodepools::Pool& p = *found;
    switch (p.source) {
      case nodepools::PoolSource::NodePool:
        return std::pair<std::string, std::string>{"karpenter.sh/nodepool", name};
      case nodepools::PoolSource::Provisioner:
        return std::pair<std::string, std::string>{"karpenter.sh/provisioner-name", name};
      case nodepools::PoolSource::NodeGroup:
        return std::pair<std::string, std::string>{
            !p.path.empty() && p.path.front().key == "managedNodeGroups"
                ? "eks.amazonaws.com/nodegroup"
                : "alpha.eksctl.io/nodegroup-name",
            name};
      case nodepools::PoolSource::Declared:
        if (p.labels.empty()) return std::nullopt;
        return p.labels.front();
    }
  }
  return std::nullopt;
}

Spec spec_of_profile(const spread::SpreadProfile& profile, const SpreadWorld& world) {
  Spec s;
  s.origin = "spread profile \"" + profile.name + "\"";
  s.profile = &profile;
  if (profile.realisation == spread::Realisation::TopologySpread) return s;
  for (const spread::ProfileGroup& g : profile.groups) {
    if (g.pool.empty()) {
      s.groups.push_back(spread::StrategyGroup{g.label_key, g.label_value, g.share});
      continue;
    }
    std::optional<std::pair<std::string, std::string>> label = pool_label(g.pool, world);
    if (!label) {
      s.invalid =
          "the profile names pool \"" + g.pool +
          "\", which is not among the pools archfit knows (or a declared pool without labels)";
      return s;
    }
    s.groups.push_back(spread::StrategyGroup{label->first, label->second, g.share});
  }
  return s;
}

std::optional<Spec> spec_of(const manifest::Workload& w, const SpreadWorld& world) {
  NodeRef annotation =
      yaml::lookup_path(w.object, {"metadata", "annotations", spread::kStrategyAnnotation});
  if (annotation.is_scalar()) {
    Spec s;
    s.origin = std::string("its annotation ") + spread::kStrategyAnnotation;
    s.webhook = true;
    std::string why;
    std::optional<std::vector<spread::StrategyGroup>> groups =
        spread::try_parse_strategy(annotation.scalar(), &why);
    if (groups) {
      s.groups = std::move(*groups);
    } else {
      s.invalid = why;
    }
    return s;
  }
  NodeRef named =
      yaml::lookup_path(w.object, {"metadata", "annotations", spread::kProfileAnnotation});
  if (named.is_scalar()) {
    if (const spread::SpreadProfile* p = world.profile_named(named.scalar()))
      return spec_of_profile(*p, world);
    // The names it has, a few of them.
    constexpr std::size_t kNamed = 10;
    std::string known;
    const std::vector<spread::SpreadProfile>& profiles = world.profiles();
    for (std::size_t i = 0; i < profiles.size() && i < kNamed; ++i)
      known += (known.empty() ? "" : ", ") + profiles[i].name;
    if (profiles.size() > kNamed)
      known += " and " + std::to_string(profiles.size() - kNamed) + " more";
    return Spec{{},
                std::string("its annotation ") + spread::kProfileAnnotation,
                "it names the profile \"" + std::string(named.scalar()) +
                    "\", which spread.profiles does not have" +
                    (known.empty() ? std::string(" (it has none)") : " (it has " + known + ")")};
  }
  const SpreadStream& stream = world.stream();
  if (auto it = stream.distributors_of.find(w.namespace_name + "/" + w.name);
      it != stream.distributors_of.end()) {
    for (std::size_t i : it->second) {
      const spread::Distributor& d = stream.distributors[i];
      if (!d.target_kind.empty() && d.target_kind != w.kind) continue;
      return Spec{d.groups, d.title(), "", nullptr, true};
    }
  }
  if (const spread::SpreadProfile* p = world.profile_for(w.labels, w.namespace_name))
    return spec_of_profile(*p, world);
  return std::nullopt;
}

std::string derived_name(const std::string& name, const std::string& value) {
  std::string out = name + "-";
  for (char c : value) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += (std::isalnum(static_cast<unsigned char>(l)) != 0) ? l : '-';
  }
  while (out.back() == '-')
    out.pop_back();
  return out;
}

std::string join_archs(const std::set<std::string>& archs) {
  std::string out;
  for (const std::string& a : archs)
    out += (out.empty() ? "" : ", ") + a;
  return out;
}

// Karpenter's ratio technique for a topology spread profile: the pools of
// its groups and their label values (prepared once per run, in the world),
// and the pods' own labels.
void plan_topology(const manifest::Workload& w, const spread::SpreadProfile& profile,
                   const SpreadWorld& world, bool whole, Plan& plan) {
  auto refuse = [&plan](std::string why) { plan.refused = std::move(why); };
  if (w.kind == "DaemonSet" || w.kind == "Job" || w.kind == "CronJob" || w.kind == "Pod") {
    return refuse("a " + w.kind +
                  (w.kind == "DaemonSet" ? " runs a pod on every node it selects"
                                         : " is not a set of replicas to spread"));
  }
  const SpreadWorld::Topology& prepared =
      world.topologies.at(static_cast<std::size_t>(&profile - world.profiles().data()));
  if (!prepared.refused.empty()) return refuse(prepared.refused);
  spread::TopologySpread t = whole ? prepared.spread : spread::TopologySpread();
  NodeRef labels = yaml::lookup_path(w.object, {"spec", "selector", "matchLabels"});
  if (!labels.is_mapping() && !w.templates.empty())
    labels = yaml::lookup_path(w.templates[0].node, {"metadata", "labels"});
  if (!labels.is_mapping() || labels.size() == 0)
    return refuse(
        "neither spec.selector.matchLabels nor the pod template's labels select its pods");
  for (std::size_t i = 0; i < labels.size(); ++i) {
    NodeRef key = labels.key(i).resolved();
    NodeRef value = labels.value(i).resolved();
    if (!key.is_scalar() || !value.is_scalar())
      return refuse("the labels that select its pods are not plain key: value pairs");
    if (whole) t.match_labels.emplace_back(std::string(key.scalar()), std::string(value.scalar()));
  }
  if (whole) plan.topology = std::move(t);
}

}  // namespace

SpreadWorld::Topology prepare_topology(const spread::SpreadProfile& profile,
                                       const SpreadWorld& world) {
  SpreadWorld::Topology out;
  if (profile.realisation != spread::Realisation::TopologySpread) return out;
  std::optional<std::vector<std::vector<std::string>>> values = profile.values(&out.refused);
  if (!values) return out;
  spread::TopologySpread& t = out.spread;
  t.origin = "spread profile \"" + profile.name + "\"";
  t.key = profile.topology_key();
  for (std::size_t i = 0; i < profile.groups.size(); ++i) {
    const spread::ProfileGroup& g = profile.groups[i];
    const nodepools::Pool* pool = world.last_karpenter_named(g.pool);
    if (pool == nullptr) {
      out.refused = "the profile names pool \"" + g.pool +
                    "\", which is not a Karpenter NodePool or Provisioner of the input; a "
                    "topology spread needs pools whose nodes Karpenter labels";
      return out;
    }
    t.has_bases = t.has_bases || g.share.base > 0;
    t.groups.push_back(spread::TopologySpread::Group{g.pool, (*values)[i], pool->archs()});
  }
  return out;
}

Plan plan_of(const manifest::Workload& w, const SpreadWorld& world, const ArchLookup& archs,
             bool topology) {
  Plan plan;
  plan.spec = spec_of(w, world);
  if (!plan.spec) return plan;
  const Spec& spec = *plan.spec;
  auto refuse = [&plan](std::string why) {
    plan.refused = std::move(why);
    plan.pieces.clear();
    return plan;
  };
  if (!spec.invalid.empty()) return refuse(spec.invalid);
  if (spec.profile != nullptr && spec.profile->realisation == spread::Realisation::TopologySpread) {
    plan_topology(w, *spec.profile, world, topology, plan);
    return plan;
  }
  if (w.kind != "Deployment") {
    return refuse("only Deployments are split; a " + w.kind +
                  " keeps its pods' identity or runs to completion, so archfit leaves it to the "
                  "scheduler");
  }
  if (!w.path.empty()) return refuse("it is an item of a List; split it as a document of its own");
  if (world.stream().autoscaled.contains(w.namespace_name + "/" + w.name)) {
    return refuse(
        "an autoscaler (HorizontalPodAutoscaler or ScaledObject) scales it, and would "
        "scale each piece on its own; use a topology spread instead");
  }
  // The record keeps the name and replicas as written, and the last piece
  // gives them back byte for byte: one plain line each.
  NodeRef name = yaml::lookup_path(w.object, {"metadata", "name"});
  if (!name.is_scalar() || name.style() != yaml::Style::Plain || name.text() != name.scalar())
    return refuse("metadata.name is not written as a plain scalar on one line");
  if (std::string why; !nodepools::is_valid(nodepools::Syntax::DnsSubdomain, w.name, &why))
    return refuse("metadata.name " + w.name + " " + why);
  NodeRef replicas = yaml::lookup_path(w.object, {"spec", "replicas"});
  plan.replicas = 1;
  if (replicas) {
    yaml::Resolved r = replicas.resolve();
    if (!replicas.is_scalar() || replicas.style() != yaml::Style::Plain ||
        replicas.text() != replicas.scalar() || r.type != yaml::ScalarType::Int || r.integer < 0 ||
        r.integer > spread::kMaxReplicas) {
      return refuse("spec.replicas is not a plain integer from 0 to " +
                    std::to_string(spread::kMaxReplicas));
    }
    plan.replicas = static_cast<std::uint32_t>(r.integer);
  }
  if (!yaml::lookup_path(w.object, {"spec", "selector", "matchLabels"}).is_mapping())
    return refuse("spec.selector has no matchLabels for the piece's own label");
  const manifest::PodTemplate& t = w.templates.at(0);
  NodeRef labels = yaml::lookup_path(t.node, {"metadata", "labels"});
  if (!labels.is_mapping()) return refuse("the pod template has no labels");
  // A mapping the split adds to is given back by --remove as it was; one it
  // would have to create in place of another value (a null, a scalar) could
  // not be.
  NodeRef node_selector = yaml::lookup_path(t.spec, {"nodeSelector"});
  if (node_selector && !node_selector.is_mapping())
    return refuse("the pod template's nodeSelector is there but not a mapping");
  NodeRef annotations = yaml::lookup_path(w.object, {"metadata", "annotations"});
  if (annotations && !annotations.is_mapping())
    return refuse("metadata.annotations is there but not a mapping");
  // Groups whose nodes cannot run the images are left out.
  std::optional<std::set<std::string>> image_archs = archs ? archs(t) : std::nullopt;
  std::vector<const spread::StrategyGroup*> kept;
  for (const spread::StrategyGroup& g : spec.groups) {
    // What the pieces would carry must be what the API server takes.
    std::string why;
    if (!nodepools::is_valid(nodepools::Syntax::QualifiedName, g.label_key, &why))
      return refuse("group " + g.label_key + "=" + g.label_value + ": the label key " + why);
    if (!nodepools::is_valid(nodepools::Syntax::LabelValue, g.label_value, &why) ||
        g.label_value.empty())
      return refuse("group " + g.label_key + "=" + g.label_value + ": the label value " +
                    (g.label_value.empty() ? std::string("must not be empty") : why));
    if (node_selector.is_mapping() && yaml::lookup_path(node_selector, {g.label_key})) {
      return refuse("the pod template already selects " + g.label_key +
                    " in its nodeSelector; the pieces would each need their own value");
    }
    std::set<std::string> group_archs;
    bool known = false;
    if (g.label_key == nodepools::kArchLabel) {
      group_archs.insert(g.label_value);
      known = true;
    }
    std::optional<SpreadWorld::Group> pools = world.group(g.label_key, g.label_value);
    if (!pools) {
      return refuse("finding the pools of group " + g.label_key + "=" + g.label_value +
                    " would take more than the steps a run of this size may take "
                    "(docs/node-pools.md, \"Many pools\")");
    }
    group_archs.insert(pools->archs.begin(), pools->archs.end());
    known = known || pools->known;
    bool runs = !known || !image_archs ||
                std::any_of(image_archs->begin(), image_archs->end(),
                            [&](const std::string& a) { return group_archs.contains(a); });
    if (!runs) {
      plan.excluded.push_back("group " + g.label_key + "=" + g.label_value +
                              " is left out: its nodes run " + join_archs(group_archs) +
                              ", the images run on " + join_archs(*image_archs));
      continue;
    }
    kept.push_back(&g);
  }
  if (kept.empty()) return refuse("no group's nodes run the images");
  std::vector<spread::Share> shares;
  for (const spread::StrategyGroup* g : kept)
    shares.push_back(g->share);
  std::string why;
  std::optional<std::vector<std::uint32_t>> counts =
      spread::try_allocate(plan.replicas, shares, &why);
  if (!counts) return refuse(why);
  std::set<std::string> names;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    Piece p{derived_name(w.name, kept[i]->label_value), *kept[i], (*counts)[i]};
    if (!names.insert(p.name).second) return refuse("two pieces would both be named " + p.name);
    if (!nodepools::is_valid(nodepools::Syntax::DnsSubdomain, p.name, &why))
      return refuse("the piece's name " + p.name + " " + why);
    plan.pieces.push_back(std::move(p));
  }
  return plan;
}

}  // namespace archfit::spread::detail
