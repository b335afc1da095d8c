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

void Splices::take(Splices&& other, std::size_t offset) {
  if (!replacements_.empty() && !other.replacements_.empty() &&
      offset + other.replacements_.front().begin < replacements_.back().end) {
    fail(ErrorKind::Internal, "overlapping or unordered replacement at byte " +
                                  std::to_string(offset + other.replacements_.front().begin));
  }
  for (Replacement& r : other.replacements_)
    replacements_.push_back(Replacement{offset + r.begin, offset + r.end, std::move(r.text)});
  other.replacements_.clear();
}

bool Splices::gives(std::string_view original, std::string_view text) const {
  std::size_t at = 0;  // of `text`, matched up to here
  for (std::string_view part : parts(original)) {
    if (text.size() - at < part.size() || text.substr(at, part.size()) != part) return false;
    at += part.size();
  }
  return at == text.size();
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
