// Unified diffs: golden hunks as diff -u prints them, and laws over generated
// texts and splices: the diff applied to the original gives the new text, it
// changes no more lines than the shortest edit script needs, and git apply
// reads it back exactly, names with newlines included.
#include <algorithm>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include <archfit/base/unified_diff.hpp>

#include "support/process.hpp"

namespace archfit {
namespace {

using testing::ProcessOptions;
using testing::run_process;
using testing::TempDir;

std::vector<std::string> lines(std::string_view text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t lf = text.find('\n', at);
    std::size_t end = lf == std::string_view::npos ? text.size() : lf + 1;
    out.emplace_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

struct Applied {
  std::string text;
  std::size_t deleted = 0, inserted = 0;
};

// Applies a diff -u patch strictly: every context and deleted line must be
// where the hunk header says, and the counts must match.
Applied apply_patch(const std::string& before, const std::string& patch) {
  std::vector<std::string> a = lines(before), p = lines(patch);
  Applied out;
  std::vector<std::string> result;
  std::size_t next = 0;  // line of `a` not yet copied
  std::size_t i = 2;
  EXPECT_TRUE(p.size() >= 2 && p[0].starts_with("--- ") && p[1].starts_with("+++ ")) << patch;
  while (i < p.size()) {
    unsigned a_start = 0, a_count = 1, b_start = 0, b_count = 1;
    const std::string& h = p[i];
    if (std::sscanf(h.c_str(), "@@ -%u,%u +%u,%u @@", &a_start, &a_count, &b_start, &b_count) !=
        4) {
      a_count = b_count = 1;
      unsigned x = 0;
      if (std::sscanf(h.c_str(), "@@ -%u +%u,%u @@", &a_start, &b_start, &b_count) == 3) {
      } else if (std::sscanf(h.c_str(), "@@ -%u,%u +%u @@", &a_start, &a_count, &b_start) == 3) {
      } else if (std::sscanf(h.c_str(), "@@ -%u +%u @@", &a_start, &b_start) == 2) {
      } else {
        ADD_FAILURE() << "not a hunk header: " << h << x;
        return out;
      }
    }
    std::size_t first = a_count == 0 ? a_start : a_start - 1;
    EXPECT_GE(first, next) << h;
    while (next < first)
      result.push_back(a[next++]);
    ++i;
    unsigned seen_a = 0, seen_b = 0;
    while (i < p.size() && !p[i].starts_with("@@")) {
      std::string line = p[i].substr(1);
      char mark = p[i][0];
      ++i;
      if (i < p.size() && p[i] == "\\ No newline at end of file\n") {
        line.pop_back();
        ++i;
      }
      if (mark == ' ' || mark == '-') {
        EXPECT_LT(next, a.size()) << h;
        EXPECT_EQ(line, next < a.size() ? a[next] : "") << h;
        ++next;
        ++seen_a;
      }
      if (mark == ' ' || mark == '+') {
        result.push_back(line);
        ++seen_b;
      }
      out.deleted += mark == '-';
      out.inserted += mark == '+';
    }
    EXPECT_EQ(seen_a, a_count) << h;
    EXPECT_EQ(seen_b, b_count) << h;
  }
  while (next < a.size())
    result.push_back(a[next++]);
  for (const std::string& line : result)
    out.text += line;
  return out;
}

// The length of the longest common subsequence of lines: the shortest edit
// script deletes and inserts n + m - 2 * lcs lines.
std::size_t lcs(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::size_t> row(b.size() + 1, 0), prev(b.size() + 1, 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j)
      row[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], row[j - 1]);
    std::swap(row, prev);
  }
  return prev[b.size()];
}

std::string random_text(std::mt19937& rng, std::size_t max_lines) {
  static const char* kLines[] = {"a\n", "b\n", "c\n", "  key: value\n", "---\n", "\n", "d\n"};
  std::string out;
  std::size_t n = rng() % (max_lines + 1);
  for (std::size_t i = 0; i < n; ++i)
    out += kLines[rng() % 7];
  if (!out.empty() && rng() % 4 == 0) out.pop_back();  // no final newline
  return out;
}

TEST(UnifiedDiff, EqualTextsHaveNoDiff) {
  EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n", "a/x", "b/x"), "");
  EXPECT_EQ(unified_diff("a\n", Splices(), "a/x", "b/x"), "");
}

TEST(UnifiedDiff, HunksAsDiffUPrintsThem) {
  std::string before;
  for (int i = 1; i <= 20; ++i)
    before += std::to_string(i) + "\n";
  std::string after = before;
  after.replace(after.find("5\n"), 2, "five\n");
  after.replace(after.find("\n7\n") + 1, 2, "7\nseven and a half\n");
  after.replace(after.find("18\n"), 3, "");
  EXPECT_EQ(unified_diff(before, after, "a/n.txt", "b/n.txt"),
            "--- a/n.txt\n+++ b/n.txt\n"
            "@@ -2,9 +2,10 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n+seven and a half\n 8\n 9\n 10\n"
            "@@ -15,6 +16,5 @@\n 15\n 16\n 17\n-18\n 19\n 20\n");
  // An insertion at the very start, and a last line without a newline.
  EXPECT_EQ(unified_diff("a\nb", "x\na\nb", "a/f", "b/f"),
            "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n+x\n a\n b\n\\ No newline at end of file\n");
  EXPECT_EQ(unified_diff("a\nb", "x\na\nb", "a/f", "b/f", 0),
            "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n");
  EXPECT_EQ(unified_diff("a\nb", "a\nc", "a/f", "b/f"),
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
            "\\ No newline at end of file\n");
}

TEST(UnifiedDiff, NamesAreQuotedAsGitQuotesThem) {
  EXPECT_EQ(git_quoted_path("a/deploy/app one.yaml"), "a/deploy/app one.yaml");
  EXPECT_EQ(git_quoted_path("a/x\ny/app.yaml"), "\"a/x\\ny/app.yaml\"");
  EXPECT_EQ(git_quoted_path("a/\"q\"\\\t.yaml"), "\"a/\\\"q\\\"\\\\\\t.yaml\"");
  EXPECT_EQ(git_quoted_path("a/caf\xc3\xa9.yaml"), "\"a/caf\\303\\251.yaml\"");
  EXPECT_EQ(unified_diff("a\n", "b\n", "a/x\ny.yaml", "b/x\ny.yaml").substr(0, 32),
            "--- \"a/x\\ny.yaml\"\n+++ \"b/x\\ny.ya");
}

// Law: over generated texts the diff gives the new text back and is as short
// as the shortest edit script.
TEST(UnifiedDiff, AppliedItGivesTheNewTextAndNoMoreLinesChangeThanMust) {
  std::mt19937 rng(7);
  for (int round = 0; round < 3000; ++round) {
    std::string before = random_text(rng, 30), after = random_text(rng, 30);
    if (round % 3 == 0) {
      // Mostly alike: a few lines changed in a long text.
      after = before;
      for (int k = 0; k < 3 && !after.empty(); ++k)
        after.insert(rng() % after.size(), random_text(rng, 2));
    }
    int context = static_cast<int>(rng() % 4);
    std::string patch = unified_diff(before, after, "a/f", "b/f", context);
    if (before == after) {
      EXPECT_EQ(patch, "");
      continue;
    }
    SCOPED_TRACE(::testing::Message() << "round " << round << "\n" << before << "\n--\n" << after);
    Applied applied = apply_patch(before, patch);
    ASSERT_EQ(applied.text, after) << patch;
    std::vector<std::string> a = lines(before), b = lines(after);
    EXPECT_EQ(applied.deleted + applied.inserted, a.size() + b.size() - 2 * lcs(a, b)) << patch;
  }
}

// Law: the diff of a text and its splices (what fix hands it) applies, with
// splices anywhere: mid-line, at the end, touching one another.
TEST(UnifiedDiff, OfSplicesItAppliesWhereverTheyAre) {
  std::mt19937 rng(11);
  for (int round = 0; round < 20000; ++round) {
    std::string before = random_text(rng, 40);
    Splices edits;
    std::size_t at = 0;
    while (at <= before.size() && rng() % 3 != 0) {
      std::size_t begin = at + rng() % (before.size() - at + 1);
      std::size_t length = rng() % (before.size() - begin + 1) / 2;
      edits.replace(begin, length, random_text(rng, 3));
      at = begin + length + (rng() % 2);
    }
    std::string after = edits.apply(before);
    std::string patch = unified_diff(before, edits, "a/f", "b/f", static_cast<int>(rng() % 4));
    SCOPED_TRACE(::testing::Message() << "round " << round);
    if (before == after) {
      EXPECT_EQ(patch, "");
      continue;
    }
    EXPECT_EQ(apply_patch(before, patch).text, after) << before << "\n--\n" << patch;
  }
}

// The reproducer of the quadratic diff: thousands of documents, every one of
// them changed, in one file. Linear space: this takes a few megabytes.
TEST(UnifiedDiff, ThousandsOfChangedDocumentsInOneFile) {
  std::string before;
  Splices edits;
  for (int i = 0; i < 20000; ++i) {
    std::string doc = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-" +
                      std::to_string(i) + "\nspec:\n  template:\n    spec:\n      containers:\n" +
                      "      - name: app\n        image: app:1\n";
    edits.replace(before.size(), doc.size(),
                  doc + "      tolerations:\n      - key: kubernetes.io/arch\n");
    before += doc;
  }
  std::string patch = unified_diff(before, edits, "a/apps.yaml", "b/apps.yaml");
  Applied applied = apply_patch(before, patch);
  EXPECT_EQ(applied.text, edits.apply(before));
  EXPECT_EQ(applied.inserted, 40000u);
  EXPECT_EQ(applied.deleted, 0u);
}

// git apply, the program users feed the patch to, reads it back byte for
// byte, including names git must quote.
TEST(UnifiedDiff, GitApplyReadsItBack) {
  std::mt19937 rng(3);
  const std::string names[] = {"plain.yaml", "with space.yaml", "new\nline.yaml",
                               "tab\t.yaml", "quote\".yaml",    "caf\xc3\xa9.yaml"};
  for (int round = 0; round < 24; ++round) {
    TempDir dir;
    const std::string& name = names[round % 6];
    std::string before = random_text(rng, 25), after = random_text(rng, 25);
    if (before == after) after += "z\n";
    dir.write(name, before);
    std::string patch = unified_diff(before, after, "a/" + name, "b/" + name);
    dir.write("change.patch", patch);
    ProcessOptions o;
    o.cwd = dir.path();
    testing::ProcessResult r = run_process({"git", "apply", "--unsafe-paths", "change.patch"}, o);
    ASSERT_EQ(r.exit_code, 0) << r.err << patch;
    EXPECT_EQ(read_file(dir / name), after) << patch;
  }
}

}  // namespace
}  // namespace archfit
