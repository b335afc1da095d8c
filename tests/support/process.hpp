// Runs a program the way a user would, for end-to-end tests of the command line.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <archfit/base/file.hpp>

namespace archfit {
// Tests read the files they made whole: the library's caps are tested where
// they apply, not at every fixture.
inline std::string read_file(const std::filesystem::path& path) {
  return read_file(path, ReadLimit{kMaxManifestBytes, "a test file"});
}
}  // namespace archfit

namespace archfit::testing {

struct ProcessResult {
  int exit_code = -1;  // 128 + signal number when killed by a signal
  std::string out;
  std::string err;
};

struct ProcessOptions {
  std::string stdin_data;
  std::filesystem::path cwd;     // empty: inherit
  std::vector<std::string> env;  // extra NAME=value entries
  // Standard input from this file (e.g. /dev/zero) instead of stdin_data.
  std::filesystem::path stdin_file;
};

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// run_process with the archfit binary under test as argv[0].
ProcessResult run_archfit(const std::vector<std::string>& args, const ProcessOptions& options = {});

// A fresh empty directory under the system temp dir, removed when destroyed.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  // Writes a file (creating parent directories) and returns its path.
  std::filesystem::path write(const std::string& name, const std::string& content) const;

 private:
  std::filesystem::path path_;
};

// How many entries a directory has (a temporary file left behind shows).
inline std::size_t entries_in(const std::filesystem::path& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir),
                                                std::filesystem::directory_iterator()));
}

// True when `part` occurs in `text` (for output checks).
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace archfit::testing
