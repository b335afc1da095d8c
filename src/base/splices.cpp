#include <algorithm>
#include <cstring>
#include <utility>

#include <archfit/base/error.hpp>
#include <archfit/base/splices.hpp>

namespace archfit {

namespace {

// The first block holds a document's few replacements; blocks double up to
// a huge page. From kLargeBuffer on they are huge pages (allocate_buffer),
// which the kernel gives whole: a few faults instead of one for every 4 KiB,
// for a file where much changes, and at most about as much again as its
// texts hold for one where less does (many files, each with its own blocks).
constexpr std::size_t kFirstBlock = 1024;
constexpr std::size_t kLargestBlock = std::size_t{2} << 20;
// A text this large (a whole document) is kept in its own string: copied, it
// would be held twice for a moment. Its characters stay where they are when
// the string moves.
constexpr std::size_t kKeptWhole = std::size_t{64} << 10;

}  // namespace

Splices::Texts::Texts(Texts&& other) noexcept
    : blocks_(std::move(other.blocks_)),
      whole_(std::move(other.whole_)),
      at_(std::exchange(other.at_, nullptr)),
      left_(std::exchange(other.left_, 0)) {
  other.clear();
}

Splices::Texts& Splices::Texts::operator=(Texts&& other) noexcept {
  if (this != &other) {
    blocks_ = std::move(other.blocks_);
    whole_ = std::move(other.whole_);
    at_ = std::exchange(other.at_, nullptr);
    left_ = std::exchange(other.left_, 0);
    other.clear();
  }
  return *this;
}

std::string_view Splices::Texts::add(std::string_view text) {
  if (text.empty()) return {};
  if (text.size() > left_) {
    std::size_t size = kFirstBlock;
    if (!blocks_.empty()) size = std::min(blocks_.back().get_deleter().bytes * 2, kLargestBlock);
    size = std::max(size, text.size());
    blocks_.emplace_back(static_cast<char*>(allocate_buffer(size)), Free{size});
    at_ = blocks_.back().get();
    left_ = size;
  }
  std::memcpy(at_, text.data(), text.size());
  std::string_view kept(at_, text.size());
  at_ += text.size();
  left_ -= text.size();
  return kept;
}

std::string_view Splices::Texts::adopt(std::string&& text) {
  if (text.size() < kKeptWhole) return add(text);
  return whole_.emplace_back(std::move(text));
}

std::size_t Splices::Texts::held_bytes() const {
  std::size_t bytes = 0;
  for (const auto& block : blocks_)
    bytes += block.get_deleter().bytes;
  for (const std::string& text : whole_)
    bytes += text.capacity();
  return bytes;
}

void Splices::Texts::clear() {
  blocks_.clear();
  whole_.clear();
  at_ = nullptr;
  left_ = 0;
}

Splices::Splices(const Splices& other) {
  for (const Replacement& r : other.replacements_)
    replace(r.begin, r.end - r.begin, r.text);
}

Splices& Splices::operator=(const Splices& other) {
  if (this != &other) {
    Splices copy(other);
    *this = std::move(copy);
  }
  return *this;
}

void Splices::make_room(std::size_t more) {
  const std::size_t want = replacements_.size() + more;
  // Doubling: from kLargeBuffer on in huge pages (LargeBufferAllocator).
  if (want > replacements_.capacity()) {
    replacements_.reserve(std::max(want, replacements_.capacity() * 2));
  }
}

void Splices::check_after_the_last(std::size_t begin) const {
  if (!replacements_.empty() && begin < replacements_.back().end) {
    fail(ErrorKind::Internal,
         "overlapping or unordered replacement at byte " + std::to_string(begin));
  }
}

void Splices::replace(std::size_t begin, std::size_t length, std::string_view text) {
  check_after_the_last(begin);
  make_room(1);
  replacements_.push_back(Replacement{begin, begin + length, texts_.add(text)});
}

void Splices::keep(std::size_t begin, std::size_t length, std::string&& text) {
  check_after_the_last(begin);
  make_room(1);
  replacements_.push_back(Replacement{begin, begin + length, texts_.adopt(std::move(text))});
}

void Splices::take(Splices&& other, std::size_t offset) {
  if (!other.replacements_.empty())
    check_after_the_last(offset + other.replacements_.front().begin);
  make_room(other.replacements_.size());
  for (const Replacement& r : other.replacements_)
    replacements_.push_back(Replacement{offset + r.begin, offset + r.end, texts_.add(r.text)});
  other.replacements_.clear();
  other.texts_.clear();
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
