// fix never loses a write: a file another program changed or replaced after
// archfit read it is left as that program left it; a replaced file keeps its
// owner and group (or is not written); hard links are not split; a symbolic
// link out of a directory is not followed unless asked; a field of a type
// Kubernetes would refuse is never overwritten.
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>

#include "support/process.hpp"
#include "support/project.hpp"

namespace archfit::testing {
namespace {

namespace fs = std::filesystem;

// Another program writes the file the way editors save: a new file renamed
// over it.
void replace_by_rename(const fs::path& path, const std::string& content) {
  fs::path temp = path.string() + ".editor-tmp";
  std::ofstream(temp, std::ios::binary) << content;
  fs::rename(temp, path);
}

// Or in place, the same number of bytes.
void overwrite_in_place(const fs::path& path, const std::string& content) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(0);
  f << content;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool has_temp_files(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (contains(e.path().filename().string(), ".archfit-")) return true;
  }
  return false;
}

TEST(SafeWrites, AFileChangedAfterItWasReadIsLeftAsTheOtherProgramLeftIt) {
  TempDir dir;
  for (int how = 0; how < 2; ++how) {
    fs::path f = dir.write("app.yaml", "original: 1\n");
    FileIdentity read_as;
    ASSERT_EQ(read_file(f, ReadLimit{kMaxManifestBytes, "a test file"}, &read_as), "original: 1\n");
    // The mtime clock may be coarse: make the change visible in size too for
    // the rename, and in content only (same size) for the in-place write.
    if (how == 0) {
      replace_by_rename(f, "theirs: 22\n");
    } else {
      ::usleep(20000);
      overwrite_in_place(f, "changed: 1\n");
    }
    std::string theirs = read_file(f);
    std::string message =
        error_of([&] { PendingWrite(f, {std::string_view("ours: 1\n")}, &read_as).commit(); });
    EXPECT_TRUE(contains(message, "cannot write " + f.string() +
                                      ": it changed since archfit read it (another program "
                                      "wrote or replaced it); it is left as that program wrote "
                                      "it: run archfit again"))
        << message;
    EXPECT_EQ(read_file(f), theirs);
    EXPECT_FALSE(has_temp_files(dir.path()));
  }
}

TEST(SafeWrites, AChangeBetweenPreparingAndRenamingIsCaughtToo) {
  TempDir dir;
  fs::path f = dir.write("app.yaml", "original: 1\n");
  FileIdentity read_as;
  read_file(f, ReadLimit{kMaxManifestBytes, "a test file"}, &read_as);
  PendingWrite pending(f, {std::string_view("ours: 1\n")}, &read_as);
  replace_by_rename(f, "theirs: 22\n");
  EXPECT_TRUE(contains(error_of([&] { pending.check_unchanged(); }), "it changed since"));
  EXPECT_TRUE(contains(error_of([&] { pending.commit(); }), "it changed since"));
  EXPECT_EQ(read_file(f), "theirs: 22\n");
  EXPECT_FALSE(has_temp_files(dir.path()));
  // Unchanged, it is written.
  FileIdentity again;
  read_file(f, ReadLimit{kMaxManifestBytes, "a test file"}, &again);
  PendingWrite(f, {std::string_view("ours: 1\n")}, &again).commit();
  EXPECT_EQ(read_file(f), "ours: 1\n");
}

TEST(SafeWrites, HardLinkedFilesAreNotSplit) {
  Project p;
  fs::path f = p.write("app.yaml", needs_fix("app"));
  fs::path other = p / "also-app.yaml.bak";
  fs::create_hard_link(f, other);
  ProcessResult r = p.run({"fix", "app.yaml"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err,
                       "cannot write app.yaml: the file has 2 hard links, and replacing "
                       "it would leave the others with the old content"))
      << r.err;
  EXPECT_EQ(read_file(f), needs_fix("app"));
  EXPECT_EQ(fs::hard_link_count(f), 2u);
  // stdin to stdout is the way through, as the message says.
  ProcessResult piped = p.run({"fix", "-"}, needs_fix("app"));
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_TRUE(contains(piped.out, "kubernetes.io/arch"));
}

TEST(SafeWrites, OwnerAndGroupAreKept) {
  Project p;
  fs::path f = p.write("app.yaml", needs_fix("app"));
  struct stat before {};
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown(f.c_str(), 4321, 4322), 0);
  }
  ASSERT_EQ(::stat(f.c_str(), &before), 0);
  ProcessResult r = p.run({"fix", "app.yaml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  struct stat after {};
  ASSERT_EQ(::stat(f.c_str(), &after), 0);
  EXPECT_NE(after.st_ino, before.st_ino);  // replaced
  EXPECT_EQ(after.st_uid, before.st_uid);
  EXPECT_EQ(after.st_gid, before.st_gid);
}

TEST(SafeWrites, AnOwnerThatCannotBeKeptMeansTheFileIsNotWritten) {
  // Run as nobody on root's world-writable file in a world-writable
  // directory: nobody can write it, but cannot give the new file to root.
  ASSERT_EQ(::geteuid(), 0u) << "this test runs archfit as another user; it needs root";
  TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0);
  fs::path f = dir.write("app.yaml", needs_fix("app"));
  dir.write(".archfit.yaml", kProjectConfig);
  fs::path lock = dir.write("archfit.lock", kProjectLock);
  ASSERT_EQ(::chmod(f.c_str(), 0666), 0);
  ASSERT_EQ(::chmod(lock.c_str(), 0644), 0);
  ProcessOptions o;
  o.cwd = dir.path();
  o.env = {"ARCHFIT_CONFIG=", "HOME=/nonexistent"};
  ProcessResult r =
      run_process({"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ARCHFIT_BINARY,
                   "fix", "--offline", "--cache-dir", (dir / "cache").string(), "app.yaml"},
                  o);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "cannot write app.yaml: cannot keep its owner and group (0:0)"))
      << r.err;
  EXPECT_EQ(read_file(f), needs_fix("app"));
  EXPECT_FALSE(has_temp_files(dir.path()));
}

