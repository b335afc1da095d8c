// The one open of files a repository names: inside it, links and all.
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <archfit/base/confined.hpp>
#include <archfit/base/error.hpp>

namespace archfit {
namespace {

namespace fs = std::filesystem;

class Confined : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    confined_by_walk_only(GetParam());
    base_ = fs::temp_directory_path() / ("archfit-confined-" + std::to_string(::getpid()));
    fs::remove_all(base_);
    root_ = base_ / "repo";
    fs::create_directories(root_ / "dir" / "sub");
    write(base_ / "secret", "ghs_S3CR3T");
    write(root_ / "dir" / "config.yaml", "kind: ArchFit\n");
    fs::create_symlink("config.yaml", root_ / "dir" / "inside");
    fs::create_symlink("../sub/../config.yaml", root_ / "dir" / "sub" / "up-and-in");
    fs::create_symlink("../../secret", root_ / "dir" / "out");
    fs::create_symlink((base_ / "secret").string(), root_ / "absolute");
    fs::create_symlink("..", root_ / "parent");
    fs::create_symlink("loop2", root_ / "loop1");
    fs::create_symlink("loop1", root_ / "loop2");
    ::mkfifo((root_ / "fifo").c_str(), 0600);
  }
  void TearDown() override {
    confined_by_walk_only(false);
    fs::remove_all(base_);
  }
  static void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
  std::string read(const fs::path& p) {
    return read_confined(root_, p, ReadLimit{1 << 20, "a test file"});
  }
  // The message of what reading `p` throws.
  std::string refusal(const fs::path& p) {
    try {
      read(p);
    } catch (const Error& e) {
      return e.message();
    }
    return "read";
  }

  fs::path base_;
  fs::path root_;
};

TEST_P(Confined, ReadsWhatLiesInsideLinksAndAll) {
  EXPECT_EQ(read(root_ / "dir" / "config.yaml"), "kind: ArchFit\n");
  EXPECT_EQ(read(root_ / "dir" / "inside"), "kind: ArchFit\n");
  EXPECT_EQ(read(root_ / "dir" / "sub" / "up-and-in"), "kind: ArchFit\n");
  EXPECT_EQ(read(root_ / "dir" / "sub" / ".." / "config.yaml"), "kind: ArchFit\n");
  EXPECT_EQ(resolve_confined(root_, root_ / "dir" / "inside"),
            fs::canonical(root_ / "dir" / "config.yaml"));
  EXPECT_EQ(resolve_confined(root_, root_ / "dir", true), fs::canonical(root_ / "dir"));
}

TEST_P(Confined, RefusesWhatLeadsOutAndNeverReadsIt) {
  for (const fs::path& p : {root_ / "dir" / "out", root_ / "absolute", root_ / "parent" / "secret",
                            base_ / "secret", root_ / ".." / "secret"}) {
    std::string why = refusal(p);
    EXPECT_NE(why.find("archfit reads what a repository names only inside it"), std::string::npos)
        << p << ": " << why;
    EXPECT_EQ(why.find("S3CR3T"), std::string::npos) << why;
  }
}

TEST_P(Confined, RefusesWhatIsNoRegularFile) {
  EXPECT_NE(refusal(root_ / "fifo").find("not a regular file"), std::string::npos);
  EXPECT_NE(refusal(root_ / "loop1").find("symbolic links"), std::string::npos)
      << refusal(root_ / "loop1");
  EXPECT_NE(refusal(root_ / "missing").find("No such file"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(OpenAt2AndWalk, Confined, ::testing::Values(false, true));

}  // namespace
}  // namespace archfit
