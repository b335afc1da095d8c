#include "placement/validate.hpp"

#include <algorithm>
#include <charconv>

#include <archfit/nodepools/model/feasibility.hpp>
#include <archfit/nodepools/model/names.hpp>

#include "placement/view.hpp"

namespace archfit::placement::detail {

using yaml::Path;
using yaml::PathStep;
using yaml::Value;

namespace {

constexpr const char* kAffinityRule = "invalid-node-affinity";
constexpr const char* kTolerationRule = "invalid-toleration";

const char* type_name(const Value& v) {
  switch (v.type()) {
    case Value::Type::Null:
      return "null";
    case Value::Type::Bool:
      return "a boolean";
    case Value::Type::Int:
    case Value::Type::Float:
      return "a number";
    case Value::Type::String:
      return "a string";
    case Value::Type::Sequence:
      return "a list";
    case Value::Type::Mapping:
      return "a mapping";
  }
  return "a value";
}

std::string shown(const Value& v) {
  std::string json = yaml::to_json(v);
  return json.size() > 80 ? json.substr(0, 77) + "..." : json;
}

std::string text(const Path& field) {
  return yaml::field_text(field);
}

bool is_integer(const std::string& s) {
  long long n = 0;
  const char* begin = s.data() + (!s.empty() && s[0] == '-' ? 1 : 0);
  auto [end, ec] = std::from_chars(begin, s.data() + s.size(), n);
  return ec == std::errc() && end == s.data() + s.size() && begin != end;
}

using nodepools::Syntax;

// Why `text` is not a label key ("" when it is).
std::string bad_key(const std::string& text) {
  std::string why;
  return nodepools::is_valid(Syntax::QualifiedName, text, &why) ? "" : why;
}
std::string bad_value(const std::string& text) {
  std::string why;
  return nodepools::is_valid(Syntax::LabelValue, text, &why) ? "" : why;
}

class Validator {
 public:
  std::vector<Problem> problems;
  bool comparison_operators = false;

  void add(const char* rule, const Path& field, std::string message) {
    problems.push_back(Problem{rule, field, std::move(message)});
  }

  // A value that must be a mapping or a list (or null, meaning absent).
  bool shape(const Value* v, Value::Type type, const char* rule, const Path& field) {
    if (v == nullptr || v->is_null() || v->type() == type) return v != nullptr && !v->is_null();
    add(rule, field,
        text(field) + " is " + type_name(*v) + " (" + shown(*v) + "), where Kubernetes expects " +
            (type == Value::Type::Mapping ? "a mapping" : "a list"));
    return false;
  }

  void node_selector(const Value* v) {
    const Path field = yaml::key_path({"spec", "nodeSelector"});
    if (!shape(v, Value::Type::Mapping, kAffinityRule, field)) return;
    for (const Value::Entry& e : v->entries()) {
      if (e.second.is_null()) continue;  // the empty value, as Kubernetes decodes it
      if (!e.second.is_string()) {
        add(kAffinityRule, field / e.first,
            "nodeSelector value of " + e.first + " is " + type_name(e.second) + " (" +
                shown(e.second) + "); label values are strings: quote it");
      } else if (std::string why = bad_key(e.first); !why.empty()) {
        add(kAffinityRule, field / e.first,
            "the nodeSelector key \"" + e.first + "\" is not a label key (" + why +
                "), which the API server refuses");
      } else if (std::string bad = bad_value(e.second.as_string()); !bad.empty()) {
        add(kAffinityRule, field / e.first,
            "the nodeSelector value " + shown(e.second) + " of " + e.first +
                " is not a label value (" + bad +
                "), which the API server refuses: no node "
                "carries it");
      }
    }
  }

