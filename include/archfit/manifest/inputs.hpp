// Which files a run reads: the PATH arguments of the command line expanded
// into manifest files, or standard input.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace archfit::manifest {

struct InputFile {
  std::string name;  // for messages: the path as the user would write it, or "<stdin>"
  std::filesystem::path path;
  bool is_stdin = false;
};

// Expands PATH arguments: a file is taken as it is (whatever its extension); a
// directory is searched recursively for *.yaml and *.yml, skipping hidden
// files and directories, in sorted order; "-" is standard input. No arguments means
// standard input. Throws Error(Input) for a path that does not exist and for a
// directory without manifests.
std::vector<InputFile> collect_inputs(const std::vector<std::string>& args);

}  // namespace archfit::manifest
