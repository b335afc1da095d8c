// The one error type of archfit. Every function that can fail throws
// archfit::Error; the command line catches it, prints what() and maps kind()
// to an exit code. Messages quote the offending input and say what to do.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace archfit {

enum class ErrorKind {
  Usage,       // bad flags or arguments (exit 2)
  Config,      // invalid configuration or lock file (exit 2)
  Input,       // unreadable or invalid manifests (exit 2)
  Resolution,  // an image could not be resolved (exit 3 when onUnresolved is fail)
  Internal,    // a bug: an invariant did not hold (exit 2)
};

// Where in an input something is. line and column are 1-based; 0 means unknown.
struct Location {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  // "file:line:col", "file:line", "file" or "" depending on what is known.
  std::string str() const;
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message, Location where = {});

  ErrorKind kind() const { return kind_; }
  const Location& where() const { return where_; }
  // The message without the location prefix.
  const std::string& message() const { return message_; }

  // A copy with the file name filled in (locations from parsers know line and
  // column but not which file they came from).
  Error in_file(const std::string& file) const;

 private:
  ErrorKind kind_;
  std::string message_;
  Location where_;
};

[[noreturn]] void fail(ErrorKind kind, std::string message, Location where = {});

}  // namespace archfit
