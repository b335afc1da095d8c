// Golden cases in tests/golden/<case>/: input.yaml, archfit.lock, optional
// config.yaml and args (extra flags for fix, one per line), and the expected
// expected.yaml (what `archfit fix` writes) and findings.json (what
// `archfit lint --format json` reports on the input). Every case is also fixed
// a second time, which must change nothing, and linted after the fix, which
// must leave nothing that fix could have fixed.
//
// ARCHFIT_UPDATE_GOLDEN=1 rewrites the expectations; review the diff.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "support/corpus.hpp"
#include "support/json.hpp"
#include "support/process.hpp"

namespace archfit::testing {
namespace {

namespace fs = std::filesystem;

fs::path golden_dir() {
  return source_dir() / "tests" / "golden";
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(golden_dir())) {
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool updating() {
  const char* v = std::getenv("ARCHFIT_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

void write(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
}

std::vector<std::string> lines(const fs::path& path) {
  std::vector<std::string> out;
  if (!fs::exists(path)) return out;
  std::istringstream in(read(path));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// Cases where `fix --remove` after `fix` does not give back the input bytes,
// and why.
const std::set<std::string> kRemoveIsNotInverse = {
    // The alias is rewritten as its value; the data is the same.
    "alias-for-tolerations",
    // `affinity: {}` and `tolerations: []` come back as absent keys; the same to
    // Kubernetes.
    "empty-affinity-map",
    "empty-tolerations-list",
    // fix narrowed or dropped the user's own arch constraint; what it was is
    // not recorded.
    "narrow-arch-in-list",
    "respect-existing-off",
    // The user's toleration is the one archfit would add; the two cannot be
    // told apart.
    "toleration-already-present",
};

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, FixLintAndIdempotence) {
  const fs::path dir = golden_dir() / GetParam();
  TempDir tmp;
  std::string input = read(dir / "input.yaml");
  tmp.write("input.yaml", input);
  tmp.write("archfit.lock", read(dir / "archfit.lock"));
  tmp.write("config.yaml", fs::exists(dir / "config.yaml") ? read(dir / "config.yaml") : "");
  // Offline with a cache of its own: images the lock leaves out stay unresolved
  // instead of reaching for a registry.
  std::vector<std::string> common{"--config",    "config.yaml", "--lock",
                                  "archfit.lock", "--offline",   "--cache-dir",
                                  (tmp / "cache").string()};
  std::vector<std::string> extra = lines(dir / "args");
  ProcessOptions at_tmp;
  at_tmp.cwd = tmp.path();

  // lint on the input
  std::vector<std::string> lint{"lint", "--format", "json"};
  lint.insert(lint.end(), common.begin(), common.end());
  lint.push_back("input.yaml");
  ProcessResult linted = run_archfit(lint, at_tmp);
  ASSERT_TRUE(linted.exit_code == 0 || linted.exit_code == 1) << linted.err;
  std::string findings = pretty_json(linted.out);

  // fix
  std::vector<std::string> fix{"fix"};
  fix.insert(fix.end(), common.begin(), common.end());
  fix.insert(fix.end(), extra.begin(), extra.end());
  fix.push_back("input.yaml");
  ProcessResult fixed = run_archfit(fix, at_tmp);
  ASSERT_TRUE(fixed.exit_code == 0 || fixed.exit_code == 1) << fixed.err;
  EXPECT_EQ(fixed.err.find("internal error"), std::string::npos) << fixed.err;
  std::string output = read(tmp / "input.yaml");

  if (updating()) {
    write(dir / "expected.yaml", output);
    write(dir / "findings.json", findings);
  }
  EXPECT_EQ(output, read(dir / "expected.yaml")) << "fix output of " << GetParam();
  EXPECT_TRUE(same_json(findings, read(dir / "findings.json")))
      << "lint findings of " << GetParam() << ":\n"
      << findings;

  // A second fix changes nothing.
  ProcessResult again = run_archfit(fix, at_tmp);
  ASSERT_TRUE(again.exit_code == 0 || again.exit_code == 1) << again.err;
  EXPECT_EQ(read(tmp / "input.yaml"), output) << "second fix changed " << GetParam();

  // `fix --remove` on the result gives the input back, byte for byte, unless
  // the case is one where archfit cannot know what was there before.
  if (extra.empty() && input.find("archfit.io/platforms") == std::string::npos &&
      !kRemoveIsNotInverse.contains(GetParam())) {
    std::vector<std::string> remove = fix;
    remove.insert(remove.begin() + 1, "--remove");
    ProcessResult removed = run_archfit(remove, at_tmp);
    ASSERT_TRUE(removed.exit_code == 0 || removed.exit_code == 1) << removed.err;
    EXPECT_EQ(read(tmp / "input.yaml"), input) << "fix --remove did not undo fix in " << GetParam();
    tmp.write("input.yaml", output);
  }

  // After fix, lint finds nothing that fix could have fixed. (--remove takes
  // archfit's placement out, so lint is expected to ask for it again.)
  if (std::find(extra.begin(), extra.end(), "--remove") != extra.end()) return;
  ProcessResult after = run_archfit(lint, at_tmp);
  ASSERT_TRUE(after.exit_code == 0 || after.exit_code == 1) << after.err;
  EXPECT_EQ(after.out.find("\"fixable\":true"), std::string::npos)
      << "fixable findings remain after fix in " << GetParam() << ": " << after.out;
}

INSTANTIATE_TEST_SUITE_P(Cases, Golden, ::testing::ValuesIn(case_names()), [](const auto& test) {
  std::string name = test.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
});

TEST(GoldenSet, HasAtLeastFortyCases) {
  EXPECT_GE(case_names().size(), 40u);
}

}  // namespace
}  // namespace archfit::testing