  void requirement(const Value& r, const Path& field, bool fields) {
    if (!r.is_mapping()) {
      add(kAffinityRule, field,
          text(field) + " is " + type_name(r) + ", not a node selector requirement");
      return;
    }
    const Value* key = r.find("key");
    const Value* op = r.find("operator");
    const Value* values = r.find("values");
    if (key == nullptr || !key->is_string() || key->as_string().empty()) {
      add(kAffinityRule, field / "key", text(field) + " has no key");
      return;
    }
    std::string k = key->as_string();
    std::string o = op != nullptr && op->is_string() ? op->as_string() : std::string();
    static const char* kOperators[] = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
    bool known = std::find(std::begin(kOperators), std::end(kOperators), o) != std::end(kOperators);
    if (!known || (fields && o != "In" && o != "NotIn")) {
      add(kAffinityRule, field / "operator",
          "the requirement on " + k + " has operator " +
              (op == nullptr ? std::string("(none)") : shown(*op)) +
              ", which the API server refuses: use " +
              (fields ? "In or NotIn" : "In, NotIn, Exists, DoesNotExist, Gt or Lt"));
      return;
    }
    std::size_t n = 0;
    if (values != nullptr && !values->is_null()) {
      if (!values->is_sequence()) {
        add(kAffinityRule, field / "values",
            "the values of the requirement on " + k + " are " + type_name(*values) +
                ", not a list");
        return;
      }
      n = values->items().size();
      for (const Value& item : values->items()) {
        if (!item.is_string()) {
          add(kAffinityRule, field / "values",
              "the requirement on " + k + " has the value " + shown(item) + ", which is " +
                  type_name(item) + "; label values are strings: quote it");
          return;
        }
      }
    }
    if (!fields) {
      if (std::string why = bad_key(k); !why.empty()) {
        add(kAffinityRule, field / "key",
            "the requirement's key \"" + k + "\" is not a label key (" + why +
                "): the scheduler cannot read it and matches no node, and the API server "
                "refuses it");
        return;
      }
      if ((o == "In" || o == "NotIn") && n > 0) {
        for (const Value& item : values->items()) {
          if (std::string why = bad_value(item.as_string()); !why.empty()) {
            add(kAffinityRule, field / "values",
                "the requirement " + k + " " + o + " has the value " + shown(item) +
                    ", which is not a label value (" + why +
                    "): the scheduler cannot read it and matches no node, and the API server "
                    "refuses it");
            return;
          }
        }
      }
    }
    if (fields) {
      if (k != "metadata.name") {
        add(kAffinityRule, field / "key",
            "matchFields supports only the key metadata.name, not " + k);
      } else if (n != 1) {
        add(kAffinityRule, field / "values",
            "a matchFields requirement needs exactly one value, this one has " + std::to_string(n));
      }
      return;
    }
    if ((o == "In" || o == "NotIn") && n == 0) {
      add(kAffinityRule, field / "values",
          "the requirement " + k + " " + o + " has no values, which the API server refuses");
    } else if ((o == "Exists" || o == "DoesNotExist") && n > 0) {
      add(kAffinityRule, field / "values",
          "the requirement " + k + " " + o + " has values, which the API server refuses");
    } else if ((o == "Gt" || o == "Lt") &&
               (n != 1 || !is_integer(values->items()[0].as_string()))) {
      add(kAffinityRule, field / "values",
          "the requirement " + k + " " + o + " needs exactly one integer value");
    }
  }

  void requirements(const Value* list, const Path& field, bool fields) {
    if (!shape(list, Value::Type::Sequence, kAffinityRule, field)) return;
    for (std::size_t i = 0; i < list->items().size(); ++i)
      requirement(list->items()[i], field / PathStep::at(i), fields);
  }

  void term(const Value& t, const Path& field, bool preference) {
    if (!t.is_null() && !t.is_mapping()) {
      add(kAffinityRule, field, text(field) + " is " + type_name(t) + ", not a node selector term");
      return;
    }
    const Value* expressions = t.is_mapping() ? t.find("matchExpressions") : nullptr;
    const Value* fields = t.is_mapping() ? t.find("matchFields") : nullptr;
    auto empty = [](const Value* v) {
      return v == nullptr || v->is_null() || (v->is_sequence() && v->items().empty());
    };
    if (!preference && empty(expressions) && empty(fields)) {
      add(kAffinityRule, field,
          "the required term nodeSelectorTerms[" + std::to_string(field.back().index) + "]" +
              " is empty, so it matches no node; give it matchExpressions or take it out");
      return;
    }
    requirements(expressions, field / "matchExpressions", false);
    requirements(fields, field / "matchFields", true);
  }

  void affinity(const Value* v) {
    const Path field = yaml::key_path({"spec", "affinity"});
    if (!shape(v, Value::Type::Mapping, kAffinityRule, field)) return;
    const Value* node = v->find("nodeAffinity");
    if (!shape(node, Value::Type::Mapping, kAffinityRule, field / "nodeAffinity")) return;
    const Path base = field / "nodeAffinity";
    const Value* required = node->find(kRequiredKey);
    if (shape(required, Value::Type::Mapping, kAffinityRule, base / kRequiredKey)) {
      const Value* terms = required->find("nodeSelectorTerms");
      const Path at = base / kRequiredKey / "nodeSelectorTerms";
      if (terms == nullptr || terms->is_null() ||
          (terms->is_sequence() && terms->items().empty())) {
        add(kAffinityRule, at,
            "requiredDuringSchedulingIgnoredDuringExecution has no nodeSelectorTerms, which the "
            "API server refuses; give it a term or take it out");
      } else if (shape(terms, Value::Type::Sequence, kAffinityRule, at)) {
        for (std::size_t i = 0; i < terms->items().size(); ++i)
          term(terms->items()[i], at / PathStep::at(i), false);
      }
    }
    const Value* preferred = node->find(kPreferredKey);
    const Path at = base / kPreferredKey;
    if (!shape(preferred, Value::Type::Sequence, kAffinityRule, at)) return;
    for (std::size_t i = 0; i < preferred->items().size(); ++i) {
      const Value& item = preferred->items()[i];
      const Path here = at / PathStep::at(i);
      const Value* weight = item.is_mapping() ? item.find("weight") : nullptr;
      if (weight == nullptr || weight->type() != Value::Type::Int || weight->as_int() < 1 ||
          weight->as_int() > 100) {
        add(kAffinityRule, here / "weight",
            "a preferred node affinity term needs a weight from 1 to 100, this one has " +
                (weight == nullptr ? std::string("none") : shown(*weight)));
        continue;
      }
      const Value* preference = item.find("preference");
      if (preference != nullptr) term(*preference, here / "preference", true);
    }
  }

