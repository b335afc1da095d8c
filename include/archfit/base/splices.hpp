// A text with some of its ranges replaced, kept as pieces: a large file in
// which many documents change is never copied whole, and its new content is
// written piece by piece. The original text is passed in whenever the result
// is wanted, so the owner of that text may move.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace archfit {

class Splices {
 public:
  // Replaces [begin, begin + length) of the original. Ranges are given in
  // order and do not overlap; a violation throws Error(Internal).
  void replace(std::size_t begin, std::size_t length, std::string text);

  // Moves every replacement of `other` in, each `offset` bytes further on:
  // the edits of a part of the original that starts there. They must come
  // after those already here, as for replace().
  void take(Splices&& other, std::size_t offset);

  bool empty() const { return replacements_.empty(); }

  // Whether the new text is exactly `text`, compared piece by piece (nothing
  // is built).
  bool gives(std::string_view original, std::string_view text) const;

  // The new text as consecutive pieces of `original` and of the replacements.
  std::vector<std::string_view> parts(std::string_view original) const;
  // The new text in one string.
  std::string apply(std::string_view original) const;

  struct Replacement {
    std::size_t begin;
    std::size_t end;
    std::string text;
  };
  // The replacements, in order.
  const std::vector<Replacement>& replacements() const { return replacements_; }

 private:
  std::vector<Replacement> replacements_;
};

}  // namespace archfit
