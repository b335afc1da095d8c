// Running another program: posix_spawn with the descriptors given, the
// program's arguments as operands (never through a shell), in a process group
// of its own with signals at their defaults, and killed with that group when
// its owner gives up on it.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <sys/wait.h>
#include <vector>

#include <archfit/base/error.hpp>

namespace archfit {

// The program's path: as given when it names a path, else the first
// executable file of that name in the PATH directories (`path` when given,
// else $PATH; an empty entry is the working directory, as in a shell).
// Throws Error(kind): "<program> not found on PATH" or "is not an executable
// file".
std::string find_program(const std::string& program, const std::optional<std::string>& path,
                         ErrorKind kind);

class ChildProcess {
 public:
  // Starts the executable at `path` with `argv` (argv[0] first) and
  // `environment` ("NAME=VALUE" each; this process's when null); `in`, `out`
  // and `err` become its descriptors 0, 1 and 2. Throws Error(kind) "cannot
  // run <path>: <reason>".
  static ChildProcess spawn(const std::string& path, const std::vector<std::string>& argv, int in,
                            int out, int err, ErrorKind kind,
                            const std::vector<std::string>* environment = nullptr);

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&&) = delete;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // A child still running is killed with its process group, so that what it
  // started (a shell script's children) does not linger.
  ~ChildProcess();

  // Reaps the child if it has exited; with flags 0, waits for it.
  bool wait(int flags);
  bool exited() { return wait(WNOHANG); }
  // The exit status; 128 + N when signal N ended it; 127 when it could not
  // be reaped.
  int exit_code() const { return exit_code_; }

 private:
  explicit ChildProcess(pid_t pid) : pid_(pid) {}
  pid_t pid_ = -1;
  bool reaped_ = false;
  int exit_code_ = 0;
};

}  // namespace archfit
