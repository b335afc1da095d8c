// Golden cases in tests/golden/<case>/: input.yaml, archfit.lock, optional
// config.yaml and args (extra flags for fix, one per line), and the expected
// expected.yaml (what `archfit fix` writes) and findings.json (what
// `archfit lint --format json` reports). A README.md says what the case is
// about (and, for cases taken from another tool's tests, which test).
//
// A case with before.lock is about a template archfit placed earlier, when
// its images had other platforms: the input the case runs on is what fix
// made of input.yaml under before.lock, and what fix makes of it now must be
// exactly what a first run on input.yaml gives (expected.yaml).
//
// Every case also keeps the laws of support/laws.hpp.
//
// ARCHFIT_UPDATE_GOLDEN=1 rewrites the expectations; review the diff.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "support/corpus.hpp"
#include "support/json.hpp"
#include "support/laws.hpp"
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

std::string read_or_empty(const fs::path& path) {
  return fs::exists(path) ? read(path) : std::string();
}

std::vector<std::string> lines(const fs::path& path) {
  std::vector<std::string> out;
  std::istringstream in(read_or_empty(path));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, FixLintAndLaws) {
  const fs::path dir = golden_dir() / GetParam();
  const std::string users = read(dir / "input.yaml");
  const std::string lock = read(dir / "archfit.lock");
  Workspace ws(users, lock, read_or_empty(dir / "config.yaml"));
  std::vector<std::string> extra = lines(dir / "args");

  std::string input = users;
  if (fs::exists(dir / "before.lock")) {
    ws.write_lock(read(dir / "before.lock"));
    input = ws.fix();
    ASSERT_NE(input, users) << "before.lock places nothing in " << GetParam();
    ws.write_lock(lock);
    ws.write_input(input);
  }
  std::string findings = pretty_json(ws.lint_json());
  std::string output = ws.fix(extra);
  if (updating()) {
    write(dir / "expected.yaml", output);
    write(dir / "findings.json", findings);
  }
  EXPECT_EQ(output, read(dir / "expected.yaml")) << "fix output of " << GetParam();
  EXPECT_TRUE(same_json(findings, read(dir / "findings.json")))
      << "lint findings of " << GetParam() << ":\n"
      << findings;

  if (fs::exists(dir / "before.lock")) {
    // After the images changed: the same bytes as a first run on the user's text.
    ws.write_input(users);
    EXPECT_EQ(ws.fix(extra), output) << "fix after the images changed differs from a first run";
  }
  for (const std::string& law : broken_laws(ws, input))
    ADD_FAILURE() << GetParam() << ": " << law;
}

INSTANTIATE_TEST_SUITE_P(Cases, Golden, ::testing::ValuesIn(case_names()), [](const auto& test) {
  std::string name = test.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
});

TEST(GoldenSet, HasAtLeastFortyCasesEachWithAReadme) {
  EXPECT_GE(case_names().size(), 40u);
  for (const std::string& name : case_names()) {
    EXPECT_TRUE(fs::exists(golden_dir() / name / "README.md")) << name << " has no README.md";
  }
}

}  // namespace
}  // namespace archfit::testing
