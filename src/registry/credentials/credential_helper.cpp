// The real credential helper runner: base/process with three pipes, the server
// URL written to stdin before the program starts, stdout and stderr read
// until the program exits, and the program's process group killed when it
// runs past the timeout or writes too much.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <thread>
#include <unistd.h>
#include <utility>

#include <archfit/base/duration.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/process.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/unique_fd.hpp>
#include <archfit/registry/credentials/keychain.hpp>

namespace archfit::registry {

namespace {

using Clock = std::chrono::steady_clock;

using Fd = UniqueFd;

struct Pipe {
  Fd read;
  Fd write;
};

[[noreturn]] void fail_system(const std::string& what, int err) {
  fail(ErrorKind::Config, what + ": " + std::strerror(err));
}

Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    fail_system("cannot create a pipe for a credential helper", errno);
  return Pipe{Fd(fds[0]), Fd(fds[1])};
}

std::string describe(std::chrono::milliseconds d) {
  if (d.count() % 1000 != 0) return std::to_string(d.count()) + "ms";
  return format_duration(std::chrono::duration_cast<std::chrono::seconds>(d));
}

// Reads what is available; false at end of file.
bool drain(int fd, std::string& into, std::size_t limit, bool& over) {
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      into.append(buf, static_cast<std::size_t>(n));
      if (into.size() > limit) {
        over = true;
        return true;
      }
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

HelperOutput run(const std::string& program, const std::string& input,
                 const HelperRunnerOptions& options) {
  std::string path = find_program(program, options.path, ErrorKind::Config);
  // The input is written before the program starts, so that writing can
  // neither block nor raise SIGPIPE if the program never reads it. A pipe
  // holds at least PIPE_BUF bytes.
  if (input.size() > PIPE_BUF) fail(ErrorKind::Config, "server URL too long for " + program);
  Pipe in = make_pipe();
  Pipe out = make_pipe();
  Pipe err = make_pipe();
  for (std::size_t done = 0; done < input.size();) {
    ssize_t n = ::write(in.write.get(), input.data() + done, input.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_system("cannot write to a pipe", errno);
    done += static_cast<std::size_t>(n);
  }
  in.write.reset();
  ChildProcess child = ChildProcess::spawn(path, {program, "get"}, in.read.get(), out.write.get(),
                                           err.write.get(), ErrorKind::Config);
  in.read.reset();
  out.write.reset();
  err.write.reset();
  ::fcntl(out.read.get(), F_SETFL, O_NONBLOCK);
  ::fcntl(err.read.get(), F_SETFL, O_NONBLOCK);

  HelperOutput result;
  Clock::time_point deadline = Clock::now() + options.timeout;
  bool out_open = true;
  bool err_open = true;
  bool over = false;
  auto timed_out = [&] {
    return Error(ErrorKind::Config, program + " did not finish within " +
                                        describe(options.timeout) + " and was killed");
  };
  while (out_open || err_open) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) throw timed_out();
    pollfd fds[2] = {{out_open ? out.read.get() : -1, POLLIN, 0},
                     {err_open ? err.read.get() : -1, POLLIN, 0}};
    // Short slices: a helper may leave a daemon of its own holding the pipes
    // after it exits, so its exit, not end of file, ends the conversation.
    int rc = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 50)));
    if (rc < 0 && errno != EINTR) fail_system("cannot wait for " + program, errno);
    bool done = child.exited();
    if (out_open) out_open = drain(out.read.get(), result.out, options.max_output, over);
    if (err_open) err_open = drain(err.read.get(), result.err, options.max_output, over);
    if (over) {
      fail(ErrorKind::Config, program + " wrote more than " + std::to_string(options.max_output) +
                                  " bytes and was killed");
    }
    if (done) break;
  }
  while (!child.exited()) {
    if (Clock::now() >= deadline) throw timed_out();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  result.exit_code = child.exit_code();
  return result;
}

}  // namespace

HelperRunner process_helper_runner(HelperRunnerOptions options) {
  return [options](const std::string& program, const std::string& server_url) {
    return run(program, server_url, options);
  };
}

}  // namespace archfit::registry
