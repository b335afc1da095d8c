// --report FORMAT[=PATH]: every report of one run, each the same as the one
// report --format gives, in any mix of files and stdout; usage errors before
// any work, and no report at all from a run that fails.
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/report/report.hpp>

#include "support/corpus.hpp"
#include "support/process.hpp"
#include "support/project.hpp"

namespace archfit {
namespace {

using testing::needs_fix;
using testing::needs_toleration;
using testing::ProcessResult;
using testing::Project;

// Two files whose lint has errors, warnings and infos.
void write_mixed(Project& p) {
  p.write("a.yaml", needs_fix("a1") + "---\n" + needs_toleration("a2"));
  p.write("b.yaml", needs_toleration("b1"));
}

// Enough files that the run reports thousands of events (findings, workloads,
// diffs), which go into the reports in many batches.
std::vector<std::string> write_many(Project& p) {
  std::vector<std::string> files;
  for (int f = 0; f < 60; ++f) {
    std::string text;
    for (int d = 0; d < 12; ++d) {
      const std::string name = "w" + std::to_string(f) + "-" + std::to_string(d);
      text += (d == 0 ? "" : "---\n") + (d % 2 == 0 ? needs_fix(name) : needs_toleration(name));
    }
    files.push_back("many-" + std::to_string(f) + ".yaml");
    p.write(files.back(), text);
  }
  return files;
}

// The two mixed files, or the many; their names.
std::vector<std::string> write_files(Project& p, bool many) {
  if (many) return write_many(p);
  write_mixed(p);
  return {"a.yaml", "b.yaml"};
}

// `command` with --format F gives, for each F, what --report F=PATH wrote
// in one run with every other format (and the last one on stdout).
void expect_reports_match_single_runs(const std::vector<std::string>& command, bool many = false) {
  Project p;
  const std::vector<std::string> files = write_files(p, many);
  const std::vector<std::string>& formats = report::format_names();
  std::vector<std::string> args = command;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    args.push_back(i + 1 == formats.size() ? "--report=" + formats[i]
                                           : "--report=" + formats[i] + "=out/" + formats[i]);
  }
  args.push_back("--");
  args.insert(args.end(), files.begin(), files.end());
  std::filesystem::create_directory(p / "out");
  ProcessResult all = p.run(args);
  ASSERT_EQ(all.exit_code, 1) << all.err;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    std::vector<std::string> one = command;
    one.insert(one.end(), {"--format", formats[i], "--"});
    one.insert(one.end(), files.begin(), files.end());
    ProcessResult single = p.run(one);
    EXPECT_EQ(single.exit_code, all.exit_code) << formats[i];
    const std::string got =
        i + 1 == formats.size() ? all.out : testing::read(p / "out" / formats[i]);
    EXPECT_EQ(got, single.out) << formats[i];
  }
}

TEST(ReportFlag, LintWritesEveryFormatFromOneRunAsEachAlone) {
  expect_reports_match_single_runs({"lint", "--fail-on", "warning"});
}

TEST(ReportFlag, FixCheckWritesEveryFormatFromOneRunAsEachAlone) {
  expect_reports_match_single_runs({"fix", "--check"});
}

// Reports written side by side, batch after batch, keep the run's order.
TEST(ReportFlag, ThousandsOfEventsGoIntoEveryReportInOrder) {
  expect_reports_match_single_runs({"lint", "--fail-on", "warning"}, true);
  expect_reports_match_single_runs({"fix", "--check"}, true);
}

// fix --diff prints the patch, and the reports are those of fix --check.
TEST(ReportFlag, FixDiffPrintsThePatchAndWritesTheReports) {
  for (bool many : {false, true}) {
    Project p;
    const std::vector<std::string> files = write_files(p, many);
    auto with_files = [&files](std::vector<std::string> args) {
      args.push_back("--");
      args.insert(args.end(), files.begin(), files.end());
      return args;
    };
    ProcessResult both = p.run(
        with_files({"fix", "--diff", "--report", "markdown=r.md", "--report", "json=r.json"}));
    ProcessResult diff = p.run(with_files({"fix", "--diff"}));
    ProcessResult md = p.run(with_files({"fix", "--check", "--format", "markdown"}));
    ProcessResult json = p.run(with_files({"fix", "--check", "--format", "json"}));
    ASSERT_EQ(both.exit_code, 1) << both.err;
    EXPECT_EQ(both.out, diff.out);
    EXPECT_NE(diff.out.find("+++ b/" + files[0]), std::string::npos) << diff.out;
    // Diffs and findings of many files, in the order of one run.
    EXPECT_EQ(testing::read(p / "r.md"), md.out) << many;
    EXPECT_EQ(testing::read(p / "r.json"), json.out) << many;
    EXPECT_NE(md.out.find("<details>"), std::string::npos) << md.out;
  }
}

