// The shared corpus of real manifests (../shared/corpus), located at configure
// time. A missing corpus fails the tests that need it; it is never skipped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

namespace archfit::testing {

std::filesystem::path corpus_dir();
// Every *.yaml in the corpus, sorted by name.
std::vector<std::filesystem::path> corpus_files();
std::string read(const std::filesystem::path& path);
// Calls `each` with every document of the corpus that has content, file by
// file.
void for_each_corpus_document(
    const std::function<void(const std::filesystem::path&, const yaml::DocumentText&)>& each);
std::filesystem::path source_dir();

// Parser limits that read a file as it is written: the corpus holds real
// manifests that give a key twice, which archfit itself refuses.
yaml::Limits as_written();

// Where the corpus gives a key twice, which archfit refuses as input errors:
// file name and line of the second key.
struct DuplicateKey {
  const char* file;
  std::uint32_t line;
};
const std::vector<DuplicateKey>& corpus_duplicate_keys();

}  // namespace archfit::testing
