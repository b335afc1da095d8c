// archfit's read path over one file: split the stream, parse every document
// into a tree with spans, find the workloads and their images. Prints
//   seconds=<best of K> documents=<n> workloads=<w> images=<distinct>
// The file is read into memory before the clock starts, as the baseline does.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_set>

#include <archfit/base/file.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

namespace {

struct Result {
  std::size_t documents = 0;
  std::size_t workloads = 0;
  std::size_t images = 0;
};

Result run(const std::string& data, const archfit::manifest::KindTable& kinds) {
  Result r;
  std::unordered_set<std::string> images;
  for (const auto& doc : archfit::yaml::split_stream(data)) {
    archfit::yaml::Tree tree = archfit::yaml::parse_document(doc.text, doc.first_line);
    ++r.documents;
    for (const auto& w : archfit::manifest::discover(tree, kinds)) {
      ++r.workloads;
      for (const auto& t : w.templates) {
        for (const auto& c : t.containers)
          images.insert(c.image_ref);
      }
    }
  }
  r.images = images.size();
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [--repeat K]\n", argv[0]);
    return 2;
  }
  int repeat = 1;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (std::strncmp(argv[i], "--repeat=", 9) == 0) {
      repeat = std::max(1, std::atoi(argv[i] + 9));
    }
  }
  try {
    std::string data = archfit::read_file(argv[1], archfit::yaml::manifest_read_limit());
    auto kinds = archfit::manifest::KindTable::defaults();
    double best = 1e300;
    Result result;
    for (int i = 0; i < repeat; ++i) {
      auto start = std::chrono::steady_clock::now();
      result = run(data, kinds);
      std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      best = std::min(best, took.count());
    }
    std::printf("seconds=%.4f documents=%zu workloads=%zu images=%zu\n", best, result.documents,
                result.workloads, result.images);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
