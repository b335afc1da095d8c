// Every report format on the same findings, against golden files in
// tests/unit/report/golden/ (ARCHFIT_UPDATE_GOLDEN=1 rewrites them; review
// the diff), and the properties each format promises.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <archfit/findings/rules.hpp>
#include <archfit/report/report.hpp>

#include "support/corpus.hpp"

namespace archfit::report {
namespace {

using findings::Finding;
using findings::Severity;

findings::Finding finding(std::string file, std::uint32_t document, std::uint32_t line,
                          std::string rule, findings::Severity severity, std::string message,
                          std::string kind, std::string name) {
  findings::Finding f;
  f.file = std::move(file);
  f.document = document;
  f.line = line;
  f.column = 7;
  f.end_line = line + 2;
  f.end_column = 12;
  f.rule = std::move(rule);
  f.severity = severity;
  f.message = std::move(message);
  f.resource = findings::ResourceRef{"apps/v1", std::move(kind), std::move(name), "shop"};
  f.field_path = yaml::key_path({"spec", "template", "spec", "affinity"});
  return f;
}

// Two files, every severity, and text that needs escaping in each format:
// % , : | < > & " ' and a line break.
struct Sample {
  std::vector<WorkloadSeen> workloads;
  std::vector<findings::Finding> findings;
};

Sample sample() {
  Sample s;
  s.workloads = {
      {"apps/a.yaml", 0, 1, {"apps/v1", "Deployment", "web", "shop"}},
      {"apps/a.yaml", 1, 30, {"batch/v1", "Job", "migrate", "shop"}},
      {"apps/b c.yaml", 0, 1, {"apps/v1", "Deployment", "api", "shop"}},
  };
  s.findings = {
      finding("apps/a.yaml", 0, 18, "missing-arch-affinity", findings::Severity::Error,
              "nothing keeps the pods off linux/arm64 nodes (\"app:1\" supports linux/amd64)",
              "Deployment", "web"),
      finding("apps/a.yaml", 0, 20, "mutable-tag", findings::Severity::Info,
              "image \"app:1\" is a tag", "Deployment", "web"),
      finding("apps/b c.yaml", 0, 9, "missing-toleration", findings::Severity::Warning,
              "100% odd: a|b <c> & 'd',\nsecond line", "Deployment", "api"),
  };
  return s;
}

std::string render(Format format, const Sample& s, std::string_view diff = {}) {
  std::ostringstream out;
  WriterOptions options;
  options.category = "prod";
  options.tool_version = "1.2.3";
  std::unique_ptr<Writer> w = make_writer(format, out, options);
  std::size_t next = 0;
  Counts counts;
  for (const WorkloadSeen& workload : s.workloads) {
    w->add_workload(workload);
    for (; next < s.findings.size() && s.findings[next].file == workload.file &&
           s.findings[next].document == workload.document;
         ++next) {
      counts.add(s.findings[next].severity);
      w->add(s.findings[next]);
    }
  }
  if (!diff.empty()) w->add_diff(diff);
  w->finish(Summary{2, 3, 3, counts});
  return out.str();
}

class ReportFormat : public ::testing::TestWithParam<Format> {};

TEST_P(ReportFormat, MatchesItsGoldenFile) {
  const char* extension[] = {"txt", "json", "sarif", "github", "xml", "md"};
  std::filesystem::path golden = archfit::testing::source_dir() / "tests" / "unit" / "report" /
                                 "golden" /
                                 ("sample." + std::string(extension[static_cast<int>(GetParam())]));
  std::string got = render(GetParam(), sample(), "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
  const char* update = std::getenv("ARCHFIT_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(golden, std::ios::binary) << got;
  }
  EXPECT_EQ(got, archfit::testing::read(golden)) << golden;
}

INSTANTIATE_TEST_SUITE_P(All, ReportFormat,
                         ::testing::Values(Format::Text, Format::Json, Format::Sarif,
                                           Format::Github, Format::Junit, Format::Markdown),
                         [](const auto& test) { return std::string(format_name(test.param)); });

TEST(ReportFormats, JsonAndSarifParse) {
  for (Format f : {Format::Json, Format::Sarif}) {
    rapidjson::Document d;
    std::string text = render(f, sample());
    d.Parse(text.c_str());
    ASSERT_FALSE(d.HasParseError()) << text;
  }
  rapidjson::Document sarif;
  std::string text = render(Format::Sarif, sample());
  sarif.Parse(text.c_str());
  const auto& run = sarif["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["rules"].Size(), findings::rules().size());
  EXPECT_STREQ(run["automationDetails"]["id"].GetString(), "prod/");
  const auto& result = run["results"][2];
  EXPECT_STREQ(result["level"].GetString(), "warning");
  EXPECT_STREQ(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].GetString(),
               "apps/b%20c.yaml");
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["region"]["endLine"].GetUint(), 11u);
  EXPECT_STREQ(run["results"][1]["level"].GetString(), "note");
}

// Fingerprints follow what a finding is about, not where its line is.
TEST(ReportFormats, TextNamesTheTemplateOfHelmRenderedInput) {
  findings::Finding f = finding("<stdin>", 0, 10, "missing-arch-affinity",
                                findings::Severity::Error, "m", "Deployment", "web");
  f.source = "web/templates/deployment.yaml";
  std::ostringstream out;
  WriterOptions options;
  options.source_root = "charts";
  make_writer(Format::Text, out, options)->add(f);
  EXPECT_EQ(
      out.str(),
      "<stdin>:10:7 (charts/web/templates/deployment.yaml): error missing-arch-affinity: m\n");
}

TEST(ReportFormats, FingerprintsSurviveLineMovesAndTellFindingsApart) {
  findings::Finding a = sample().findings[0];
  findings::Finding moved = a;
  moved.line += 40;
  moved.file = "rendered/other-name.yaml";
  EXPECT_EQ(fingerprint(a), fingerprint(moved));
  for (auto change : {+[](findings::Finding& f) { f.rule = "no-common-platform"; },
                      +[](findings::Finding& f) { f.resource.name = "web2"; },
                      +[](findings::Finding& f) { f.resource.namespace_name = "other"; },
                      +[](findings::Finding& f) { f.resource.kind = "StatefulSet"; },
                      +[](findings::Finding& f) {
                        f.field_path = yaml::key_path({"spec", "template", "spec", "tolerations"});
                      }}) {
    findings::Finding other = a;
    change(other);
    EXPECT_NE(fingerprint(a), fingerprint(other));
  }
}

// GitHub shows 10 annotations of a kind per step: archfit writes the first
// 10 errors and warnings, 9 notices and one notice with the totals.
TEST(ReportFormats, GithubWritesAtMostTenOfAKindAndTheTotals) {
  Sample s;
  for (int i = 0; i < 25; ++i) {
    s.workloads.push_back({"a.yaml", static_cast<std::uint32_t>(i), 1, {"v1", "Pod", "p", ""}});
    for (findings::Severity sev :
         {findings::Severity::Error, findings::Severity::Warning, findings::Severity::Info}) {
      s.findings.push_back(
          finding("a.yaml", static_cast<std::uint32_t>(i), 3, "mutable-tag", sev, "m", "Pod", "p"));
    }
  }
  std::string text = render(Format::Github, s);
  std::size_t errors = 0, warnings = 0, notices = 0;
  std::istringstream in(text);
  std::string last;
  for (std::string line; std::getline(in, line); last = line) {
    errors += line.rfind("::error ", 0) == 0;
    warnings += line.rfind("::warning ", 0) == 0;
    notices += line.rfind("::notice ", 0) == 0;
  }
  EXPECT_EQ(errors, 10u);
  EXPECT_EQ(warnings, 10u);
  EXPECT_EQ(notices, 10u);
  EXPECT_EQ(
      last,
      "::notice title=archfit::25 errors, 25 warnings, 25 infos in 2 files (3 workloads); not "
      "shown here: 15 errors, 15 warnings, 16 infos (see the full report)");
}

// `count` Pods in a.yaml, one error each, with the messages `message` gives.
template <typename Message>
Sample one_error_each(int count, Message message) {
  Sample s;
  for (int i = 0; i < count; ++i) {
    s.workloads.push_back({"a.yaml", static_cast<std::uint32_t>(i), 1, {"v1", "Pod", "p", ""}});
    s.findings.push_back(finding("a.yaml", static_cast<std::uint32_t>(i), 3,
                                 "missing-arch-affinity", findings::Severity::Error, message(i),
                                 "Pod", "p"));
  }
  return s;
}

// The step summary stays under GitHub's 1 MiB whatever the run.
TEST(ReportFormats, MarkdownStaysUnderOneMebibyte) {
  Sample s = one_error_each(20000, [](int) { return std::string(100, 'm'); });
  std::string diff;
  for (int i = 0; i < 40000; ++i)
    diff += "+ a line of the diff that is long enough\n";
  std::string text = render(Format::Markdown, s, diff);
  EXPECT_LT(text.size(), std::size_t{1} << 20);
  EXPECT_NE(text.find("more findings are not shown here"), std::string::npos);
  EXPECT_NE(text.find("The diff is cut here"), std::string::npos);
  EXPECT_NE(text.find("| `missing-arch-affinity` | 20000 | 0 | 0 |"), std::string::npos);
}

// The table is the findings in order up to the first that does not fit:
// no later row, however short, and the note counts every one left out.
TEST(ReportFormats, MarkdownTableIsAPrefixOfTheFindings) {
  // Long and short messages mixed: a short row could fit after a long one
  // that did not.
  Sample s = one_error_each(12000, [](int i) {
    return "m" + std::to_string(i) + std::string(i % 3 == 0 ? 200 : 1, 'x');
  });
  std::string text = render(Format::Markdown, s);
  std::size_t shown = 0;
  for (std::size_t at = 0; (at = text.find("| error |", at)) != std::string::npos; ++at)
    ++shown;
  ASSERT_GT(shown, 0u);
  ASSERT_LT(shown, s.findings.size());
  for (std::size_t i = 0; i < s.findings.size(); ++i) {
    bool in = text.find("| m" + std::to_string(i) + "x") != std::string::npos;
    EXPECT_EQ(in, i < shown) << "finding " << i << " of " << shown << " shown";
  }
  EXPECT_NE(text.find("_" + std::to_string(s.findings.size() - shown) + " more findings"),
            std::string::npos);
}

// The diff shown is the same whether it comes in one piece or in many, and
// whole when it fits.
TEST(ReportFormats, MarkdownShowsTheSameDiffFromPiecesAsFromOne) {
  auto with_pieces = [](const std::string& diff, std::size_t piece) {
    std::ostringstream out;
    std::unique_ptr<Writer> w = make_writer(Format::Markdown, out, WriterOptions{});
    for (std::size_t at = 0; at < diff.size(); at += piece)
      w->add_diff(std::string_view(diff).substr(at, piece));
    w->finish(Summary{1, 1, 1, Counts{}});
    return out.str();
  };
  for (int lines : {3, 40000}) {
    std::string diff;
    for (int i = 0; i < lines; ++i)
      diff += "+ line " + std::to_string(i) + " of the diff, long enough to count\n";
    const std::string whole = with_pieces(diff, diff.size());
    for (std::size_t piece : {std::size_t{1000}, std::size_t{65536}, std::size_t{999999}})
      EXPECT_EQ(with_pieces(diff, piece), whole) << lines << " lines in pieces of " << piece;
    EXPECT_EQ(whole.find(diff) != std::string::npos, lines == 3);
    EXPECT_EQ(whole.find("The diff is cut here") != std::string::npos, lines != 3);
  }
}

}  // namespace
}  // namespace archfit::report
