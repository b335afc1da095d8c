// Running another program (base/process.hpp).
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

#include <archfit/base/process.hpp>
#include <archfit/base/text.hpp>

extern char** environ;

namespace archfit {

namespace {

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string find_program(const std::string& program, const std::optional<std::string>& path,
                         ErrorKind kind) {
  if (program.find('/') != std::string::npos) {
    if (is_executable_file(program)) return program;
    fail(kind, program + " is not an executable file");
  }
  std::string dirs;
  if (path) {
    dirs = *path;
  } else if (const char* env = std::getenv("PATH")) {
    dirs = env;
  } else {
    dirs = "/usr/local/bin:/usr/bin:/bin";
  }
  for (std::string_view dir : split(dirs, ':')) {
    std::string candidate = dir.empty() ? program : std::string(dir) + '/' + program;
    if (is_executable_file(candidate)) return candidate;
  }
  fail(kind, program + " not found on PATH");
}

ChildProcess ChildProcess::spawn(const std::string& path, const std::vector<std::string>& argv,
                                 int in, int out, int err, ErrorKind kind,
                                 const std::vector<std::string>* environment) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_adddup2(&actions, in, 0);
  posix_spawn_file_actions_adddup2(&actions, out, 1);
  posix_spawn_file_actions_adddup2(&actions, err, 2);
  sigset_t none;
  sigemptyset(&none);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD})
    sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<std::string> args = argv;
  std::vector<char*> pointers;
  for (std::string& a : args)
    pointers.push_back(a.data());
  pointers.push_back(nullptr);
  std::vector<std::string> variables;
  std::vector<char*> env;
  if (environment != nullptr) {
    variables = *environment;
    for (std::string& v : variables)
      env.push_back(v.data());
    env.push_back(nullptr);
  }
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, path.c_str(), &actions, &attr, pointers.data(),
                         environment != nullptr ? env.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) fail(kind, "cannot run " + path + ": " + std::strerror(rc));
  return ChildProcess(pid);
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      reaped_(std::exchange(other.reaped_, true)),
      exit_code_(other.exit_code_) {}

ChildProcess::~ChildProcess() {
  if (!reaped_ && pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    wait(0);
  }
}

bool ChildProcess::wait(int flags) {
  if (reaped_) return true;
  int status = 0;
  pid_t r;
  do {
    r = ::waitpid(pid_, &status, flags);
  } while (r < 0 && errno == EINTR);
  if (r == 0) return false;
  reaped_ = true;
  if (r < 0) {
    exit_code_ = 127;
  } else if (WIFEXITED(status)) {
    exit_code_ = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    exit_code_ = 128 + WTERMSIG(status);
  }
  return true;
}

}  // namespace archfit
