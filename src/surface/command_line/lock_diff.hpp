// The unified diff of a lock file that `archfit lock --diff` writes, made in
// time and memory linear in the lock: archfit writes a lock one entry to a
// block of lines, sorted by image, so the old and new texts are compared
// block by block, by image, and only the blocks that differ are diffed.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace archfit::surface::command_line {

// `before` is the lock's bytes ("" with `existed` false: a new file, diffed
// against /dev/null), `after` what archfit writes now; `name` the path as the
// diff names it (a/NAME, b/NAME). A `before` archfit did not write (a lock
// written by hand) is diffed whole. The diff goes to `put` a piece at a time.
void write_lock_diff(std::string_view before, bool existed, std::string_view after,
                     const std::string& name, const std::function<void(std::string_view)>& put);

}  // namespace archfit::surface::command_line
