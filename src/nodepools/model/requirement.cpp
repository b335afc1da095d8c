#include <charconv>
#include <iterator>
#include <limits>

#include <archfit/nodepools/model/requirement.hpp>

namespace archfit::nodepools {

namespace {

constexpr std::string_view kOperators[] = {"In", "NotIn", "Exists", "DoesNotExist",
                                           "Gt", "Lt",    "Gte",    "Lte"};

std::optional<std::int64_t> integer(std::string_view text) {
  std::int64_t out = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return out;
}

std::string list(const std::set<std::string>& values) {
  std::string out = "[";
  for (const std::string& v : values) {
    if (out.size() > 1) out += ' ';
    out += v;
  }
  return out + "]";
}

}  // namespace

std::string_view operator_name(Operator op) {
  return kOperators[static_cast<int>(op)];
}

std::optional<Operator> try_parse_operator(std::string_view name, std::string* why) {
  for (std::size_t i = 0; i < std::size(kOperators); ++i) {
    if (kOperators[i] == name) return static_cast<Operator>(i);
  }
  if (why != nullptr) {
    *why = "\"" + std::string(name) +
           "\" is not an operator; use In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte or Lte";
  }
  return std::nullopt;
}

std::string describe(const Requirement& r) {
  std::string out = r.key + " " + std::string(operator_name(r.op));
  if (r.op == Operator::Exists || r.op == Operator::DoesNotExist) return out;
  return out + " " + list(std::set<std::string>(r.values.begin(), r.values.end()));
}

Domain Domain::any() {
  return Domain();
}

Domain Domain::present() {
  Domain d;
  d.absent_ = false;
  return d;
}

Domain Domain::absent() {
  Domain d;
  d.present_ = false;
  return d;
}

Domain Domain::one_of(std::set<std::string> values) {
  Domain d;
  d.absent_ = false;
  d.in_ = std::move(values);
  return d;
}

Domain domain_of(const Requirement& r) {
  Domain d = Domain::any();
  d.narrow(r);
  return d;
}

void Domain::narrow(const Requirement& r) {
  switch (r.op) {
    case Operator::In: {
      std::set<std::string> values(r.values.begin(), r.values.end());
      if (in_) std::erase_if(values, [this](const std::string& v) { return !in_->contains(v); });
      in_ = std::move(values);
      absent_ = false;
      break;
    }
    case Operator::NotIn:
      not_in_.insert(r.values.begin(), r.values.end());
      break;
    case Operator::Exists:
      absent_ = false;
      break;
    case Operator::DoesNotExist:
      present_ = false;
      break;
    case Operator::Gt:
    case Operator::Lt:
    case Operator::Gte:
    case Operator::Lte: {
      absent_ = false;
      std::optional<std::int64_t> n = r.values.size() == 1 ? integer(r.values[0]) : std::nullopt;
      if (!n) {
        present_ = false;  // a bound that is not one integer matches no node
        break;
      }
      // Kept as exclusive bounds: Gte n is Gt n-1, Lte n is Lt n+1.
      constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
      constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
      if (r.op == Operator::Gte && *n == kMin) break;  // every integer
      if (r.op == Operator::Lte && *n == kMax) break;
      if (r.op == Operator::Gt || r.op == Operator::Gte) {
        std::int64_t bound = r.op == Operator::Gt ? *n : *n - 1;
        gt_ = gt_ ? std::max(*gt_, bound) : bound;
      } else {
        std::int64_t bound = r.op == Operator::Lt ? *n : *n + 1;
        lt_ = lt_ ? std::min(*lt_, bound) : bound;
      }
      break;
    }
  }
}

void Domain::narrow(const Domain& other) {
  if (other.in_) {
    if (in_) {
      std::erase_if(*in_, [&other](const std::string& v) { return !other.in_->contains(v); });
    } else {
      in_ = other.in_;
    }
  }
  not_in_.insert(other.not_in_.begin(), other.not_in_.end());
  if (other.gt_) gt_ = gt_ ? std::max(*gt_, *other.gt_) : *other.gt_;
  if (other.lt_) lt_ = lt_ ? std::min(*lt_, *other.lt_) : *other.lt_;
  present_ = present_ && other.present_;
  absent_ = absent_ && other.absent_;
}

bool Domain::allows(std::string_view value) const {
  if (!present_) return false;
  std::string v(value);
  if (in_ && !in_->contains(v)) return false;
  if (not_in_.contains(v)) return false;
  if (gt_ || lt_) {
    std::optional<std::int64_t> n = integer(value);
    if (!n || (gt_ && *n <= *gt_) || (lt_ && *n >= *lt_)) return false;
  }
  return true;
}

bool Domain::some_value_possible() const {
  if (!present_) return false;
  if (in_) {
    for (const std::string& v : *in_) {
      if (allows(v)) return true;
    }
    return false;
  }
  if (!gt_ || !lt_) return true;
  if (*lt_ <= *gt_) return false;
  // Integers strictly between the bounds, less those NotIn names.
  std::uint64_t count = static_cast<std::uint64_t>(*lt_) - static_cast<std::uint64_t>(*gt_) - 1;
  for (const std::string& v : not_in_) {
    std::optional<std::int64_t> n = integer(v);
    if (n && *n > *gt_ && *n < *lt_) --count;
  }
  return count > 0;
}

bool Domain::empty() const {
  return !absent_ && !some_value_possible();
}

bool Domain::compatible(const Domain& other) const {
  Domain both = *this;
  both.narrow(other);
  return !both.empty();
}

std::optional<std::set<std::string>> Domain::values() const {
  if (!in_) return std::nullopt;
  std::set<std::string> out;
  for (const std::string& v : *in_) {
    if (allows(v)) out.insert(v);
  }
  return out;
}

bool Domain::restricted() const {
  return in_ || !not_in_.empty() || gt_ || lt_ || !present_ || !absent_;
}

std::string Domain::describe(std::string_view key) const {
  std::string k(key);
  if (!present_) return k + " DoesNotExist";
  std::string out;
  auto add = [&out](const std::string& part) { out += out.empty() ? part : ", " + part; };
  if (in_) add(k + " In " + list(*values()));
  if (!in_ && !not_in_.empty()) add(k + " NotIn " + list(not_in_));
  if (gt_) add(k + " Gt " + std::to_string(*gt_));
  if (lt_) add(k + " Lt " + std::to_string(*lt_));
  if (out.empty()) out = k + (absent_ ? " (any value or none)" : " Exists");
  return out;
}

}  // namespace archfit::nodepools
