// A text with some of its ranges replaced, kept as pieces: a large file in
// which many documents change is never copied whole, and its new content is
// written piece by piece. The original text is passed in whenever the result
// is wanted, so the owner of that text may move.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/base/large_buffer.hpp>

namespace archfit {

class Splices {
 public:
  Splices() = default;
  Splices(const Splices& other);
  Splices& operator=(const Splices& other);
  Splices(Splices&& other) noexcept = default;
  Splices& operator=(Splices&& other) noexcept = default;
  ~Splices() = default;

  // Replaces [begin, begin + length) of the original with a copy of `text`.
  // Ranges are given in order and do not overlap; a violation throws
  // Error(Internal).
  void replace(std::size_t begin, std::size_t length, std::string_view text);
  // The same, keeping a large `text` (a whole document) as it is rather than
  // copying it.
  void keep(std::size_t begin, std::size_t length, std::string&& text);

  // Takes in every replacement of `other`, each `offset` bytes further on:
  // the edits of a part of the original that starts there. They must come
  // after those already here, as for replace(). `other` is left empty.
  void take(Splices&& other, std::size_t offset);

  bool empty() const { return replacements_.empty(); }
  // Bytes of the blocks that hold the replacements' texts.
  std::size_t held_bytes() const { return texts_.held_bytes(); }

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
    std::string_view text;  // held by the Splices
  };
  using List = std::vector<Replacement, LargeBufferAllocator<Replacement>>;
  // The replacements, in order.
  const List& replacements() const { return replacements_; }

 private:
  // Where the replacements' texts are kept: copied one after the other into
  // blocks that double in size up to a huge page, so that a file-wide set of
  // many small texts is a few large buffers written once, and a text never
  // moves while the Splices lives (moving the Splices moves the blocks).
  class Texts {
   public:
    Texts() = default;
    Texts(Texts&& other) noexcept;
    Texts& operator=(Texts&& other) noexcept;
    Texts(const Texts&) = delete;
    Texts& operator=(const Texts&) = delete;
    ~Texts() = default;

    std::string_view add(std::string_view text);
    // A text from kKeptWhole bytes on is kept as it is; smaller ones are
    // added.
    std::string_view adopt(std::string&& text);
    void clear();
    std::size_t held_bytes() const;

   private:
    struct Free {
      std::size_t bytes;
      void operator()(char* p) const noexcept { free_buffer(p, bytes); }
    };
    std::vector<std::unique_ptr<char[], Free>> blocks_;
    std::vector<std::string> whole_;  // adopted: too large to be worth a copy
    char* at_ = nullptr;
    std::size_t left_ = 0;
  };

  // Room for `more` replacements after those here.
  void make_room(std::size_t more);
  // Throws Error(Internal) when a replacement from `begin` would not come
  // after the last one here.
  void check_after_the_last(std::size_t begin) const;

  List replacements_;
  Texts texts_;
};

}  // namespace archfit
