// What archfit does where the system gives it no more threads: for a child
// process (a death test's), a limit on how many threads it may start.
#pragma once

namespace archfit::testing {

// Lets this process start `threads` threads beside the ones it has, and no
// more (RLIMIT_NPROC, which counts a user's tasks: as root the process first
// becomes a user id no other process has, so the count is its own). Returns
// whether the limit holds: the threads allowed start and one more is
// refused (they end before it returns). Call it only in a
// process of its own: it cannot be undone.
bool limit_threads(unsigned threads);

}  // namespace archfit::testing
