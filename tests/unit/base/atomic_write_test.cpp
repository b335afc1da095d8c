#include <csignal>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
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

// A file of many edited documents is written from thousands of parts (the
// edits and the bytes between them), many to a system call: each arrives
// whole and in order, empty ones included, across batches.
TEST(AtomicWrite, ManyPartsArriveWholeAndInOrder) {
  TempDir tmp;
  fs::path file = tmp.write("many.yaml", "old");
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < 5000; ++i)
    texts.push_back(std::string((i * 7919) % 3001, static_cast<char>('a' + i % 26)));
  std::vector<std::string_view> parts(texts.begin(), texts.end());
  std::string whole;
  for (std::string_view part : parts)
    whole += part;
  PendingWrite(file, parts).commit();
  EXPECT_EQ(slurp(file), whole);
  EXPECT_EQ(testing::entries_in(tmp.path()), 1u) << "no temp file left";
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

TEST(AtomicWrite, RefusesWhatIsNotARegularFile) {
  TempDir tmp;
  fs::path fifo = tmp / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  for (const fs::path& target : {fifo, fs::path("/dev/null"), tmp.path()}) {
    try {
      write_atomically(target, "x");
      FAIL() << "expected an error for " << target;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("cannot write " + target.string() +
                                           ": it is not a regular file"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_EQ(testing::entries_in(tmp.path()), 1u) << "nothing left beside the FIFO";
}

// Streamed: the content arrives in pieces of every size, as reports are written.
TEST(StreamedWrite, PiecesOfAnySizeArriveWholeAndInOrder) {
  TempDir tmp;
  fs::path file = tmp.write("report.json", "old");
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  std::string expected;
  {
    StreamedWrite w(file);
    for (std::size_t n = 0; n < 400; ++n) {
      // 0 to ~200 KiB pieces: below, at and above the 64 KiB chunk.
      std::string piece((n * 7919) % (200 * 1024) / (n % 3 == 0 ? 1 : 97),
                        static_cast<char>('a' + n % 26));
      expected += piece;
      w.out() << piece;
    }
    EXPECT_EQ(slurp(file), "old") << "the file is replaced only by commit()";
    w.commit();
  }
  EXPECT_EQ(slurp(file), expected);
  EXPECT_EQ(mode_of(file), 0600u);
  EXPECT_EQ(testing::entries_in(tmp.path()), 1u);
}

TEST(StreamedWrite, WithoutCommitNothingChangesAndNothingIsLeft) {
  TempDir tmp;
  fs::path kept = tmp.write("kept.sarif", "old");
  {
    StreamedWrite w(kept);
    w.out() << std::string(300 * 1024, 'x');
    StreamedWrite fresh(tmp / "fresh.sarif");
    fresh.out() << "y";
    // While they are written, the replacements have no name where the file
    // system allows: a run killed now leaves nothing beside the reports.
    EXPECT_EQ(testing::entries_in(tmp.path()), 1u);
  }
  EXPECT_EQ(slurp(kept), "old");
  EXPECT_FALSE(fs::exists(tmp / "fresh.sarif"));
  EXPECT_EQ(testing::entries_in(tmp.path()), 1u);
}

TEST(StreamedWrite, AWriteThatFailsIsThrownByCommitAndChangesNothing) {
  TempDir tmp;
  fs::path file = tmp.write("big.json", "old");
  // A file size limit makes the write fail (EFBIG) once the file would pass it.
  struct sigaction ignore {
  }, before{};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGXFSZ, &ignore, &before), 0);
  struct rlimit was {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &was), 0);
  struct rlimit small = was;
  small.rlim_cur = 100 * 1024;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  {
    StreamedWrite w(file);
    for (int i = 0; i < 10; ++i)
      w.out() << std::string(64 * 1024, 'z');
    try {
      w.commit();
    } catch (const Error& e) {
      message = e.what();
    }
  }
  ::setrlimit(RLIMIT_FSIZE, &was);
  ::sigaction(SIGXFSZ, &before, nullptr);
  EXPECT_NE(message.find("cannot write " + file.string() + ": File too large"), std::string::npos)
      << message;
  EXPECT_EQ(slurp(file), "old");
  EXPECT_EQ(testing::entries_in(tmp.path()), 1u);
}

}  // namespace
}  // namespace archfit
