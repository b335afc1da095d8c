// Node selector requirements (key, operator, values) as Kubernetes and
// Karpenter read them, and the set of values a label key may take on the nodes
// of a pool or on the nodes a pod accepts (a Domain). Two domains are
// compatible when some node could satisfy both: a value both allow, or both
// allowing the label to be absent.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace archfit::nodepools {

// Gte and Lte are Karpenter's (NodePool requirements); pods have the first six.
enum class Operator { In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte };

std::string_view operator_name(Operator op);
// nullopt, with `why` naming the operators, for any other word.
std::optional<Operator> try_parse_operator(std::string_view name, std::string* why = nullptr);

struct Requirement {
  std::string key;
  Operator op = Operator::In;
  std::vector<std::string> values;

  friend bool operator==(const Requirement&, const Requirement&) = default;
};

// "kubernetes.io/arch In [amd64 arm64]", as Karpenter prints requirements.
std::string describe(const Requirement& r);

class Domain {
 public:
  // Every value, and no label at all.
  static Domain any();
  // Some value (the label is there), any of them.
  static Domain present();
  // No label.
  static Domain absent();
  // Exactly these values.
  static Domain one_of(std::set<std::string> values);

  // Narrows the domain to what the requirement also allows.
  void narrow(const Requirement& r);
  void narrow(const Domain& other);

  bool allows(std::string_view value) const;
  bool allows_absent() const { return absent_; }
  bool empty() const;
  bool compatible(const Domain& other) const;

  // The values allowed when they are a finite list (In), after NotIn.
  std::optional<std::set<std::string>> values() const;
  bool restricted() const;  // something narrows it below any()

  // "key In [a b]", "key Exists", "key DoesNotExist", "key NotIn [c]" ...
  std::string describe(std::string_view key) const;

 private:
  std::optional<std::set<std::string>> in_;  // nullopt: any value
  std::set<std::string> not_in_;
  std::optional<std::int64_t> gt_;
  std::optional<std::int64_t> lt_;
  bool present_ = true;  // the label may be there (with an allowed value)
  bool absent_ = true;   // the label may be missing
  bool some_value_possible() const;
};

// The requirement's domain alone.
Domain domain_of(const Requirement& r);

}  // namespace archfit::nodepools
