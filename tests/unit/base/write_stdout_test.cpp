// write_stdout: every part arrives, in order, whole, through a pipe that
// takes a few KiB at a time, also when a signal interrupts the writes again
// and again (so that they return part-way through a batch or a part).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <fcntl.h>
#include <random>
#include <signal.h>
#include <string>
#include <sys/time.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/file.hpp>

namespace archfit {
namespace {

void on_alarm(int) {}

// Runs `write` with standard output on a small pipe and returns what it
// wrote. With `interrupted`, SIGALRM arrives every 50 microseconds (without
// SA_RESTART) while a slow reader drains the pipe.
template <typename Write>
std::string captured(Write write, bool interrupted = false) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  ::fcntl(fds[1], F_SETPIPE_SZ, 4096);
  // What the test runner has buffered for standard output goes there first
  // (write_stdout flushes std::cout, which flushes stdio's buffer).
  std::cout.flush();
  std::fflush(stdout);
  int saved = ::dup(STDOUT_FILENO);
  ::dup2(fds[1], STDOUT_FILENO);
  ::close(fds[1]);
  std::string got;
  std::thread reader([&got, fd = fds[0], interrupted] {
    sigset_t alarm;
    sigemptyset(&alarm);
    sigaddset(&alarm, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &alarm, nullptr);
    char buffer[1500];
    for (int i = 0;; ++i) {
      ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n <= 0) break;
      got.append(buffer, static_cast<std::size_t>(n));
      if (interrupted && i % 64 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  struct sigaction before {};
  if (interrupted) {
    struct sigaction handler {};
    handler.sa_handler = on_alarm;  // no SA_RESTART: a blocked write returns early
    sigaction(SIGALRM, &handler, &before);
    itimerval every{{0, 50}, {0, 50}};
    setitimer(ITIMER_REAL, &every, nullptr);
  }
  write();
  if (interrupted) {
    itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);
    sigaction(SIGALRM, &before, nullptr);
  }
  ::dup2(saved, STDOUT_FILENO);  // closes the pipe's last write end
  ::close(saved);
  reader.join();
  ::close(fds[0]);
  return got;
}

// "" when equal; else the sizes and the first byte that differs (the texts
// are megabytes: not for printing whole).
std::string difference(const std::string& got, const std::string& want) {
  if (got == want) return "";
  std::size_t at = 0;
  while (at < got.size() && at < want.size() && got[at] == want[at])
    ++at;
  return "got " + std::to_string(got.size()) + " bytes, want " + std::to_string(want.size()) +
         ", first difference at byte " + std::to_string(at);
}

TEST(WriteStdout, EveryPartArrivesInOrderThroughASmallPipe) {
  std::mt19937 random(3);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::string> texts;
    int count = std::uniform_int_distribution<int>(0, 2000)(random);
    for (int i = 0; i < count; ++i) {
      std::size_t size = i % 97 == 0 ? std::uniform_int_distribution<std::size_t>(0, 200000)(random)
                                     : std::uniform_int_distribution<std::size_t>(0, 300)(random);
      std::string t(size, '\0');
      for (char& c : t)
        c = static_cast<char>('a' + random() % 26);
      texts.push_back(std::move(t));
    }
    std::vector<std::string_view> parts(texts.begin(), texts.end());
    std::string want;
    for (const std::string& t : texts)
      want += t;
    ASSERT_EQ(difference(captured([&parts] { write_stdout(parts); }), want), "") << round;
    ASSERT_EQ(difference(captured([&parts] { write_stdout(content_of(parts)); }), want), "")
        << round;
    ASSERT_EQ(difference(captured([&parts] { write_stdout(parts); }, true), want), "") << round;
  }
}

}  // namespace
}  // namespace archfit
