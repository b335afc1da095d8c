// Workloads and distinct pod-container images found in each corpus file,
// against the `workloads` and `images` columns of the corpus's SOURCES.md.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/manifest/discover.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

#include "support/corpus.hpp"

namespace archfit::manifest {
namespace {

struct Counts {
  int workloads = 0;
  int images = 0;
};

// Rows of the "Files" table: | `name` | repo | path | commit | license | bytes | docs | workloads |
// images |
std::map<std::string, Counts> expected_counts() {
  std::map<std::string, Counts> out;
  std::string text = archfit::testing::read(archfit::testing::corpus_dir() / "SOURCES.md");
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::size_t start = 1;
    for (std::size_t bar; (bar = line.find('|', start)) != std::string::npos; start = bar + 1) {
      std::string cell = line.substr(start, bar - start);
      cell.erase(0, cell.find_first_not_of(' '));
      cell.erase(cell.find_last_not_of(' ') + 1);
      cells.push_back(cell);
    }
    auto number = [](const std::string& cell) {
      return !cell.empty() && cell.find_first_not_of("0123456789") == std::string::npos;
    };
    std::size_t close = line.find('`', 3);
    if (cells.size() < 3 || close == std::string::npos || !number(cells[cells.size() - 2]) ||
        !number(cells.back())) {
      continue;
    }
    std::string name = line.substr(3, close - 3);
    if (!name.ends_with(".yaml")) continue;
    out[name] = Counts{std::stoi(cells[cells.size() - 2]), std::stoi(cells.back())};
  }
  return out;
}

Counts count(const std::string& data, const KindTable& kinds, std::set<std::string>& all_images) {
  Counts c;
  std::set<std::string> images;
  for (const auto& doc : yaml::split_stream(data)) {
    auto tree = std::make_unique<yaml::Tree>(yaml::parse_document(doc.text, doc.first_line, archfit::testing::as_written()));
    for (const Workload& w : discover(*tree, kinds)) {
      ++c.workloads;
      for (const PodTemplate& t : w.templates) {
        for (const Container& container : t.containers) {
          if (container.image) images.insert(container.image_ref);
        }
      }
    }
  }
  c.images = static_cast<int>(images.size());
  all_images.insert(images.begin(), images.end());
  return c;
}

// Where archfit's definition differs from the one SOURCES.md counted with.
struct Difference {
  const char* file;
  int images;
  const char* why;
};
constexpr Difference kDifferences[] = {
    {"prometheus-operator__kube-prometheus__manifests_concat.yaml", -2,
     "SOURCES.md also counts spec.image of the Prometheus and Alertmanager custom resources; "
     "the operator runs those images itself, they are not in a pod template"},
};

TEST(CorpusCounts, WorkloadsAndImagesMatchSources) {
  auto expected = expected_counts();
  ASSERT_EQ(expected.size(), 22u) << "could not read the table of SOURCES.md";
  KindTable kinds = KindTable::defaults();
  int total_workloads = 0;
  std::set<std::string> all_images;
  for (const auto& path : archfit::testing::corpus_files()) {
    std::string file = path.filename().string();
    ASSERT_TRUE(expected.count(file)) << file << " is not in SOURCES.md";
    Counts want = expected[file];
    for (const Difference& d : kDifferences) {
      if (file == d.file) want.images += d.images;  // see kDifferences for why
    }
    Counts got = count(archfit::testing::read(path), kinds, all_images);
    EXPECT_EQ(got.workloads, want.workloads) << file;
    EXPECT_EQ(got.images, want.images) << file;
    total_workloads += got.workloads;
  }
  // SOURCES.md totals: 327 workloads, 151 distinct images in pod containers.
  EXPECT_EQ(total_workloads, 327);
  EXPECT_EQ(all_images.size(), 151u);
}

}  // namespace
}  // namespace archfit::manifest