TEST(SafeWrites, ALinkOutOfTheDirectoryIsNotFollowedUnlessAsked) {
  Project p;
  fs::path outside = p.write("elsewhere/shared.yaml", needs_fix("shared"));
  fs::path inside = p.write("deploy/app.yaml", needs_fix("app"));
  fs::create_symlink(outside, p / "deploy/shared.yaml");
  // A second name for a file inside the directory is read once.
  fs::create_symlink("app.yaml", p / "deploy/alias.yaml");

  ProcessResult r = p.run({"fix", "deploy"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "skipped deploy/shared.yaml: a symbolic link to " +
                                  fs::canonical(outside).string() +
                                  ", outside deploy (--follow-symlinks takes it)"))
      << r.err;
  EXPECT_EQ(read_file(outside), needs_fix("shared"));
  EXPECT_TRUE(contains(read_file(inside), "kubernetes.io/arch"));
  EXPECT_TRUE(fs::is_symlink(p / "deploy/alias.yaml"));

  ProcessResult followed = p.run({"fix", "--follow-symlinks", "deploy"});
  EXPECT_EQ(followed.exit_code, 0) << followed.err;
  EXPECT_TRUE(contains(read_file(outside), "kubernetes.io/arch"));
  EXPECT_TRUE(fs::is_symlink(p / "deploy/shared.yaml"));

  // lint reads what fix would write: the same files.
  fs::path second = p.write("elsewhere/second.yaml", needs_fix("second"));
  fs::create_symlink(second, p / "deploy/second.yaml");
  ProcessResult lint = p.run({"lint", "deploy"});
  EXPECT_TRUE(contains(lint.err, "skipped deploy/second.yaml")) << lint.err;
  EXPECT_FALSE(contains(lint.out, "second")) << lint.out;
}

TEST(SafeWrites, FieldsOfAnotherTypeAreNeverOverwritten) {
  struct Row {
    std::string field;  // under the pod template
    std::string rule;
  };
  for (const Row& row : std::vector<Row>{
           {"    spec:\n      tolerations: \"see runbook\"\n", "invalid-toleration"},
           {"    spec:\n      affinity: keep-this-string\n", "invalid-node-affinity"},
           {"    metadata: |\n      some text\n    spec:\n", "uneditable-yaml"},
           {"    metadata:\n      annotations: [keep-me]\n    spec:\n", "uneditable-yaml"},
       }) {
    Project p;
    std::string input =
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n"
        "  template:\n" +
        row.field +
        "      containers:\n      - name: app\n        image: "
        "amd64only:1\n";
    fs::path f = p.write("app.yaml", input);
    ProcessResult r = p.run({"fix", "app.yaml"});
    EXPECT_EQ(r.exit_code, 1) << row.field << r.err;
    EXPECT_TRUE(contains(r.err, "error " + row.rule)) << r.err;
    EXPECT_TRUE(contains(r.err, "archfit leaves this template alone")) << r.err;
    EXPECT_EQ(read_file(f), input) << row.field;
  }
}

}  // namespace
}  // namespace archfit::testing
