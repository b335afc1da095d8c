// `archfit fix` and `archfit lint` as a user runs them: what is written, what
// is printed, the exit codes, and bad input — which gets a message naming the
// file (and line and column where there is one), exit 2, and leaves every
// file as it was.
#include <filesystem>
#include <sys/stat.h>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <archfit/base/file.hpp>

#include "support/process.hpp"
#include "support/project.hpp"

namespace archfit::testing {
namespace {

namespace fs = std::filesystem;

fs::file_time_type mtime(const fs::path& p) {
  return fs::last_write_time(p);
}

// A pod spec whose first key is explicit ("? tolerations"): its entries
// stand at the "?", not at the key. An edit put at the key's column would
// land in the last container; it is never reported as a fix.
TEST(FixCommand, AnExplicitFirstKeyIsNeverEditedWrong) {
  Project p;
  const std::string input =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n"
      "    spec:\n      ? tolerations\n      : - key: a\n          operator: Exists\n"
      "      containers:\n      - name: app\n        image: amd64only:1\n";
  ProcessResult r = p.run({"fix", "-"}, input);
  // Not an internal error (the grafted tree checked against a parse, as every
  // test run does): a finding, exit 1.
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // Either the document is unchanged and the template uneditable, or what
  // was written parses to a pod spec with its affinity beside containers.
  if (r.out == input) {
    EXPECT_TRUE(contains(r.err, "uneditable-yaml")) << r.err;
  } else {
    EXPECT_EQ(r.out.find("        affinity:"), std::string::npos) << r.out;
  }
  EXPECT_EQ(p.run({"fix", "-"}, r.out).out, r.out);  // nothing more the second time
}

TEST(FixCommand, WritesInPlaceAndSaysSo) {
  Project p;
  fs::path f = p.write("app.yaml", needs_fix("app"));
  ProcessResult r = p.run({"fix", "app.yaml"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "fixed app.yaml")) << r.err;
  std::string out = read_file(f);
  EXPECT_TRUE(contains(out, "archfit.io/platforms: linux/amd64")) << out;
  EXPECT_TRUE(contains(out, "kubernetes.io/arch")) << out;
  // A second run has nothing left to do.
  ProcessResult again = p.run({"fix", "--check", "app.yaml"});
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
}

// --quiet prints only errors: what fix leaves at severity error is still said
// (the kustomize plugin runs fix --quiet, and shows stderr when it fails).
TEST(FixCommand, QuietStillSaysTheErrorsFixLeaves) {
  Project p;
  // The project's configuration has resolve.onUnresolved: fail.
  std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
      "  - {name: a, image: \"registry.invalid/x:1\"}\n";
  ProcessResult r = p.run({"fix", "--quiet", "-"}, pod);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_TRUE(contains(r.err, "error unresolved-image")) << r.err;
  ProcessResult warn = p.run({"fix", "--quiet", "-"}, needs_toleration("t"));
  EXPECT_EQ(warn.exit_code, 0) << warn.err;
  EXPECT_TRUE(warn.err.empty()) << warn.err;
}

TEST(FixCommand, KeepsTheFileMode) {
  Project p;
  fs::path f = p.write("app.yaml", needs_fix("app"));
  ASSERT_EQ(::chmod(f.c_str(), 0640), 0);
  ASSERT_EQ(p.run({"fix", "app.yaml"}).exit_code, 0);
  struct stat st {};
  ASSERT_EQ(::stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
}

TEST(FixCommand, StdinToStdoutEqualsTheInPlaceResult) {
  Project p;
  std::string input = needs_fix("app");
  fs::path f = p.write("app.yaml", input);
  ProcessResult piped = p.run({"fix", "-"}, input);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  ASSERT_EQ(p.run({"fix", "app.yaml"}).exit_code, 0);
  EXPECT_EQ(piped.out, read_file(f));
  EXPECT_NE(piped.out, input);
}

TEST(FixCommand, CheckAndDiffWriteNothing) {
  Project p;
  std::string input = needs_fix("app");
  fs::path f = p.write("app.yaml", input);

  ProcessResult check = p.run({"fix", "--check", "app.yaml"});
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_EQ(check.out, "would change app.yaml\n");

  ProcessResult diff = p.run({"fix", "--diff", "app.yaml"});
  EXPECT_EQ(diff.exit_code, 1);
  EXPECT_TRUE(contains(diff.out, "--- a/app.yaml\n+++ b/app.yaml\n@@ ")) << diff.out;
  EXPECT_TRUE(contains(diff.out, "\n+              - key: kubernetes.io/arch\n")) << diff.out;
  EXPECT_EQ(read_file(f), input);

  ProcessResult both = p.run({"fix", "--check", "--diff", "app.yaml"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_TRUE(contains(both.err, "--check and --diff cannot be used together")) << both.err;
}

// A line fix replaces (`affinity: {}` as charts render it) is shown taken out
// just before what takes its place, not in the middle of it.
TEST(FixCommand, DiffShowsAReplacedLineBeforeItsReplacement) {
  Project p;
  // As charts render it: indented lists, labels in the template's metadata
  // (the annotations go there, a hunk of their own), `affinity: {}` last.
  p.write("app.yaml",
          "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\nspec:\n  template:\n"
          "    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n"
          "        - name: app\n          image: amd64only:1\n      tolerations: []\n"
          "      affinity: {}\n");
  ProcessResult diff = p.run({"fix", "--diff", "app.yaml"});
  ASSERT_EQ(diff.exit_code, 1) << diff.err;
  EXPECT_TRUE(contains(diff.out,
                       "\n       tolerations: []\n-      affinity: {}\n+      affinity:\n"
                       "+        nodeAffinity:\n"))
      << diff.out;
}

// The reproducer: 3,000 small Deployments in one file, all changed, made the
// diff keep a copy of its search state per step (23.7 GB before it was
// killed). The patch git applies is what fix writes.
TEST(FixCommand, DiffOfThousandsOfChangedDocumentsIsWhatFixWrites) {
  Project p;
  std::string input;
  for (int i = 0; i < 3000; ++i)
    input += "---\n" + needs_fix("app-" + std::to_string(i));
  fs::path f = p.write("apps.yaml", input);
  ProcessResult diff = p.run({"fix", "--diff", "apps.yaml"});
  ASSERT_EQ(diff.exit_code, 1) << diff.err;
  p.write("change.patch", diff.out);
  ProcessOptions o;
  o.cwd = p / "";
  ProcessResult applied = run_process({"git", "apply", "change.patch"}, o);
  ASSERT_EQ(applied.exit_code, 0) << applied.err;
  std::string patched = read_file(f);
  p.write("apps.yaml", input);
  ASSERT_EQ(p.run({"fix", "apps.yaml"}).exit_code, 0);
  EXPECT_EQ(patched, read_file(f));
}

// A directory named with a newline: the diff names the file as git quotes it,
// and --changed-files lists the names NUL-separated, exactly.
TEST(FixCommand, NamesWithNewlinesAreQuotedInTheDiffAndExactInTheList) {
  using namespace std::string_literals;
  Project p;
  p.write("deploy/x\nteam/app.yaml", needs_fix("app"));
  p.write("deploy/team/app.yaml", needs_fix("app"));
  p.write("deploy/x/ok.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
  ProcessResult diff = p.run({"fix", "--diff", "--changed-files", "changed", "deploy"});
  ASSERT_EQ(diff.exit_code, 1) << diff.err;
  EXPECT_TRUE(contains(diff.out,
                       "--- \"a/deploy/x\\nteam/app.yaml\"\n+++ \"b/deploy/x\\nteam/app.yaml\"\n"))
      << diff.out;
  EXPECT_FALSE(contains(diff.out, "+++ b/deploy/x/")) << diff.out;
  EXPECT_EQ(read_file(p / "changed"), "deploy/team/app.yaml\0deploy/x\nteam/app.yaml\0"s);
  // The patch applies: git reads the quoted name back.
  p.write("change.patch", diff.out);
  ProcessOptions o;
  o.cwd = p / "";
  ProcessResult applied = run_process({"git", "apply", "change.patch"}, o);
  EXPECT_EQ(applied.exit_code, 0) << applied.err;
  EXPECT_TRUE(contains(read_file(p / "deploy/x\nteam/app.yaml"), "archfit.io/owned"));
  // fix writes the same list of what it changed; nothing left, nothing listed.
  p.write("deploy/team/app.yaml", needs_fix("app"));
  ASSERT_EQ(p.run({"fix", "--changed-files", "fixed", "deploy"}).exit_code, 0);
  EXPECT_EQ(read_file(p / "fixed"), "deploy/team/app.yaml\0"s);
  ASSERT_EQ(p.run({"fix", "--check", "--changed-files", "none", "deploy"}).exit_code, 0);
  EXPECT_EQ(read_file(p / "none"), "");
}

TEST(FixCommand, RemoveTakesOutWhatFixAdded) {
  Project p;
  std::string input = needs_fix("app");
  fs::path f = p.write("app.yaml", input);
  ASSERT_EQ(p.run({"fix", "app.yaml"}).exit_code, 0);
  ASSERT_NE(read_file(f), input);
  ProcessResult r = p.run({"fix", "--remove", "app.yaml"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(f), input);
}

// A syntax error stops its file, named at its place; the other files are
// fixed and written.
TEST(FixCommand, ASyntaxErrorStopsOnlyItsFile) {
  Project p;
  std::string good = needs_fix("good");
  fs::path a = p.write("a.yaml", good);
  fs::path b = p.write("b.yaml", needs_fix("b") + "---\nitems: [1, 2\n");
  ProcessResult r = p.run({"fix", "a.yaml", "b.yaml"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "b.yaml:13:1: error unreadable-file: cannot parse YAML")) << r.err;
  EXPECT_TRUE(contains(r.err, "archfit leaves the whole file as it is")) << r.err;
  EXPECT_TRUE(contains(r.err, "fixed a.yaml")) << r.err;
  EXPECT_NE(read_file(a), good);
  EXPECT_EQ(read_file(b), needs_fix("b") + "---\nitems: [1, 2\n");
}

// Input archfit cannot read, or a document it cannot edit byte for byte, is
// reported the same way by lint and fix, naming where; the other file is
// fixed, and nothing of the bad one is written.
TEST(FixCommand, UnsupportedEncodingsAndKeysGivenTwiceAreFindings) {
  struct Bad {
    const char* name;
    std::string text;
    std::string message;  // after "b.yaml:"
  };
  std::string utf16;
  for (char c : std::string("apiVersion: v1\n")) {
    utf16 += c;
    utf16 += '\0';
  }
  std::string crlf_lone = "apiVersion: v1\r\nkind: Pod\rmetadata: {}\r\n";
  const Bad cases[] = {
      {"utf16_bom", "\xFF\xFE" + utf16, "1:1: error unreadable-file: the file is UTF-16"},
      {"utf32_bom", std::string("\xFF\xFE\0\0a\0\0\0", 8),
       "1:1: error unreadable-file: the file is UTF-32"},
      {"utf16_without_bom", utf16, "1:2: error unreadable-file: the file holds a NUL byte"},
      {"lone_cr", crlf_lone,
       "2:10: error unreadable-file: a line ends with a lone carriage return"},
      {"spec_twice", needs_fix("b") + "spec: {}\n",
       "11:1: error invalid-document: duplicate key \"spec\" (first at line 5, column 1)"},
      {"image_twice", needs_fix("b") + "        image: other:1\n",
       "11:9: error invalid-document: duplicate key \"image\" (first at line 10, column 9)"},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.name);
    Project p;
    fs::path a = p.write("a.yaml", needs_fix("a"));
    fs::path b = p.write("b.yaml", c.text);
    for (auto args : {std::vector<std::string>{"lint", "a.yaml", "b.yaml"},
                      std::vector<std::string>{"fix", "--check", "a.yaml", "b.yaml"},
                      std::vector<std::string>{"lint", "--fail-on", "never", "a.yaml", "b.yaml"},
                      std::vector<std::string>{"fix", "a.yaml", "b.yaml"}}) {
      ProcessResult r = p.run(args);
      EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
      EXPECT_TRUE(contains(r.out + r.err, "b.yaml:" + c.message))
          << args[0] << ": " << r.out << r.err;
      EXPECT_EQ(read_file(b), c.text);
    }
    EXPECT_NE(read_file(a), needs_fix("a")) << "fix wrote the good file";
  }
}

TEST(FixCommand, InvalidYamlOnStdinPrintsNothingOnStdout) {
  Project p;
  ProcessResult r = p.run({"fix", "-"}, "a: [1\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "<stdin>:2:1: error unreadable-file: cannot parse YAML")) << r.err;
}

TEST(FixCommand, InvalidConfigurationNamesItsLineAndTouchesNothing) {
  Project p;
  std::string input = needs_fix("app");
  fs::path f = p.write("app.yaml", input);
  p.write("bad-config.yaml", "clusterPlatforms: [linux/amd64]\nplacment:\n  mode: affinity\n");
  ProcessResult r = p.run({"fix", "--config", "bad-config.yaml", "app.yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "bad-config.yaml:2:1: placment: unknown key")) << r.err;
  EXPECT_TRUE(contains(r.err, "did you mean \"placement\"")) << r.err;
  EXPECT_EQ(read_file(f), input);
}

TEST(FixCommand, UnreadableFileIsNamed) {
  Project p;
  fs::path f = p.write("app.yaml", needs_fix("app"));
  fs::create_symlink("gone.yaml", p / "dangling.yaml");
  ProcessResult r = p.run({"fix", "app.yaml", "dangling.yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "cannot read dangling.yaml: No such file or directory")) << r.err;
  EXPECT_EQ(read_file(f), needs_fix("app"));

  ProcessResult missing = p.run({"fix", "nothere.yaml"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.err, "nothere.yaml")) << missing.err;
}

TEST(FixCommand, DirectoryWithoutManifestsIsAnError) {
  Project p;
  fs::create_directories(p / "empty");
  p.write("empty/README.md", "no manifests here\n");
  ProcessResult r = p.run({"fix", "empty"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "no manifests (*.yaml, *.yml) in directory empty")) << r.err;
}

TEST(FixCommand, AFileThatCannotBeWrittenMeansNoFileIsWritten) {
  Project p;
  std::string input = needs_fix("ro");
  fs::path ro = p.write("ro.yaml", input);
  fs::path rw = p.write("rw.yaml", needs_fix("rw"));
  ASSERT_EQ(::chmod(ro.c_str(), 0444), 0);
  auto before = mtime(ro);
  auto rw_before = mtime(rw);
  // ro.yaml comes first and last on the command line: neither order writes rw.yaml.
  for (auto args : {std::vector<std::string>{"fix", "ro.yaml", "rw.yaml"},
                    std::vector<std::string>{"fix", "rw.yaml", "ro.yaml"}}) {
    ProcessResult r = p.run(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "cannot write ro.yaml: the file is read-only")) << r.err;
    EXPECT_TRUE(
        contains(r.err, "1 of 2 changed files cannot be written, so no file was written: ro.yaml"))
        << r.err;
    EXPECT_EQ(read_file(ro), input);
    EXPECT_EQ(mtime(ro), before);
    EXPECT_EQ(read_file(rw), needs_fix("rw"));
    EXPECT_EQ(mtime(rw), rw_before);
  }
  // No temporary file is left behind.
  for (const auto& e : fs::directory_iterator(p / ""))
    EXPECT_FALSE(contains(e.path().filename().string(), ".archfit-")) << e.path();
  // Once it can be written, both are.
  ASSERT_EQ(::chmod(ro.c_str(), 0644), 0);
  EXPECT_EQ(p.run({"fix", "ro.yaml", "rw.yaml"}).exit_code, 0);
  EXPECT_EQ(p.run({"fix", "--check", "ro.yaml", "rw.yaml"}).exit_code, 0);
}

TEST(FixCommand, UnlockedImageWithOnUnresolvedFailExits3AndWritesNothing) {
  Project p;
  std::string input =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
      "  - name: a\n    image: unknown:1\n";
  fs::path f = p.write("pod.yaml", input);
  fs::path g = p.write("other.yaml", needs_fix("other"));
  ProcessResult r = p.run({"fix", "pod.yaml", "other.yaml"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(contains(r.err, "pod.yaml:8:12: error unresolved-image")) << r.err;
  EXPECT_TRUE(contains(r.err, "nothing was written")) << r.err;
  EXPECT_EQ(read_file(f), input);
  EXPECT_EQ(read_file(g), needs_fix("other"));
}

TEST(FixCommand, ATemplateItCannotEditIsReportedInFull) {
  Project p;
  // Both Deployments share one pod template through an anchor: editing it
  // would change the other too.
  std::string input = R"(apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: blue}
  spec:
    template: &pod
      spec:
        containers:
        - name: app
          image: amd64only:1
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: green}
  spec:
    template: *pod
)";
  fs::path f = p.write("list.yaml", input);
  ProcessResult r = p.run({"fix", "list.yaml"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "error uneditable-yaml")) << r.err;
  // What the person has to do by hand, worded as lint words it.
  EXPECT_TRUE(
      contains(r.err, "error missing-arch-affinity: nothing keeps the pods off linux/arm64"))
      << r.err;
  EXPECT_EQ(read_file(f), input);
}

TEST(LintCommand, TextIsOneLinePerFindingThenASummary) {
  Project p;
  p.write("app.yaml", needs_fix("app"));
  ProcessResult r = p.run({"lint", "app.yaml"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.out, "app.yaml:8:7: error missing-arch-affinity: ")) << r.out;
  std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
  EXPECT_TRUE(contains(last, "1 file")) << last;
  EXPECT_TRUE(contains(last, "error")) << last;
  // Infos (the mutable tag) only with -v.
  EXPECT_FALSE(contains(r.out, "mutable-tag"));
  EXPECT_TRUE(contains(p.run({"lint", "-v", "app.yaml"}).out, "info mutable-tag"));
}

TEST(LintCommand, JsonCarriesEveryFieldOfAFinding) {
  Project p;
  p.write("app.yaml", needs_fix("app"));
  ProcessResult r = p.run({"lint", "--format", "json", "app.yaml"});
  EXPECT_EQ(r.exit_code, 1);
  rapidjson::Document d;
  d.Parse(r.out.c_str());
  ASSERT_FALSE(d.HasParseError()) << r.out;
  const rapidjson::Value* missing = nullptr;
  for (const auto& f : d["findings"].GetArray()) {
    if (std::string(f["rule"].GetString()) == "missing-arch-affinity") missing = &f;
  }
  ASSERT_NE(missing, nullptr) << r.out;
  const rapidjson::Value& f = *missing;
  EXPECT_STREQ(f["severity"].GetString(), "error");
  EXPECT_STREQ(f["file"].GetString(), "app.yaml");
  EXPECT_EQ(f["line"].GetInt(), 8);
  EXPECT_EQ(f["column"].GetInt(), 7);
  EXPECT_STREQ(f["resource"]["kind"].GetString(), "Deployment");
  EXPECT_STREQ(f["resource"]["name"].GetString(), "app");
  EXPECT_STREQ(f["field"]["path"].GetString(), "spec.template.spec.affinity");
  EXPECT_TRUE(f["field"]["current"].IsNull());
  const rapidjson::Value& proposed = f["field"]["proposed"];
  ASSERT_TRUE(proposed.IsObject());
  const auto& term = proposed["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
                             ["nodeSelectorTerms"][0]["matchExpressions"][0];
  EXPECT_STREQ(term["key"].GetString(), "kubernetes.io/arch");
  EXPECT_STREQ(term["values"][0].GetString(), "amd64");
  EXPECT_TRUE(f["fixable"].GetBool());
  EXPECT_EQ(d["summary"]["workloads"].GetInt(), 1);
}

TEST(LintCommand, FailOnSetsTheThreshold) {
  Project p;
  p.write("tol.yaml", needs_toleration("tol"));
  // Only a warning (the toleration; amd64 nodes remain untainted).
  EXPECT_EQ(p.run({"lint", "tol.yaml"}).exit_code, 0);
  EXPECT_EQ(p.run({"lint", "--fail-on", "warning", "tol.yaml"}).exit_code, 1);
  EXPECT_EQ(p.run({"lint", "--fail-on", "never", "tol.yaml"}).exit_code, 0);
  ProcessResult bad = p.run({"lint", "--fail-on", "sometimes", "tol.yaml"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "--fail-on: sometimes not in {error,warning,info,never}"))
      << bad.err;
}

TEST(LintCommand, InvalidYamlIsAFindingWithItsLocation) {
  Project p;
  p.write("bad.yaml", "kind: Pod\nspec: {a: [1}\n");
  ProcessResult r = p.run({"lint", "bad.yaml"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.out, "bad.yaml:2:13: error unreadable-file: cannot parse YAML")) << r.out;
}

TEST(FixCommand, OutputThatCannotBeWrittenIsAnError) {
  Project p;
  p.write("app.yaml", needs_fix("app"));
  for (std::string command : {"lint app.yaml", "lint --format json app.yaml", "fix --diff app.yaml",
                              "fix --check app.yaml", "fix - < app.yaml", "images app.yaml"}) {
    ProcessOptions o;
    o.cwd = p / "";
    o.env = {"ARCHFIT_CONFIG=", "HOME=" + (p / "home").string()};
    std::string offline = command.starts_with("images") ? "" : " --offline";
    ProcessResult r = run_process(
        {"sh", "-c", std::string(ARCHFIT_BINARY) + " " + command + offline + " > /dev/full"}, o);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "archfit: cannot write <stdout>: No space left on device"))
        << command << ": " << r.err;
  }
  EXPECT_EQ(read_file(p / "app.yaml"), needs_fix("app"));
}

TEST(FixCommand, PathsAfterDoubleDashAreTaken) {
  Project p;
  p.write("-app.yaml", needs_fix("app"));
  ProcessResult r = p.run({"fix", "--", "-app.yaml"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(read_file(p / "-app.yaml"), "kubernetes.io/arch"));
}

}  // namespace
}  // namespace archfit::testing
