// Where a surface writes what it makes (the manifests, a report, a diff): the
// process's standard output on the command line, memory or a spool in tests
// and where one surface calls another (argocd generate holds what
// post-render printed until it knows it may print it). What a surface says to
// a person goes to a std::ostream of its own (stderr).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <archfit/base/file.hpp>
#include <archfit/base/spool.hpp>

namespace archfit::app {

class Output {
 public:
  virtual ~Output() = default;
  // The pieces, in order, after everything written before. Throws
  // Error(Input) when they cannot be written.
  virtual void write(const std::vector<std::string_view>& parts) = 0;
  virtual void write(const Content& content) = 0;
  void write(std::string_view text) { write(std::vector<std::string_view>{text}); }
};

// The process's standard output (base/file.hpp's write_stdout).
Output& standard_output();

// Everything written, in a string (tests, small outputs).
class StringOutput final : public Output {
 public:
  void write(const std::vector<std::string_view>& parts) override;
  void write(const Content& content) override;
  using Output::write;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// Everything written, in a spool: memory up to a limit, then a temporary
// file, so that holding a large output back costs disk.
class SpoolOutput final : public Output {
 public:
  void write(const std::vector<std::string_view>& parts) override;
  void write(const Content& content) override;
  using Output::write;
  // What was written, a piece at a time.
  Content content() { return spool_.content(); }

 private:
  Spool spool_;
};

}  // namespace archfit::app
