#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/spool.hpp>

#include "support/process.hpp"

namespace archfit {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

// TMPDIR set for the life of the object, then put back.
class ScopedTmpdir {
 public:
  explicit ScopedTmpdir(const std::string& dir) {
    if (const char* old = std::getenv("TMPDIR")) old_ = old;
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (old_) {
      ::setenv("TMPDIR", old_->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
  }

 private:
  std::optional<std::string> old_;
};

std::string collect(Spool& spool) {
  std::string out;
  spool.content()([&out](std::string_view part) {
    EXPECT_LE(part.size(), std::size_t{64} << 10);
    out.append(part);
  });
  return out;
}

// Writes `size` bytes that differ from position to position, in pieces of
// varying length; returns what was written.
std::string fill(std::ostream& out, std::size_t size) {
  std::string written;
  std::size_t piece = 1;
  while (written.size() < size) {
    std::string chunk;
    for (std::size_t i = 0; i < piece && written.size() + chunk.size() < size; ++i) {
      chunk += static_cast<char>('a' + (written.size() + chunk.size()) % 23);
    }
    out << chunk;
    written += chunk;
    piece = piece * 3 % 70001 + 1;
  }
  return written;
}

TEST(Spool, SmallOutputStaysInMemory) {
  TempDir tmp;
  ScopedTmpdir scoped(tmp.path().string());
  Spool spool(1000);
  std::string written = fill(spool.out(), 999);
  EXPECT_EQ(collect(spool), written);
  EXPECT_FALSE(spool.spilled());
  EXPECT_EQ(testing::entries_in(tmp.path()), 0u);
}

TEST(Spool, LargeOutputGoesToAnUnnamedTemporaryFileAndComesBackWhole) {
  TempDir tmp;
  ScopedTmpdir scoped(tmp.path().string());
  Spool spool(1000);
  std::string written = fill(spool.out(), 300'000);
  EXPECT_EQ(collect(spool), written);
  EXPECT_TRUE(spool.spilled());
  EXPECT_EQ(testing::entries_in(tmp.path()), 0u) << "the temporary file has no name";
  // Read twice, the same; written to after reading, it goes on.
  EXPECT_EQ(collect(spool), written);
  written += fill(spool.out(), 1000);
  EXPECT_EQ(collect(spool), written);
}

TEST(Spool, WithoutATemporaryDirectoryItStaysInMemory) {
  TempDir tmp;
  ScopedTmpdir scoped((tmp / "missing").string());
  Spool spool(1000);
  std::string written = fill(spool.out(), 200'000);
  EXPECT_FALSE(spool.spilled());
  EXPECT_EQ(collect(spool), written);
}

TEST(Spool, ItsContentIsWrittenAtomically) {
  TempDir tmp;
  ScopedTmpdir scoped(tmp.path().string());
  Spool spool(1000);
  std::string written = fill(spool.out(), 150'000);
  fs::create_directory(tmp / "out");
  write_atomically(tmp / "out" / "report.txt", spool.content());
  std::ifstream in(tmp / "out" / "report.txt", std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str(), written);
  EXPECT_EQ(testing::entries_in(tmp / "out"), 1u);
}

// view(): the whole of it at once, from memory or mapped from the file.
TEST(Spool, ItsViewIsWhatWasWrittenWhereverItIs) {
  TempDir tmp;
  ScopedTmpdir scoped(tmp.path().string());
  Spool in_memory;
  std::string small = fill(in_memory.out(), 1000);
  EXPECT_EQ(in_memory.view(), small);
  EXPECT_FALSE(in_memory.spilled());
  Spool on_disk(0);
  std::string large = fill(on_disk.out(), 300'000);
  EXPECT_EQ(on_disk.view(), large);
  EXPECT_TRUE(on_disk.spilled());
  // Written to again, the view is made anew.
  on_disk.out() << "and more";
  EXPECT_EQ(on_disk.view(), large + "and more");
  Spool empty(0);
  EXPECT_EQ(empty.view(), "");
}

}  // namespace
}  // namespace archfit
