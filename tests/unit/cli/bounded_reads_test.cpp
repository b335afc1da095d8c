// Every read archfit makes is bounded: a path that names a device or a FIFO
// is refused at once instead of read forever or waited on, every file has a
// size cap with a message that says which, and a stream that cannot be YAML
// fails at its first bad byte instead of being read to the end.
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/yaml/stream.hpp>

#include "support/process.hpp"
#include "support/project.hpp"

namespace archfit::testing {
namespace {

namespace fs = std::filesystem;

// A file of `bytes` bytes that takes no room (a hole).
fs::path sparse(const TempDir& dir, const std::string& name, off_t bytes) {
  fs::path path = dir / name;
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::ftruncate(fd, bytes), 0);
  ::close(fd);
  return path;
}

fs::path fifo(const TempDir& dir, const std::string& name) {
  fs::path path = dir / name;
  EXPECT_EQ(::mkfifo(path.c_str(), 0644), 0);
  return path;
}

// The reproducer: `archfit fix < /dev/zero` grew until it was killed. Every
// command that reads a stream stops at the first NUL, line 1, column 1 (a
// read to the 1 GiB cap would say so instead).
TEST(BoundedReads, AStreamThatCannotBeYamlFailsAtItsFirstByte) {
  Project p;
  for (std::vector<std::string> args : {std::vector<std::string>{"fix", "-"},
                                        {"lint", "-"},
                                        {"fix", "--diff", "-"},
                                        {"post-render"},
                                        {"krm"}}) {
    ProcessOptions o;
    o.cwd = p / "";
    o.stdin_file = "/dev/zero";
    o.env = {"HOME=" + (p / "home").string()};
    std::vector<std::string> full = args;
    full.insert(full.begin() + 1, "--offline");
    ProcessResult r = run_archfit(full, o);
    // The stream is an unreadable file (krm reads its ResourceList itself,
    // and refuses it).
    if (args[0] == "krm") {
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_TRUE(contains(r.err, ":1:1: the file holds a NUL byte")) << r.err;
    } else {
      EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
      EXPECT_TRUE(
          contains(r.out + r.err, "<stdin>:1:1: error unreadable-file: the file holds a NUL byte"))
          << args[0] << ": " << r.out << r.err;
    }
    EXPECT_FALSE(contains(r.err, "larger than")) << r.err;
  }
  // Any control character YAML never allows, at its place.
  ProcessResult r = p.run({"lint", "-"}, "apiVersion: v1\nkind: \x1b[31mPod\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.out,
                       "<stdin>:2:7: error unreadable-file: the file holds the control "
                       "character 0x1B"))
      << r.out;
}

TEST(BoundedReads, ThePieceCheckStopsTheReadAtTheFirstBadPiece) {
  TempDir dir;
  // 40 MiB of good text after a bad first line: the check sees the first
  // piece and throws before the rest is read.
  std::string text = "a: \x01\n" + std::string(40 << 20, '#');
  fs::path f = dir.write("big.yaml", text);
  std::size_t pieces = 0;
  ReadLimit limit{kMaxManifestBytes, "a manifest stream",
                  [&pieces](std::string_view all, std::size_t from) {
                    ++pieces;
                    yaml::check_stream_bytes(all, from);
                  }};
  try {
    read_file(f, limit);
    ADD_FAILURE() << "read a stream with a control character";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().line, 1u);
    EXPECT_EQ(e.where().column, 4u);
    EXPECT_TRUE(contains(e.message(), "control character 0x01")) << e.message();
  }
  EXPECT_EQ(pieces, 1u);
}

TEST(BoundedReads, PathsThatAreNotRegularFilesAreRefusedWithoutWaiting) {
  Project p;
  TempDir dir;
  fs::path pipe = fifo(dir, "fifo");
  p.write("app.yaml", needs_fix("app"));
  struct Case {
    std::vector<std::string> args;
    std::string named;
  };
  const Case cases[] = {
      {{"lint", "--lock", "/dev/zero", "app.yaml"}, "/dev/zero"},
      {{"lint", "--lock", pipe.string(), "app.yaml"}, pipe.string()},
      {{"lint", "--config", "/dev/zero", "app.yaml"}, "/dev/zero"},
      {{"lint", "--config", pipe.string(), "app.yaml"}, pipe.string()},
      {{"lint", pipe.string()}, pipe.string()},
      {{"fix", "/dev/zero"}, "/dev/zero"},
  };
  for (const Case& c : cases) {
    ProcessResult r = p.run(c.args);
    // A lock or configuration that cannot be read fails the run; a manifest
    // that cannot be read is a finding on it.
    bool manifest = c.args.size() == 2;
    EXPECT_EQ(r.exit_code, manifest ? 1 : 2) << c.args.back() << ": " << r.err;
    EXPECT_TRUE(contains(r.out + r.err, "cannot read " + c.named + ": it is a ")) << r.err;
    EXPECT_TRUE(contains(r.out + r.err, "not a regular file")) << r.err;
    if (manifest) {
      EXPECT_TRUE(contains(r.out + r.err, "error unreadable-file")) << r.out << r.err;
    }
  }
  // A docker config named by DOCKER_CONFIG that is a FIFO: the registry is
  // never asked, the credentials file is refused.
  ProcessOptions o;
  o.cwd = p / "";
  fs::create_directories(dir / "docker");
  EXPECT_EQ(::mkfifo((dir / "docker/config.json").c_str(), 0644), 0);
  o.env = {"HOME=" + (p / "home").string(), "DOCKER_CONFIG=" + (dir / "docker").string(),
           "ARCHFIT_CACHE_DIR=" + (p / "cache").string()};
  ProcessResult r = run_archfit({"resolve", "--timeout", "2s", "127.0.0.1:9/x:1"}, o);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out + r.err, "not a regular file")) << r.out << r.err;
}

// A functionConfig is a tenant's input: its lock naming /dev/zero is refused.
TEST(BoundedReads, AFunctionConfigLockNamingADeviceIsRefused) {
  Project p;
  std::string list =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n"
      "  apiVersion: archfit.io/v1alpha1\n  kind: ArchFit\n  lock: /dev/zero\n";
  ProcessResult r = p.run({"krm"}, list);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "cannot read /dev/zero: it is a character device")) << r.err;
}

TEST(BoundedReads, EveryFileHasACapThatTheMessageNames) {
  Project p;
  TempDir dir;
  p.write("app.yaml", needs_fix("app"));
  fs::path lock = sparse(dir, "archfit.lock", 65 << 20);
  fs::path config = sparse(dir, "config.yaml", 5 << 20);
  ProcessResult r = p.run({"lint", "--lock", lock.string(), "app.yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "it is larger than 64 MiB, the most archfit reads of a lock file"))
      << r.err;
  r = p.run({"lint", "--config", config.string(), "app.yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(
      contains(r.err, "it is larger than 4 MiB, the most archfit reads of a configuration file"))
      << r.err;
  // The cap is checked on what arrives as well as on the size a file says.
  ReadLimit small{1000, "a test stream"};
  fs::path f = dir.write("grows.yaml", std::string(1001, '#'));
  try {
    read_file(f, small);
    ADD_FAILURE() << "read past the cap";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.message(),
                         "larger than 1000 bytes, the most archfit reads of a test "
                         "stream"))
        << e.message();
  }
  EXPECT_EQ(read_file(dir.write("fits.yaml", std::string(1000, '#')), small).size(), 1000u);
}

}  // namespace
}  // namespace archfit::testing
