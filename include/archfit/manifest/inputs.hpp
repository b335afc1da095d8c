// Which files a run reads: the PATH arguments of the command line expanded
// into manifest files, or standard input.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/base/file.hpp>

namespace archfit::manifest {

struct InputFile {
  std::string name;  // for messages: the path as the user would write it, or "<stdin>"
  std::filesystem::path path;
  bool is_stdin = false;
};

struct InputOptions {
  // Take files a directory reaches through a symbolic link that leads out of
  // it (fix then writes them).
  bool follow_symlinks = false;
};

struct Inputs {
  std::vector<InputFile> files;
  // Files left out, each with why: symbolic links out of the directory, the
  // templates of helm charts.
  std::vector<std::string> skipped;
};

// Expands PATH arguments: a file is taken as it is (whatever its extension,
// and through a symbolic link: it was named); a directory is searched
// recursively for *.yaml and *.yml, skipping hidden files and directories and
// not following links to directories, in sorted order; "-" is standard input.
// Templates of a helm chart (files under a `templates` directory beside a
// Chart.yaml) are not manifests until rendered: left out, with a notice.
// No arguments means standard input. A file reached twice (named twice, or
// through a link inside the directory) is read once. Throws Error(Input) for
// a path that does not exist and for a directory without manifests.
Inputs collect_inputs(const std::vector<std::string>& args, const InputOptions& options = {});

// The whole stream of one input, read as yaml::manifest_read_limit says (a
// regular file or stdin, capped, failing at the first byte that cannot be
// YAML) and checked with yaml::check_encoding; errors name input.name. The
// file's identity when it was read goes to `identity` (not for stdin).
std::string read_input(const InputFile& input, FileIdentity* identity = nullptr,
                       std::string_view what = "a manifest stream");

}  // namespace archfit::manifest
