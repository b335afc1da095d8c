// Replacing a file's content all at once: write a temporary file beside it,
// give it the old file's mode, rename it over the original. Readers see the
// old bytes or the new ones, never a mix, and a failure leaves the old file.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

namespace archfit {

// Throws Error(Input) "cannot write <path>: <reason>". A file without any
// write permission bit is refused even for root: it was made read-only on
// purpose. Symbolic links are followed: the file they point at is replaced.
void write_atomically(const std::filesystem::path& path, std::string_view data);
// The same with the content given as consecutive parts.
void write_atomically(const std::filesystem::path& path,
                      const std::vector<std::string_view>& parts);

}  // namespace archfit
