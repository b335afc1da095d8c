// `archfit fix` over every corpus file, with a lock file that gives each
// image a platform set by turns (amd64 only, amd64+arm64, arm64 only):
// untouched documents stay byte for byte, changed ones differ only in the
// placement fields of their pod templates, and the laws of support/laws.hpp
// hold (remove gives every byte back, a second fix changes nothing, lint and
// fix agree).
#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/cache/lock_file.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

#include "support/corpus.hpp"
#include "support/laws.hpp"
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
    p.trees.push_back(
        std::make_unique<yaml::Tree>(yaml::parse_document(d.text, d.first_line, as_written())));
  }
  return p;
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

// The file without the documents archfit refuses (those that give a key
// twice), so that the rest of it is tested too.
std::string acceptable_part(const std::string& text) {
  std::string out;
  for (const yaml::DocumentText& d : yaml::split_stream(text)) {
    try {
      yaml::parse_document(d.text, d.first_line);
      out += d.text;
    } catch (const Error&) {
    }
  }
  return out;
}

// Every law of support/laws.hpp on every corpus file, and fix changes
// nothing outside the placement fields and archfit's annotations.
TEST(CorpusFix, KeepsTheLawsAndChangesOnlyPlacement) {
  const std::string lock = lock_for_corpus();
  std::size_t changed_files = 0;
  std::size_t changed_documents = 0;
  for (const auto& path : corpus_files()) {
    std::string name = path.filename().string();
    SCOPED_TRACE(name);
    std::string original = acceptable_part(read(path));
    Workspace ws(original, lock, "");
    std::string before_lint = ws.lint_json();
    std::string result = ws.fix();
    if (result != original) ++changed_files;
    if (const char* dir = std::getenv("ARCHFIT_OUTPUT_DIR")) {
      // For the schema check in tests/schema.
      std::ofstream(std::string(dir) + "/corpus-" + name + ".input.yaml", std::ios::binary)
          << original;
      std::ofstream(std::string(dir) + "/corpus-" + name + ".yaml", std::ios::binary) << result;
    }

    Parsed a = parse_all(original);
    Parsed b = parse_all(result);
    ASSERT_EQ(a.docs.size(), b.docs.size());
    for (std::size_t i = 0; i < a.docs.size(); ++i) {
      if (a.docs[i].text == b.docs[i].text) continue;
      ++changed_documents;
      EXPECT_EQ(without_placement(*a.trees[i]), without_placement(*b.trees[i]))
          << "document " << i << " changed outside the placement fields";
    }
    std::set<std::string> had = errors_of(before_lint);
    ws.write_input(result);
    for (const std::string& e : errors_of(ws.lint_json())) {
      EXPECT_TRUE(had.count(e)) << "new error after fix: " << e;
    }
    for (const std::string& law : broken_laws(ws, original))
      ADD_FAILURE() << law.substr(0, 2000);
  }
  EXPECT_GE(changed_files, 18u);
  EXPECT_GE(changed_documents, 250u);
}

// A document that gives a key twice is a finding at the second key, and only
// that document is left alone: every other workload of the file is placed,
// exactly as in the file without the broken documents.
TEST(CorpusFix, KeysGivenTwiceAreFindingsAndTheRestIsFixed) {
  const std::string lock = lock_for_corpus();
  std::set<std::string> files;
  for (const DuplicateKey& d : corpus_duplicate_keys())
    files.insert(d.file);
  for (const std::string& file : files) {
    std::string original = read(corpus_dir() / file);
    Workspace ws(original, lock, "");
    ProcessResult lint = ws.run({"lint"});
    EXPECT_EQ(lint.exit_code, 1) << lint.err;
    for (const DuplicateKey& d : corpus_duplicate_keys()) {
      if (d.file != file) continue;
      EXPECT_TRUE(contains(lint.out, "input.yaml:" + std::to_string(d.line) +
                                         ":3: error invalid-document: duplicate key \"selector\""))
          << lint.out.substr(0, 4000);
    }
    ProcessResult check = ws.run({"fix", "--check"});
    EXPECT_EQ(check.exit_code, 1) << check.err;
    EXPECT_EQ(ws.input(), original) << "fix --check wrote the file";
    ProcessResult fix = ws.run({"fix"});
    EXPECT_EQ(fix.exit_code, 1) << fix.err;
    std::string fixed = ws.input();
    ASSERT_NE(fixed, original);
    Workspace clean(acceptable_part(original), lock, "");
    std::string clean_fixed = clean.fix();
    // The fixed file without its broken documents is the clean file fixed;
    // the broken documents are given back byte for byte.
    std::string rest;
    std::size_t broken = 0;
    for (const yaml::DocumentText& doc : yaml::split_stream(fixed)) {
      if (acceptable_part(std::string(doc.text)).empty() && doc.has_content) {
        EXPECT_NE(original.find(doc.text), std::string::npos) << doc.text.substr(0, 400);
        ++broken;
        continue;
      }
      rest += doc.text;
    }
    EXPECT_EQ(broken, 3u);
    EXPECT_EQ(rest, clean_fixed);
    ProcessResult after = ws.run({"lint", "--format", "json"});
    EXPECT_EQ(after.exit_code, 1) << "the broken documents are still there";
    EXPECT_FALSE(contains(after.out, "\"fixable\":true")) << "lint after fix";
  }
}

}  // namespace
}  // namespace archfit::testing
