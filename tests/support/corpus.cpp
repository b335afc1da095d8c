#include "support/corpus.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

namespace archfit::testing {

std::filesystem::path corpus_dir() {
  // What reads the corpus is in the corpus tier (tests/tier.py), which a
  // clone without the corpus can leave out: a suite named Corpus*.
  if (const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info()) {
    std::string_view suite = test->test_suite_name();
    if (!suite.starts_with("Corpus") && suite.find("/Corpus") == std::string_view::npos) {
      ADD_FAILURE() << "suite " << suite << " reads the corpus: name it Corpus" << suite
                    << ", so that it runs in the corpus tier";
    }
  }
  std::filesystem::path dir = ARCHFIT_CORPUS_DIR;
  if (dir.empty() || !std::filesystem::exists(dir / "SOURCES.md")) {
    ADD_FAILURE() << "the manifest corpus was not found (configure with "
                     "-DARCHFIT_CORPUS_DIR=/path/to/shared/corpus)";
  }
  return dir;
}

std::vector<std::filesystem::path> corpus_files() {
  std::vector<std::filesystem::path> files;
  std::filesystem::path dir = corpus_dir();
  if (dir.empty() || !std::filesystem::exists(dir)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  if (files.size() != 22) ADD_FAILURE() << "expected 22 corpus files, found " << files.size();
  return files;
}

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) ADD_FAILURE() << "cannot read " << path;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void for_each_corpus_document(
    const std::function<void(const std::filesystem::path&, const yaml::DocumentText&)>& each) {
  for (const std::filesystem::path& path : corpus_files()) {
    std::string text = read(path);
    for (const yaml::DocumentText& doc : yaml::split_stream(text)) {
      if (doc.has_content) each(path, doc);
    }
  }
}

std::filesystem::path source_dir() {
  return ARCHFIT_SOURCE_DIR;
}

yaml::Limits as_written() {
  yaml::Limits limits;
  limits.reject_duplicate_keys = false;
  return limits;
}

const std::vector<DuplicateKey>& corpus_duplicate_keys() {
  // Three archived Deployments of kubernetes/examples give `selector` twice.
  static const std::vector<DuplicateKey> keys = {
      {"kubernetes__examples__workloads_concat.yaml", 1347},
      {"kubernetes__examples__workloads_concat.yaml", 1404},
      {"kubernetes__examples__workloads_concat.yaml", 1443},
  };
  return keys;
}

}  // namespace archfit::testing
