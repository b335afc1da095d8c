// The shared corpus of real manifests (../shared/corpus), located at configure
// time. A missing corpus fails the tests that need it; it is never skipped.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace archfit::testing {

std::filesystem::path corpus_dir();
// Every *.yaml in the corpus, sorted by name.
std::vector<std::filesystem::path> corpus_files();
std::string read(const std::filesystem::path& path);
std::filesystem::path source_dir();

}  // namespace archfit::testing
