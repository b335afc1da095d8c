// `archfit fix` over every corpus file, with a lock file that gives each
// image a platform set by turns (amd64 only, amd64+arm64, arm64 only):
// untouched documents stay byte for byte, changed ones differ only in the
// placement fields of their pod templates, a second fix changes nothing, and
// lint afterwards finds nothing fix could have fixed.
#include <memory>
#include <set>

#include <gtest/gtest.h>

#include <archfit/cache/lock_file.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

#include "support/corpus.hpp"
#include "support/process.hpp"

namespace archfit::testing {
namespace {

using yaml::Value;

const char* const kCycle[] = {"linux/amd64", "linux/amd64,linux/arm64", "linux/arm64"};

struct Parsed {
  std::vector<yaml::DocumentText> docs;
  std::vector<std::unique_ptr<yaml::Tree>> trees;
};

// The trees point into `text`, which must outlive the result.
Parsed parse_all(const std::string& text) {
  Parsed p;
  p.docs = yaml::split_stream(text);
  for (const auto& d : p.docs) {
    p.trees.push_back(std::make_unique<yaml::Tree>(yaml::parse_document(d.text, d.first_line)));
  }
  return p;
}

// The document's data with the fields archfit may change taken out of every
// pod template.
Value without_placement(const yaml::Tree& tree) {
  Value data = yaml::to_value(tree.root());
  auto kinds = manifest::KindTable::defaults();
  for (const manifest::Workload& w : manifest::discover(tree, kinds)) {
    for (const manifest::PodTemplate& t : w.templates) {
      std::string path = w.path;
      if (!t.path.empty()) path += (path.empty() ? "" : ".") + t.path;
      Value* at = &data;
      // Walk the same dotted path the editor uses.
      std::string rest = path;
      while (!rest.empty() && at != nullptr) {
        std::size_t dot = rest.find('.');
        std::string step = rest.substr(0, dot);
        rest = dot == std::string::npos ? "" : rest.substr(dot + 1);
        std::size_t bracket = step.find('[');
        if (!step.substr(0, bracket).empty()) at = at->find(step.substr(0, bracket));
        while (at != nullptr && bracket != std::string::npos) {
          std::size_t close = step.find(']', bracket);
          at = &at->items()[std::stoul(step.substr(bracket + 1, close - bracket - 1))];
          bracket = step.find('[', close);
        }
      }
      if (at == nullptr) continue;
      if (Value* spec = at->find("spec")) {
        spec->erase("affinity");
        spec->erase("nodeSelector");
        spec->erase("tolerations");
      }
      if (Value* metadata = at->find("metadata")) {
        if (Value* annotations = metadata->find("annotations")) {
          annotations->erase("archfit.io/platforms");
          if (annotations->entries().empty()) metadata->erase("annotations");
        }
        if (metadata->entries().empty()) at->erase("metadata");
      }
    }
  }
  return data;
}

std::string lock_for_corpus() {
  std::set<std::string> canonical;
  auto kinds = manifest::KindTable::defaults();
  for (const auto& path : corpus_files()) {
    std::string text = read(path);
    Parsed p = parse_all(text);
    for (const auto& tree : p.trees) {
      for (const auto& w : manifest::discover(*tree, kinds)) {
        for (const auto& t : w.templates) {
          for (const auto& c : t.containers) {
            if (auto ref = image::Reference::try_parse(c.image_ref))
              canonical.insert(ref->canonical());
          }
        }
      }
    }
  }
  cache::LockFile lock;
  std::size_t i = 0;
  for (const std::string& name : canonical) {
    cache::LockEntry entry;
    entry.platforms = image::PlatformSet::parse(kCycle[i++ % 3]);
    lock.set(image::Reference::parse(name), entry);
  }
  return lock.serialize();
}

std::set<std::string> errors_of(const std::string& json_report) {
  // Each error as "rule resource-name line" is enough to compare runs; the
  // fields are read from the compact JSON with plain string scanning.
  std::set<std::string> out;
  std::size_t pos = 0;
  while ((pos = json_report.find("{\"rule\":\"", pos)) != std::string::npos) {
    std::size_t end = json_report.find("\"fixable\":", pos);
    std::string finding = json_report.substr(pos, end - pos);
    pos = end;
    if (finding.find("\"severity\":\"error\"") == std::string::npos) continue;
    std::string rule = finding.substr(9, finding.find('"', 9) - 9);
    std::size_t name = finding.find("\"name\":\"");
    out.insert(rule + " " + finding.substr(name, finding.find('"', name + 8) - name));
  }
  return out;
}

TEST(CorpusFix, ChangesOnlyPlacementAndIsIdempotent) {
  TempDir tmp;
  tmp.write("archfit.lock", lock_for_corpus());
  tmp.write("config.yaml", "");
  std::size_t changed_files = 0;
  std::size_t changed_documents = 0;
  for (const auto& path : corpus_files()) {
    std::string name = path.filename().string();
    SCOPED_TRACE(name);
    std::string original = read(path);
    tmp.write(name, original);
    ProcessOptions at;
    at.cwd = tmp.path();
    std::vector<std::string> flags{"--config", "config.yaml", "--lock", "archfit.lock", name};
    std::vector<std::string> lint{"lint", "--format", "json"};
    lint.insert(lint.end(), flags.begin(), flags.end());
    ProcessResult before = run_archfit(lint, at);
    ASSERT_TRUE(before.exit_code == 0 || before.exit_code == 1) << before.err;

    std::vector<std::string> fix{"fix", "-q"};
    fix.insert(fix.end(), flags.begin(), flags.end());
    ProcessResult fixed = run_archfit(fix, at);
    ASSERT_TRUE(fixed.exit_code == 0 || fixed.exit_code == 1) << fixed.err;
    std::string result = read(tmp / name);
    if (result != original) ++changed_files;

    Parsed a = parse_all(original);
    Parsed b = parse_all(result);
    ASSERT_EQ(a.docs.size(), b.docs.size());
    for (std::size_t i = 0; i < a.docs.size(); ++i) {
      if (a.docs[i].text == b.docs[i].text) continue;
      ++changed_documents;
      EXPECT_EQ(without_placement(*a.trees[i]), without_placement(*b.trees[i]))
          << "document " << i << " changed outside the placement fields";
    }

    ProcessResult again = run_archfit(fix, at);
    ASSERT_TRUE(again.exit_code == 0 || again.exit_code == 1) << again.err;
    EXPECT_EQ(read(tmp / name), result) << "a second fix changed the file";

    ProcessResult after = run_archfit(lint, at);
    ASSERT_TRUE(after.exit_code == 0 || after.exit_code == 1) << after.err;
    EXPECT_EQ(after.out.find("\"fixable\":true"), std::string::npos) << after.out;
    std::set<std::string> left = errors_of(after.out);
    std::set<std::string> had = errors_of(before.out);
    for (const std::string& e : left) {
      EXPECT_TRUE(had.count(e)) << "new error after fix: " << e;
    }
  }
  EXPECT_GE(changed_files, 18u);
  EXPECT_GE(changed_documents, 250u);
}

}  // namespace
}  // namespace archfit::testing
