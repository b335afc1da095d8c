// Values read with their YAML types, as a law over generated documents: a
// Deployment in which some fields archfit reads hold a null, a number, a
// boolean or a quoted number is refused (an error finding on it, the
// document left as it is) exactly when Kubernetes' decoder refuses it, and
// placed as usual otherwise. The model of the decoder (REFERENCE: sigs.k8s.io
// json with apimachinery validation): a null is the field's empty value,
// which a required string may not be; a number or a boolean where a string
// is expected, and a string where a number is, is a decode error.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/engine.hpp"

namespace archfit::run {
namespace {

using archfit::testing::Engine;

// What a field may hold instead of its good value.
enum class Twist { Good, Null, Number, Boolean, QuotedNumber };

// A field archfit reads, where it is in the document, and how the decoder
// takes each twist.
struct Field {
  const char* name;
  std::string good;  // the value as written when it is not twisted
  bool required;     // a null is refused
  bool numeric;      // an integer field: a number is good, a quoted one is not
  bool enumerated;   // one of a few words: no quoted number is twisted in
};

const std::vector<Field>& fields() {
  static const std::vector<Field> all = {
      {"metadata.name", "web", false, false, false},
      {"metadata.namespace", "shop", false, false, false},
      {"metadata.labels.team", "web", false, false, false},
      {"spec.replicas", "3", false, true, false},
      {"template.labels.app", "web", false, false, false},
      {"container.name", "app", true, false, false},
      {"container.image", "amd64only:1", true, false, true},
      {"container.imagePullPolicy", "IfNotPresent", false, false, true},
      {"nodeSelector.disk", "ssd", false, false, false},
      {"toleration.value", "x", false, false, false},
      {"toleration.effect", "NoSchedule", false, false, true},
  };
  return all;
}

std::string written(const Field& f, Twist t) {
  switch (t) {
    case Twist::Good:
      return f.good;
    case Twist::Null:
      return "~";
    case Twist::Number:
      return "123";
    case Twist::Boolean:
      return "true";
    case Twist::QuotedNumber:
      return "\"7\"";
  }
  return f.good;
}

// Whether the decoder (and validation, for a null that is required) refuses it.
bool refused(const Field& f, Twist t) {
  switch (t) {
    case Twist::Good:
      return false;
    case Twist::Null:
      return f.required;
    case Twist::Number:
    case Twist::Boolean:
      return !f.numeric || t == Twist::Boolean;
    case Twist::QuotedNumber:
      return f.numeric;
  }
  return false;
}

std::string deployment(const std::vector<Twist>& twists) {
  auto v = [&](std::size_t i) { return written(fields()[i], twists[i]); };
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + v(0) +
         "\n  namespace: " + v(1) + "\n  labels:\n    team: " + v(2) +
         "\nspec:\n  replicas: " + v(3) +
         "\n  template:\n    metadata:\n      labels:\n"
         "        app: " +
         v(4) + "\n    spec:\n      containers:\n      - name: " + v(5) +
         "\n        image: " + v(6) + "\n        imagePullPolicy: " + v(7) +
         "\n      nodeSelector:\n        disk: " + v(8) +
         "\n      tolerations:\n      - key: dedicated\n        operator: Equal\n        value: " +
         v(9) + "\n        effect: " + v(10) + "\n";
}

bool is_refusal(const findings::Finding& f) {
  return f.rule == "invalid-document" || f.rule == "invalid-node-affinity" ||
         f.rule == "invalid-toleration";
}

TEST(YamlTypes, RefusedExactlyWhereKubernetesRefuses) {
  std::mt19937 rng(20261202);
  Engine engine;
  for (int round = 0; round < 400; ++round) {
    std::vector<Twist> twists(fields().size(), Twist::Good);
    bool expect_refused = false;
    std::string what;
    // One or two fields twisted at a time.
    for (int k = 1 + static_cast<int>(rng() % 2); k > 0; --k) {
      std::size_t i = rng() % fields().size();
      twists[i] = static_cast<Twist>(1 + rng() % (fields()[i].enumerated ? 3 : 4));
      what += std::string(fields()[i].name) + "=" + written(fields()[i], twists[i]) + " ";
    }
    for (std::size_t i = 0; i < fields().size(); ++i)
      expect_refused |= refused(fields()[i], twists[i]);
    const std::string doc = deployment(twists);
    RunResult fixed = engine.run({Input::in_memory("d.yaml", doc)}, Task::Fix);
    bool was_refused = false;
    for (const findings::Finding& f : engine.findings)
      was_refused |= is_refusal(f);
    EXPECT_EQ(was_refused, expect_refused) << what << "\n" << doc;
    if (expect_refused) {
      EXPECT_EQ(fixed.files.at(0).output(), doc) << what;  // left as it is
    } else {
      // Placed as usual: the amd64-only image gets its affinity.
      EXPECT_NE(fixed.files.at(0).output().find("kubernetes.io/arch"), std::string::npos)
          << what << "\n"
          << doc;
    }
  }
}

}  // namespace
}  // namespace archfit::run
