#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>

#include "support/process.hpp"

namespace archfit {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
  return st.st_mode & 07777;
}

TEST(AtomicWrite, CreatesAFileThatDoesNotExistYet) {
  TempDir tmp;
  write_atomically(tmp / "new.lock", "data\n");
  EXPECT_EQ(slurp(tmp / "new.lock"), "data\n");
  EXPECT_EQ(mode_of(tmp / "new.lock"), 0644u);
  EXPECT_EQ(testing::entries_in(tmp.path()), 1u) << "no temp file left";
}

TEST(AtomicWrite, ReplacesContentAndKeepsTheMode) {
  TempDir tmp;
  fs::path file = tmp.write("a.yaml", "old");
  ASSERT_EQ(::chmod(file.c_str(), 0640), 0);
  write_atomically(file, "new");
  EXPECT_EQ(slurp(file), "new");
  EXPECT_EQ(mode_of(file), 0640u);
  EXPECT_EQ(testing::entries_in(tmp.path()), 1u);
}

TEST(AtomicWrite, WritesThroughASymlinkAndKeepsTheLink) {
  TempDir tmp;
  fs::path real = tmp.write("real.yaml", "old");
  fs::create_symlink("real.yaml", tmp / "link.yaml");
  write_atomically(tmp / "link.yaml", "new");
  EXPECT_TRUE(fs::is_symlink(tmp / "link.yaml"));
  EXPECT_EQ(slurp(real), "new");
}

TEST(AtomicWrite, RefusesAReadOnlyFileAndLeavesItAlone) {
  TempDir tmp;
  fs::path file = tmp.write("ro.yaml", "keep");
  ASSERT_EQ(::chmod(file.c_str(), 0444), 0);
  try {
    write_atomically(file, "lost");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("cannot write " + file.string() + ": the file is read-only"),
        std::string::npos)
        << e.what();
  }
  EXPECT_EQ(slurp(file), "keep");
  EXPECT_EQ(testing::entries_in(tmp.path()), 1u);
}

TEST(AtomicWrite, AMissingDirectoryIsNamed) {
  TempDir tmp;
  fs::path file = tmp / "no" / "such" / "a.lock";
  try {
    write_atomically(file, "x");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write " + file.string()), std::string::npos);
  }
}

}  // namespace
}  // namespace archfit
