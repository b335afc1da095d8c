// The one error type of archfit, and how archfit code reports failure.
//
// 1. A function that cannot do its job throws archfit::Error: a kind (which
//    the command line maps to an exit code), a message that quotes the input
//    and says what to do, and where (file:line:col) when the input has
//    places. Use fail(kind, message, where). Nothing else is thrown across a
//    module's boundary: a std::exception that reaches main is reported as an
//    internal error, a bug (tests/layering_test.py refuses `throw std::` in
//    src/, std::bad_alloc aside).
// 2. Where failing is an expected answer that the caller weighs (validating
//    many candidates, a value that may be anything, a best-effort cache
//    write), the function is named try_<verb> (is_<adjective> for a check)
//    and returns std::optional<T>, or bool when there is no value, with the
//    message Error would carry in an optional `std::string* why`.
// 3. A finding about the user's manifests is neither: it is data
//    (findings::Finding) and never an exception.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace archfit {

enum class ErrorKind {
  Usage,       // bad flags or arguments (exit 2)
  Config,      // invalid configuration or lock file (exit 2)
  Input,       // invalid input; in a manifest, confined to its document (exit 2)
  Syntax,      // text that cannot be read as YAML at all: stops its file (exit 2)
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
  // A fault of the input (Input or Syntax), which a run isolates to its
  // document or file, rather than a failure of the run.
  bool in_input() const { return kind_ == ErrorKind::Input || kind_ == ErrorKind::Syntax; }
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
