// Writing text held in many parts to a file descriptor: many parts to a
// system call (writev), each part written from where it is.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace archfit::detail {

// Writes every part, in order. After each system call, `wrote` (when given)
// is told how many bytes it took. Returns 0, or the errno of the call that
// failed (EIO for one that took nothing).
int write_gathered(int fd, const std::vector<std::string_view>& parts,
                   const std::function<void(std::size_t)>& wrote = {});

}  // namespace archfit::detail
