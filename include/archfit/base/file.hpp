// Reading whole files. Errors name the file and the system's reason.
#pragma once

#include <filesystem>
#include <string>

namespace archfit {

// The whole file. Throws Error(Input) "cannot read <path>: <reason>".
std::string read_file(const std::filesystem::path& path);

// Everything on standard input.
std::string read_stdin();

}  // namespace archfit
