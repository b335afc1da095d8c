// The command line as a user meets it: exit codes and messages.
#include <gtest/gtest.h>

#include "support/process.hpp"

namespace archfit::testing {
namespace {

TEST(Cli, VersionPrintsVersion) {
  ProcessResult r = run_archfit({"version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("archfit ", 0), 0u) << r.out;
}

// Only the command named is set up; help and anything else see them all.
TEST(Cli, HelpListsEveryCommandAndEachCommandHasItsOwn) {
  const char* commands[] = {"fix",   "lint",        "resolve", "lock",   "images",
                            "cache", "post-render", "krm",     "version"};
  ProcessResult all = run_archfit({"--help"});
  EXPECT_EQ(all.exit_code, 0);
  for (const char* c : commands) {
    EXPECT_NE(all.out.find(std::string("\n  ") + c + " "), std::string::npos) << c << all.out;
    ProcessResult one = run_archfit({c, "--help"});
    EXPECT_EQ(one.exit_code, 0) << c << one.err;
    EXPECT_NE(one.out.find(std::string("archfit ") + c), std::string::npos) << c << one.out;
  }
  ProcessResult wrong = run_archfit({"fixx"});
  EXPECT_EQ(wrong.exit_code, 2);
}

TEST(Cli, NoSubcommandIsUsageError) {
  ProcessResult r = run_archfit({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("subcommand"), std::string::npos) << r.err;
}

// What cannot be read is named at its place and left out; the rest is
// listed, and the exit status says something was left out.
TEST(Cli, InvalidYamlNamesFileLineColumn) {
  TempDir dir;
  dir.write("bad.yaml",
            "apiVersion: v1\nkind: Pod\nspec: {containers: [{name: a, image: a:1}]}\n---\n"
            "metadata:\n  name: a: b\n");
  dir.write("dup.yaml",
            "kind: Pod\nmetadata: {name: x, name: y}\n---\napiVersion: v1\nkind: Pod\n"
            "spec: {containers: [{name: b, image: b:1}]}\n");
  ProcessResult r =
      run_archfit({"images", (dir / "bad.yaml").string(), (dir / "dup.yaml").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, (dir / "bad.yaml").string() +
                       ":6:10: error unreadable-file: cannot parse YAML: mapping values are not "
                       "allowed in this context; archfit leaves the rest of the file out\n" +
                       (dir / "dup.yaml").string() +
                       ":2:21: error invalid-document: duplicate key \"name\" (first at line 2, "
                       "column 12): a key may be given only once in a mapping (the API server "
                       "refuses manifests that repeat one); remove one of them; archfit leaves "
                       "this document out\n");
  EXPECT_TRUE(contains(r.out, "docker.io/library/a:1")) << r.out;
  EXPECT_TRUE(contains(r.out, "docker.io/library/b:1")) << r.out;
}

TEST(Cli, InvalidYamlOnStdin) {
  ProcessOptions o;
  o.stdin_data = "a: [1,\n";
  ProcessResult r = run_archfit({"images"}, o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("<stdin>:2:1: error unreadable-file: cannot parse YAML:", 0), 0u) << r.err;
}

TEST(Cli, MissingFileAndEmptyDirectory) {
  TempDir dir;
  ProcessResult missing = run_archfit({"images", (dir / "nope.yaml").string()});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("cannot read " + (dir / "nope.yaml").string()), std::string::npos)
      << missing.err;
  dir.write("empty/readme.txt", "not a manifest");
  ProcessResult empty = run_archfit({"images", (dir / "empty").string()});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("no manifests (*.yaml, *.yml) in directory"), std::string::npos)
      << empty.err;
}

TEST(Cli, ImagesWalksDirectoriesSortedSkippingHidden) {
  TempDir dir;
  std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
      "  - name: c\n    image: ";
  dir.write("m/b.yml", pod + "b:1\n");
  dir.write("m/a.yaml", pod + "a:1\n");
  dir.write("m/.hidden/c.yaml", pod + "c:1\n");
  dir.write("m/notes.txt", pod + "d:1\n");
  dir.write("m/.archfit.yaml", pod + "e:1\n");
  ProcessResult r = run_archfit({"images", (dir / "m").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string m = (dir / "m").string();
  EXPECT_EQ(r.out, m + "/a.yaml:7:12: docker.io/library/a:1  (Pod p, container c)\n" + m +
                       "/b.yml:7:12: docker.io/library/b:1  (Pod p, container c)\n");
}

}  // namespace
}  // namespace archfit::testing
