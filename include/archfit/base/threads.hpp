// Starting a thread where the system may have none to give.
//
// A process limit (ulimit -u, a container's pids limit) or a system out of
// tasks makes std::thread's constructor throw std::system_error (EAGAIN).
// archfit's threads only share work the calling thread can do itself, so
// such a failure is not the run's: try_thread() gives back a thread that is
// not joinable, and the caller goes on with the threads it has
// (docs/architecture.md, "Threads").
#pragma once

#include <system_error>
#include <thread>
#include <utility>

#include <archfit/base/environment.hpp>

namespace archfit {

// How many threads archfit's work may run on: as many as the CPUs the process
// may use, or fewer where the environment variable ARCHFIT_THREADS says so (a
// whole number from 1; 1 runs every piece of work on the calling thread, so
// that a run does the same thing every time). Throws Error (Usage) for any
// other value of it.
unsigned cores(const Getenv& getenv = process_getenv());

template <class Thread = std::thread, class F>
Thread try_thread(F&& f) {
  try {
    return Thread(std::forward<F>(f));
  } catch (const std::system_error&) {
    return Thread();
  }
}

}  // namespace archfit
