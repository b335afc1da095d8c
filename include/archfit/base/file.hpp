// Reading whole files, writing standard output. Errors name the file and the
// system's reason.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace archfit {

// The whole file. Throws Error(Input) "cannot read <path>: <reason>".
std::string read_file(const std::filesystem::path& path);

// Everything on standard input.
std::string read_stdin();

// The parts, in order, straight to standard output (after what std::cout
// holds). Throws Error(Input) "cannot write <stdout>: <reason>".
void write_stdout(const std::vector<std::string_view>& parts);

}  // namespace archfit
