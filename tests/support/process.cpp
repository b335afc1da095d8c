#include "support/process.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <signal.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace archfit::testing {

namespace {

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  int in[2], out[2], err[2];
  if (::pipe(in) != 0 || ::pipe(out) != 0 || ::pipe(err) != 0) throw std::runtime_error("pipe");
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork");
  if (pid == 0) {
    if (options.stdin_file.empty()) {
      ::dup2(in[0], 0);
    } else {
      int fd = ::open(options.stdin_file.c_str(), O_RDONLY);
      if (fd < 0) ::_exit(127);
      ::dup2(fd, 0);
      ::close(fd);
    }
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]})
      ::close(fd);
    if (!options.cwd.empty() && ::chdir(options.cwd.c_str()) != 0) ::_exit(127);
    // What makes a run unattended comes from the test, not from the machine
    // the tests run on (a CI runner sets CI=true).
    for (const char* name : {"CI", "PRE_COMMIT", "ARGOCD_APP_NAME"})
      ::unsetenv(name);
    for (const std::string& kv : options.env)
      ::putenv(const_cast<char*>(kv.c_str()));
    std::vector<char*> args;
    for (const std::string& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  ::signal(SIGPIPE, SIG_IGN);
  set_nonblocking(in[1]);
  set_nonblocking(out[0]);
  set_nonblocking(err[0]);

  ProcessResult result;
  std::size_t written = 0;
  if (options.stdin_data.empty()) {
    ::close(in[1]);
    in[1] = -1;
  }
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open) {
    pollfd fds[3];
    int n = 0;
    int in_slot = -1, out_slot = -1, err_slot = -1;
    if (in[1] >= 0) fds[in_slot = n++] = {in[1], POLLOUT, 0};
    if (out_open) fds[out_slot = n++] = {out[0], POLLIN, 0};
    if (err_open) fds[err_slot = n++] = {err[0], POLLIN, 0};
    if (::poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (in_slot >= 0 && fds[in_slot].revents) {
      ssize_t w =
          ::write(in[1], options.stdin_data.data() + written, options.stdin_data.size() - written);
      if (w > 0) written += static_cast<std::size_t>(w);
      if (w < 0 && errno != EAGAIN) written = options.stdin_data.size();
      if (written == options.stdin_data.size()) {
        ::close(in[1]);
        in[1] = -1;
      }
    }
    auto drain = [&](int slot, int fd, std::string& to, bool& open) {
      if (slot < 0 || !fds[slot].revents) return;
      ssize_t r = ::read(fd, buf, sizeof buf);
      if (r > 0) {
        to.append(buf, static_cast<std::size_t>(r));
      } else if (r == 0 || errno != EAGAIN) {
        open = false;
      }
    };
    drain(out_slot, out[0], result.out, out_open);
    drain(err_slot, err[0], result.err, err_open);
  }
  if (in[1] >= 0) ::close(in[1]);
  ::close(out[0]);
  ::close(err[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

ProcessResult run_archfit(const std::vector<std::string>& args, const ProcessOptions& options) {
  // ARCHFIT_TEST_EXECUTABLE runs the suite against another archfit: a release
  // executable, or a script that runs one under qemu (tests/release/run.sh).
  const char* other = std::getenv("ARCHFIT_TEST_EXECUTABLE");
  std::vector<std::string> argv{other != nullptr && *other != '\0' ? other : ARCHFIT_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  // Every edit checked with a grafted tree is checked with a full parse too.
  ProcessOptions checked = options;
  checked.env.push_back("ARCHFIT_CHECK_GRAFTS=1");
  return run_process(argv, checked);
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "archfit-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  // Make everything writable again so that read-only test files go too.
  for (auto it = std::filesystem::recursive_directory_iterator(path_, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    std::filesystem::permissions(it->path(), std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
  }
  std::filesystem::remove_all(path_, ec);
}

std::filesystem::path TempDir::write(const std::string& name, const std::string& content) const {
  std::filesystem::path p = path_ / name;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary);
  f << content;
  return p;
}

}  // namespace archfit::testing
