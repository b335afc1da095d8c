// The one way archfit opens a file a repository names for it (the
// configuration and lock file it finds, the files they name): inside the
// repository, every symbolic link on the way resolved inside it too, regular
// files only, read with a cap. A committed `.archfit.yaml -> ~/.git-credentials`
// is refused, never read, so nothing of a file outside the repository can
// reach a message (docs/security.md, "Paths from a repository").
//
// Where the kernel has it (Linux 5.6 on), openat2 with RESOLVE_BENEATH and
// RESOLVE_NO_MAGICLINKS resolves the path; elsewhere a walk of its
// components from the root, each opened with O_NOFOLLOW, follows links by
// hand and never goes above the root. Both refuse a link to an absolute
// path, and `..` past the root.
#pragma once

#include <filesystem>
#include <string>

#include <archfit/base/file.hpp>
#include <archfit/base/unique_fd.hpp>

namespace archfit {

// `path` (absolute, or relative to the working directory) lexically inside
// `root`, opened for reading where it leads, when that is inside root.
// `directory`: open a directory (O_PATH), else a regular file. Throws
// Error(Input) naming the path and, when it leads out, saying so.
UniqueFd open_confined(const std::filesystem::path& root, const std::filesystem::path& path,
                       bool directory = false);

// The whole file, read as read_file reads, opened by open_confined.
std::string read_confined(const std::filesystem::path& root, const std::filesystem::path& path,
                          const ReadLimit& limit, FileIdentity* identity = nullptr);

// Where `path` leads inside root, every link resolved (for a path others
// read later by name: a CA file, a credentials directory).
std::filesystem::path resolve_confined(const std::filesystem::path& root,
                                       const std::filesystem::path& path, bool directory = false);

// A seam for tests: resolve by the walk even where openat2 is there.
void confined_by_walk_only(bool on);

}  // namespace archfit
