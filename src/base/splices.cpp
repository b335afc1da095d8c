#include <archfit/base/error.hpp>
#include <archfit/base/splices.hpp>

namespace archfit {

void Splices::replace(std::size_t begin, std::size_t length, std::string text) {
  if (!replacements_.empty() && begin < replacements_.back().end) {
    fail(ErrorKind::Internal,
         "overlapping or unordered replacement at byte " + std::to_string(begin));
  }
  replacements_.push_back(Replacement{begin, begin + length, std::move(text)});
}

std::vector<std::string_view> Splices::parts(std::string_view original) const {
  std::vector<std::string_view> out;
  out.reserve(2 * replacements_.size() + 1);
  std::size_t pos = 0;
  for (const Replacement& r : replacements_) {
    if (r.end > original.size()) {
      fail(ErrorKind::Internal,
           "replacement past the end of the text at byte " + std::to_string(r.begin));
    }
    if (r.begin > pos) out.push_back(original.substr(pos, r.begin - pos));
    if (!r.text.empty()) out.emplace_back(r.text);
    pos = r.end;
  }
  if (pos < original.size()) out.push_back(original.substr(pos));
  return out;
}

std::string Splices::apply(std::string_view original) const {
  std::vector<std::string_view> pieces = parts(original);
  std::size_t size = 0;
  for (std::string_view p : pieces)
    size += p.size();
  std::string out;
  out.reserve(size);
  for (std::string_view p : pieces)
    out += p;
  return out;
}

}  // namespace archfit
