// Output held back until a run has finished: a report is printed only when
// every input could be read, and a large one costs disk rather than memory.
// What is written stays in memory up to a limit and then goes to an unnamed
// temporary file (in $TMPDIR, else /tmp); where no temporary file can be
// made, it stays in memory.
#pragma once

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include <archfit/base/file.hpp>

namespace archfit {

class Spool {
 public:
  static constexpr std::size_t kMemoryLimit = std::size_t{4} << 20;

  explicit Spool(std::size_t memory_limit = kMemoryLimit);
  ~Spool();
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  std::ostream& out();

  // Everything written so far, in pieces of at most 64 KiB. Throws
  // Error(Input) when the temporary file could not be written or read.
  Content content();

  // Everything written so far as one view: of memory, or of the temporary
  // file mapped read-only, whose pages are read from disk as they are used
  // and can be dropped again. Valid while the Spool lives and nothing more
  // is written. Throws Error(Input) as content() does.
  std::string_view view();

  // Whether the output left memory for a temporary file (for tests).
  bool spilled() const;

 private:
  class Buffer;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> out_;
};

}  // namespace archfit