  void tolerations(const Value* v) {
    const Path field = yaml::key_path({"spec", "tolerations"});
    if (!shape(v, Value::Type::Sequence, kTolerationRule, field)) return;
    for (std::size_t i = 0; i < v->items().size(); ++i) {
      const Value& t = v->items()[i];
      const Path here = field / PathStep::at(i);
      if (!t.is_mapping()) {
        add(kTolerationRule, here, text(here) + " is " + type_name(t) + ", not a toleration");
        continue;
      }
      for (const char* name : {"key", "operator", "value", "effect"}) {
        const Value* part = t.find(name);
        if (part != nullptr && !part->is_null() && !part->is_string()) {
          add(kTolerationRule, here / name,
              "the toleration's " + std::string(name) + " is " + type_name(*part) + " (" +
                  shown(*part) + "); it must be a string: quote it");
        }
      }
      if (problems.size() > 0 && problems.back().field.size() > here.size() &&
          std::equal(here.begin(), here.end(), problems.back().field.begin())) {
        continue;
      }
      auto text = [&t](const char* name) {
        const Value* part = t.find(name);
        return part != nullptr && part->is_string() ? part->as_string() : std::string();
      };
      std::string op = text("operator");
      std::string effect = text("effect");
      const bool comparison = op == "Gt" || op == "Lt";
      if (comparison && !comparison_operators) {
        add(kTolerationRule, here / "operator",
            "the toleration's operator is " + op +
                ", which the API server refuses unless the cluster enables the feature gate "
                "TaintTolerationComparisonOperators (say so with featureGates in "
                ".archfit.yaml); use Equal or Exists");
      } else if (comparison && !nodepools::canonical_integer(text("value"))) {
        add(kTolerationRule, here / "value",
            "a toleration with operator " + op + " compares integers, and \"" + text("value") +
                "\" is not one (no sign but -, no leading zero)");
      } else if (!op.empty() && op != "Equal" && op != "Exists" && !comparison) {
        add(kTolerationRule, here / "operator",
            "the toleration's operator is \"" + op + "\"; use Equal or Exists" +
                (comparison_operators ? ", or Gt or Lt" : ""));
      } else if (std::string why = text("key").empty() ? "" : bad_key(text("key")); !why.empty()) {
        add(kTolerationRule, here / "key",
            "the toleration's key \"" + text("key") + "\" is not a label key (" + why + ")");
      } else if (op == "Exists" && !text("value").empty()) {
        add(kTolerationRule, here / "value",
            "a toleration with operator Exists must not have a value");
      } else if (text("key").empty() && op != "Exists") {
        add(kTolerationRule, here / "operator",
            "a toleration without a key must have operator Exists");
      } else if (!effect.empty() && effect != "NoSchedule" && effect != "PreferNoSchedule" &&
                 effect != "NoExecute") {
        add(kTolerationRule, here / "effect",
            "the toleration's effect is \"" + effect +
                "\"; use NoSchedule, PreferNoSchedule or NoExecute");
      } else if (const Value* seconds = t.find("tolerationSeconds");
                 seconds != nullptr && !seconds->is_null() &&
                 (seconds->type() != Value::Type::Int ||
                  (effect != "NoExecute" && !effect.empty()))) {
        add(kTolerationRule, here / "tolerationSeconds",
            seconds->type() != Value::Type::Int
                ? "tolerationSeconds must be an integer"
                : "tolerationSeconds is allowed only with the effect NoExecute");
      }
    }
  }
};

}  // namespace

std::vector<Problem> validate_view(const Value& view, bool comparison_operators) {
  Validator v;
  v.comparison_operators = comparison_operators;
  if (const Value* metadata = view.find("metadata"); metadata != nullptr && !metadata->is_null()) {
    if (!metadata->is_mapping()) {
      v.add("uneditable-yaml", yaml::key_path({"metadata"}),
            "the pod template's metadata is " + std::string(type_name(*metadata)) +
                ", not a mapping, so archfit cannot record what it writes there");
    } else if (const Value* annotations = metadata->find("annotations");
               annotations != nullptr && !annotations->is_null() && !annotations->is_mapping()) {
      v.add("uneditable-yaml", yaml::key_path({"metadata", "annotations"}),
            "the pod template's annotations are " + std::string(type_name(*annotations)) + " (" +
                shown(*annotations) + "), not a mapping, so archfit cannot record what it writes");
    }
  }
  const Value& spec = *view.find("spec");
  v.node_selector(spec.find("nodeSelector"));
  v.affinity(spec.find("affinity"));
  v.tolerations(spec.find("tolerations"));
  return std::move(v.problems);
}

}  // namespace archfit::placement::detail
