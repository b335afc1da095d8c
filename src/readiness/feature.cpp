#include <algorithm>
#include <map>

#include <archfit/readiness/feature.hpp>
#include <archfit/run/image_answer.hpp>

namespace archfit::readiness {

namespace {

// spec.replicas as Kubernetes reads it (1 when absent); 1 for the kinds that
// have none (a Pod, a Job, a DaemonSet's pods are counted as one each).
std::uint64_t replicas_of(const manifest::Workload& w) {
  yaml::NodeRef replicas = yaml::lookup_path(w.object, {"spec", "replicas"});
  if (!replicas) return 1;
  yaml::Resolved r = replicas.resolve();
  if (!replicas.is_scalar() || r.type != yaml::ScalarType::Int || r.integer < 0) return 1;
  return static_cast<std::uint64_t>(r.integer);
}

class Pass : public run::DocumentPass {
 public:
  Pass(const run::DocumentView& doc, const run::Setting& setting, Tally& tally)
      : file_(doc.file), setting_(setting), tally_(tally) {}

  // A pass belongs to one document, which one thread analyses: the facts of
  // its workloads are gathered here and handed to the tally at the end.
  void check(const run::PlannedTemplate& t, std::vector<findings::Finding>&) const override {
    const manifest::Workload& w = *t.where.workload;
    auto [it, added] = facts_.try_emplace(&w);
    WorkloadFacts one = of_template(t);
    if (added) {
      one.workload = report::ReadinessWorkload{
          file_, findings::ResourceRef{w.api_version, w.kind, w.name, w.namespace_name},
          replicas_of(w)};
      it->second = std::move(one);
      order_.push_back(&w);
    } else {
      it->second.merge(one);
    }
  }

  void analyze(const run::DocumentView&, std::vector<findings::Finding>&) const override {
    for (const manifest::Workload* w : order_)
      tally_.add(facts_.at(w));
  }

 private:
  WorkloadFacts of_template(const run::PlannedTemplate& t) const {
    const placement::Config& config = *setting_.config;
    const placement::TemplatePlan& plan = t.plan;
    WorkloadFacts facts;
    std::vector<const image::PlatformSet*> images;
    std::vector<std::string> names;
    for (const manifest::Container& c : t.where.pod_template->containers) {
      if (!c.reference) {
        facts.known = false;
        continue;
      }
      const resolve::Resolution* r = setting_.resolver->find(*c.reference);
      placement::ImageAnswer answer;
      if (r != nullptr) answer = run::answer_of(*c.reference, *r, config);
      if (!answer.known()) {
        // An image placement leaves out on purpose (a local image that is
        // never pulled) does not count when the plan found where the rest run.
        if (plan.platforms.empty()) facts.known = false;
        continue;
      }
      images.push_back(answer.platforms);
      names.push_back(c.reference->canonical());
    }
    for (const image::Platform& p : config.cluster_platforms) {
      WorkloadFacts::On on;
      on.platform = p.str();
      for (std::size_t i = 0; i < images.size(); ++i) {
        if (!images[i]->runs_on(p)) on.missing.push_back(names[i]);
      }
      std::sort(on.missing.begin(), on.missing.end());
      on.missing.erase(std::unique(on.missing.begin(), on.missing.end()), on.missing.end());
      if (on.missing.empty()) {
        // Its images run here: its own constraints decide. A plan that did
        // not read them (a placement it cannot read) leaves it not counted.
        if (!plan.allowed) facts.known = false;
        on.allowed = plan.allowed && plan.allowed->contains(p);
      }
      facts.on.push_back(std::move(on));
    }
    return facts;
  }

  const std::string& file_;
  const run::Setting& setting_;
  Tally& tally_;
  mutable std::map<const manifest::Workload*, WorkloadFacts> facts_;
  mutable std::vector<const manifest::Workload*> order_;
};

}  // namespace

void Readiness::gather(const run::Facts& facts) {
  settings_ = &facts.settings;
  std::vector<std::string> platforms;
  for (const run::Setting& s : facts.settings) {
    for (const image::Platform& p : s.config->cluster_platforms)
      platforms.push_back(p.str());
  }
  tally_ = std::make_unique<Tally>(std::move(platforms));
}

std::unique_ptr<run::DocumentPass> Readiness::pass(const run::DocumentView& doc) const {
  if (settings_ == nullptr) return nullptr;
  return std::make_unique<Pass>(doc, (*settings_)[doc.setting], *tally_);
}

report::Readiness Readiness::result() const {
  return tally_->result();
}

}  // namespace archfit::readiness
