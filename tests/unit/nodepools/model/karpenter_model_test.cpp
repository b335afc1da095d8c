// Law: archfit's answer to "can this NodePool host the pod" equals a small,
// obviously correct reference over generated requirement sets, the full
// operator matrix (In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte) on the
// pool's side by the pod's side, over keys of each kind (docs/node-pools.md):
// the reference tries every node a pool can launch, one label at a time.
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include <archfit/nodepools/model/feasibility.hpp>
#include <archfit/nodepools/model/labels.hpp>
#include <archfit/nodepools/model/pool.hpp>

namespace archfit::nodepools {
namespace {

const std::vector<std::string> kKeys = {
    "kubernetes.io/arch",                   // always there
    "karpenter.k8s.aws/instance-gpu-name",  // optional
    "kubernetes.io/hostname",               // restricted
    "team",                                 // undefined
};
const std::vector<std::string> kValues = {"1", "2", "3", "a", "b"};
// Every value a node may have in the reference, and no label at all.
const std::vector<std::optional<std::string>> kNodeValues = {std::nullopt, "1",  "2", "3", "a",
                                                             "b",          "zz", "7", "0", "-5"};

bool integer(const std::string& v) {
  return !v.empty() && (std::isdigit(static_cast<unsigned char>(v[0])) || v[0] == '-');
}

bool holds(const Requirement& r, const std::optional<std::string>& v) {
  auto has = [&](const std::string& x) {
    return std::find(r.values.begin(), r.values.end(), x) != r.values.end();
  };
  switch (r.op) {
    case Operator::In:
      return v && has(*v);
    case Operator::NotIn:
      return !v || !has(*v);
    case Operator::Exists:
      return v.has_value();
    case Operator::DoesNotExist:
      return !v;
    case Operator::Gt:
      return v && integer(*v) && std::stoi(*v) > std::stoi(r.values[0]);
    case Operator::Lt:
      return v && integer(*v) && std::stoi(*v) < std::stoi(r.values[0]);
    case Operator::Gte:
      return v && integer(*v) && std::stoi(*v) >= std::stoi(r.values[0]);
    case Operator::Lte:
      return v && integer(*v) && std::stoi(*v) <= std::stoi(r.values[0]);
  }
  return false;
}

// The reference: can a node of the pool have, for `key`, a value (or no
// label) that every pod requirement on the key accepts?
bool reference_key_fits(const Pool& pool, const std::string& key,
                        const std::vector<Requirement>& pod) {
  LabelKind kind = karpenter_label_kind(key, false);
  bool defined = false;
  for (const Requirement& r : pool.requirements)
    defined = defined || r.key == key;
  for (const std::optional<std::string>& v : kNodeValues) {
    bool pool_ok = true;
    if (defined) {
      for (const Requirement& r : pool.requirements) {
        if (r.key == key) pool_ok = pool_ok && holds(r, v);
      }
      if (kind == LabelKind::Always && !v) pool_ok = false;
    } else if (kind == LabelKind::Always) {
      pool_ok = v.has_value();
    } else if (kind == LabelKind::Restricted || kind == LabelKind::Undefined) {
      pool_ok = !v;
    }
    if (!pool_ok) continue;
    bool pod_ok = true;
    for (const Requirement& r : pod) {
      if (r.key == key) pod_ok = pod_ok && holds(r, v);
    }
    if (pod_ok) return true;
  }
  return false;
}

bool reference_fits(const Pool& pool, const std::vector<Requirement>& pod) {
  for (const Requirement& r : pod) {
    // In and NotIn with no value: the API server refuses the pod.
    if ((r.op == Operator::In || r.op == Operator::NotIn) && r.values.empty()) return false;
    if (!reference_key_fits(pool, r.key, pod)) return false;
  }
  return true;
}

Requirement random_requirement(std::mt19937& rng) {
  Requirement r;
  r.key = kKeys[rng() % kKeys.size()];
  r.op = static_cast<Operator>(rng() % 8);
  switch (r.op) {
    case Operator::In:
    case Operator::NotIn:
      for (const std::string& v : kValues)
        if (rng() % 2 == 0) r.values.push_back(v);
      break;
    case Operator::Gt:
    case Operator::Lt:
    case Operator::Gte:
    case Operator::Lte:
      r.values.push_back(std::to_string(rng() % 4));
      break;
    case Operator::Exists:
    case Operator::DoesNotExist:
      break;
  }
  return r;
}

TEST(KarpenterModel, FeasibilityEqualsTheReferenceOverTheOperatorMatrix) {
  std::mt19937 rng(26);
  int fits = 0;
  const int rounds = 20000;
  for (int round = 0; round < rounds; ++round) {
    Pool pool;
    pool.name = "p";
    pool.source = PoolSource::NodePool;
    pool.api_version = "karpenter.sh/v1";
    for (std::size_t i = rng() % 3; i > 0; --i)
      pool.requirements.push_back(random_requirement(rng));
    std::vector<Requirement> term;
    for (std::size_t i = 1 + rng() % 3; i > 0; --i)
      term.push_back(random_requirement(rng));
    PodNeeds pod;
    pod.terms.push_back(Term{term, {}, {}, {}});
    bool want = reference_fits(pool, term);
    std::optional<std::string> why = why_not(pod, pool);
    fits += want ? 1 : 0;
    std::string text;
    for (const Requirement& r : pool.requirements)
      text += " pool: " + describe(r);
    for (const Requirement& r : term)
      text += " pod: " + describe(r);
    ASSERT_EQ(!why.has_value(), want) << text << "\narchfit: " << why.value_or("fits");
  }
  // Both answers occur often enough for the law to mean something.
  EXPECT_GT(fits, rounds / 10);
  EXPECT_LT(fits, rounds * 9 / 10);
}

}  // namespace
}  // namespace archfit::nodepools
