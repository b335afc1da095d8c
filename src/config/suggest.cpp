#include <algorithm>

#include <archfit/base/text.hpp>
#include <archfit/config/suggest.hpp>

namespace archfit::config {

std::size_t edit_distance(std::string_view a_in, std::string_view b_in) {
  std::string a = to_lower(a_in);
  std::string b = to_lower(b_in);
  // Three rows suffice: the transposition looks back two rows.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::string closest(std::string_view input, const std::vector<std::string_view>& candidates) {
  std::string best;
  std::size_t best_distance = static_cast<std::size_t>(-1);
  for (std::string_view candidate : candidates) {
    if (candidate == input) continue;
    std::size_t limit = std::max<std::size_t>(1, std::min(input.size(), candidate.size()) / 3);
    std::size_t d = edit_distance(input, candidate);
    // "warning" for "warn": one word starting with the other is a plausible mix-up.
    std::string_view shorter = input.size() < candidate.size() ? input : candidate;
    std::string_view longer = input.size() < candidate.size() ? candidate : input;
    if (shorter.size() >= 3 && starts_with_ci(longer, shorter)) d = std::min(d, limit);
    if (d <= limit && d < best_distance) {
      best = std::string(candidate);
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view input, const std::vector<std::string_view>& candidates) {
  std::string best = closest(input, candidates);
  return best.empty() ? std::string() : " (did you mean " + archfit::quoted(best) + "?)";
}

std::string join(const std::vector<std::string_view>& words, std::string_view separator) {
  std::string out;
  for (std::string_view w : words) {
    if (!out.empty()) out += separator;
    out += w;
  }
  return out;
}

}  // namespace archfit::config