struct Refused {
  std::vector<std::string> args;
  std::string message;
};

// Usage errors come before any input is read (the input here does not
// exist) and leave no file behind.
TEST(ReportFlag, WhatCannotBeWrittenIsAUsageErrorBeforeAnyWork) {
  const std::vector<Refused> cases = {
      {{"lint", "--report", "json", "--report", "sarif"}, "another report already goes to stdout"},
      {{"lint", "--report", "json=x", "--report", "sarif=./x"}, "already goes to \"./x\""},
      {{"lint", "--report", "yaml=x"}, "unknown format \"yaml\""},
      {{"lint", "--report=--format=json"}, "unknown format \"--format\""},
      {{"lint", "--report", "json="}, "no file after '='"},
      {{"lint", "--report", "json=x", "--format", "sarif"}, "cannot be combined with --format"},
      {{"fix", "--diff", "--report", "json"}, "the patch goes to stdout"},
      {{"fix", "--report", "json=x"}, "go with --check or --diff"},
  };
  for (const Refused& c : cases) {
    Project p;
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--", "missing.yaml"});
    ProcessResult r = p.run(args);
    EXPECT_EQ(r.exit_code, 2) << c.args[2];
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("missing.yaml"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(p / "x")) << c.args[2];
  }
}

// A path is everything after the first '=', whatever it holds: a name that
// starts like an option or holds '=' is a file.
TEST(ReportFlag, APathIsTakenAsItIs) {
  Project p;
  write_mixed(p);
  ProcessResult r = p.run({"lint", "--fail-on", "never", "--report", "json=-o=x", "--report",
                           "text=--help", "--", "a.yaml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(testing::read(p / "-o=x").find("\"summary\""), std::string::npos);
  EXPECT_NE(testing::read(p / "--help").find("a.yaml:"), std::string::npos);
}

// The names in a directory, sorted.
std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A run that fails writes no report: not a part of one, not an empty one; an
// earlier report stays as it was, and nothing is left beside them (reports
// are written as the run goes, into files that have no name until the end).
TEST(ReportFlag, ARunThatFailsWritesNoReport) {
  Project p;
  write_mixed(p);
  p.write("r.sarif", "an earlier report\n");
  for (bool many : {false, true}) {
    if (many) write_many(p);
    const std::vector<std::string> files = names_in(p / ".");
    std::vector<std::string> args = {"lint",          "--report", "json=r.json",   "--report",
                                     "sarif=r.sarif", "--report", "markdown=r.md", "--"};
    for (const std::string& f : files) {
      if (f.ends_with(".yaml")) args.push_back(f);
    }
    args.push_back("nothing-here.yaml");
    ProcessResult r = p.run(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(names_in(p / "."), files);
    EXPECT_EQ(testing::read(p / "r.sarif"), "an earlier report\n");
  }
  EXPECT_FALSE(std::filesystem::exists(p / "r.json"));
}

// A report that fails while it is written (here: past the file size limit)
// fails the run, and no report is put in place.
TEST(ReportFlag, AReportThatFailsOnTheWayLeavesEveryReportAsItWas) {
  Project p;
  const std::vector<std::string> files = write_many(p);
  p.write("r.sarif", "an earlier report\n");
  const std::vector<std::string> names = names_in(p / ".");
  std::vector<std::string> args = {"lint",        "--report", "sarif=r.sarif", "--report",
                                   "json=r.json", "--report", "github=r.txt",  "--"};
  args.insert(args.end(), files.begin(), files.end());
  struct sigaction ignore {
  }, before{};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGXFSZ, &ignore, &before), 0);  // inherited by archfit
  struct rlimit was {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &was), 0);
  struct rlimit small = was;
  small.rlim_cur = 256 * 1024;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  ProcessResult r = p.run(args);
  ::setrlimit(RLIMIT_FSIZE, &was);
  ::sigaction(SIGXFSZ, &before, nullptr);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  EXPECT_EQ(names_in(p / "."), names);
  EXPECT_EQ(testing::read(p / "r.sarif"), "an earlier report\n");
  // Without the limit, the same run writes them all, larger than it.
  r = p.run(args);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_GT(std::filesystem::file_size(p / "r.sarif"), 256u * 1024);
  EXPECT_TRUE(std::filesystem::exists(p / "r.txt"));
}

// A report that cannot be written is an error that names it, before the run,
// and no report is written.
TEST(ReportFlag, AReportThatCannotBeWrittenFailsBeforeTheRun) {
  Project p;
  write_mixed(p);
  ProcessResult r = p.run(
      {"lint", "--report", "sarif=r.sarif", "--report", "json=no/such/r.json", "--", "a.yaml"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot write no/such/r.json"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(p / "r.sarif"));
  r = p.run({"lint", "--report", "sarif=/dev/null", "--", "a.yaml"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot write /dev/null: it is not a regular file"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace archfit
