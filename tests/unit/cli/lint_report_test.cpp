// How lint hands out its report: in file and document order whatever order
// the files were named in and whichever documents waited for a registry;
// whole or not at all; and the same however large it grows (a report is
// written as findings come and held in a temporary file, not in memory).
#include <string>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <archfit/base/file.hpp>

#include "support/process.hpp"
#include "support/project.hpp"

namespace archfit {
namespace {

using testing::contains;
using testing::needs_fix;
using testing::needs_toleration;
using testing::ProcessOptions;
using testing::ProcessResult;
using testing::Project;
using testing::TempDir;

// Where each of `parts` first occurs in `text`.
std::vector<std::size_t> positions(const std::string& text, const std::vector<std::string>& parts) {
  std::vector<std::size_t> out;
  for (const std::string& part : parts)
    out.push_back(text.find(part));
  return out;
}

TEST(LintReport, FilesComeInTheOrderOfTheirNamesAndDocumentsInTheirs) {
  Project p;
  p.write("b.yaml", needs_fix("b1") + "---\n" + needs_toleration("b2"));
  p.write("a.yaml", needs_toleration("a1") + "---\n" + needs_fix("a2"));
  ProcessResult r = p.run({"lint", "--fail-on", "never", "b.yaml", "a.yaml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::size_t> at =
      positions(r.out, {"a.yaml:8:", "a.yaml:19:", "b.yaml:8:", "b.yaml:19:"});
  for (std::size_t i = 0; i < at.size(); ++i)
    ASSERT_NE(at[i], std::string::npos) << i << ":\n" << r.out;
  EXPECT_TRUE(std::is_sorted(at.begin(), at.end())) << r.out;
}

// A document whose image only a registry can answer is analysed after the
// others were read; its findings still come in its place.
TEST(LintReport, ADocumentThatWaitedForTheRegistryKeepsItsPlace) {
  TempDir dir;
  // Nothing listens on port 1: the registry fails at once.
  dir.write(".archfit.yaml", "resolve:\n  insecureRegistries: [\"127.0.0.1:1\"]\n");
  dir.write("archfit.lock", testing::kProjectLock);
  std::string far =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: far}\nspec:\n  containers:\n"
      "  - {name: a, image: \"127.0.0.1:1/x/y:1\"}\n";
  dir.write("a.yaml", far + "---\n" + needs_fix("a2"));
  dir.write("b.yaml", needs_fix("b1"));
  ProcessOptions o;
  o.cwd = dir.path();
  o.env = {"ARCHFIT_CONFIG=", "ARCHFIT_CACHE_DIR=" + (dir / "cache").string(),
           "HOME=" + (dir / "home").string()};
  ProcessResult r = testing::run_archfit({"lint", "--fail-on", "never", "b.yaml", "a.yaml"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::size_t> at =
      positions(r.out, {"a.yaml:6:22: warning unresolved-image", "a.yaml:15:7:", "b.yaml:8:7:"});
  for (std::size_t i = 0; i < at.size(); ++i)
    ASSERT_NE(at[i], std::string::npos) << i << ":\n" << r.out;
  EXPECT_TRUE(std::is_sorted(at.begin(), at.end())) << r.out;
}

// Findings of the documents before an invalid one are not printed: the
// report is whole or absent, on stdout and with -o.
// A file that stops at its last document is reported whole: the findings of
// the 2,000 documents before the fault, then the fault, in a report that
// validates.
TEST(LintReport, AFileThatStopsIsReportedAfterItsDocuments) {
  Project p;
  std::string stream;
  for (int i = 0; i < 2000; ++i)
    stream += needs_fix("app" + std::to_string(i)) + "---\n";
  stream += "kind: Pod\nspec: {a: [1}\n";
  p.write("apps.yaml", stream);
  ProcessResult text = p.run({"lint", "--fail-on", "never", "apps.yaml"});
  EXPECT_EQ(text.exit_code, 1) << text.err;
  std::string fault = "apps.yaml:" + std::to_string(2000 * 11 + 2) + ":";
  std::size_t at = text.out.find(fault);
  ASSERT_NE(at, std::string::npos) << text.err;
  EXPECT_TRUE(contains(text.out.substr(at), "error unreadable-file: cannot parse YAML"));
  std::size_t before = 0;
  for (std::size_t k = text.out.find("missing-arch-affinity"); k < at;
       k = text.out.find("missing-arch-affinity", k + 1))
    ++before;
  EXPECT_EQ(before, 2000u) << "the documents before the fault";
  ProcessResult json = p.run({"lint", "--format", "json", "apps.yaml"});
  EXPECT_EQ(json.exit_code, 1) << json.err;
  rapidjson::Document d;
  ASSERT_FALSE(d.Parse(json.out.c_str()).HasParseError()) << json.out.substr(0, 200);
  const rapidjson::Value& findings = d["findings"];
  ASSERT_GT(findings.Size(), 2000u);
  const rapidjson::Value& last = findings[findings.Size() - 1];
  EXPECT_STREQ(last["rule"].GetString(), "unreadable-file");
  EXPECT_EQ(last["line"].GetUint(), 2000u * 11 + 2);
}

// 6,000 findings make a report of several MiB, more than is held in memory:
// it comes back whole from the temporary file, on stdout and with -o.
TEST(LintReport, ALargeReportIsWholeAndValid) {
  Project p;
  std::string stream;
  constexpr int kApps = 6000;
  for (int i = 0; i < kApps; ++i)
    stream += needs_fix("app" + std::to_string(i)) + "---\n";
  p.write("apps.yaml", stream);
  ProcessResult r = p.run({"lint", "--format", "json", "apps.yaml"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  ASSERT_GT(r.out.size(), std::size_t{4} << 20);
  rapidjson::Document d;
  d.Parse(r.out.c_str());
  ASSERT_FALSE(d.HasParseError()) << r.out.substr(0, 200);
  std::size_t errors = 0;
  for (const auto& f : d["findings"].GetArray()) {
    errors += std::string(f["severity"].GetString()) == "error" ? 1 : 0;
  }
  EXPECT_EQ(errors, static_cast<std::size_t>(kApps));
  EXPECT_EQ(d["summary"]["errors"].GetUint64(), static_cast<std::uint64_t>(kApps));
  EXPECT_EQ(d["summary"]["workloads"].GetUint64(), static_cast<std::uint64_t>(kApps));

  ASSERT_EQ(p.run({"lint", "--format", "json", "-o", "report.json", "apps.yaml"}).exit_code, 1);
  EXPECT_EQ(read_file(p / "report.json"), r.out);
}

// Rendered by helm: findings name the chart's template, mapped under
// --source-root; SARIF and GitHub annotations then point at that file.
TEST(LintReport, HelmRenderedFindingsNameTheirTemplate) {
  Project p;
  p.write("rendered.yaml", "---\n# Source: shop/templates/web.yaml\n" + needs_fix("web"));
  ProcessResult plain = p.run({"lint", "--format", "json", "rendered.yaml"});
  EXPECT_TRUE(contains(plain.out, "\"source\":\"shop/templates/web.yaml\"")) << plain.out;
  ProcessResult mapped =
      p.run({"lint", "--format", "json", "--source-root", "charts", "rendered.yaml"});
  EXPECT_TRUE(contains(mapped.out, "\"source\":\"charts/shop/templates/web.yaml\"")) << mapped.out;
  ProcessResult sarif =
      p.run({"lint", "--format", "sarif", "--source-root", "charts/", "rendered.yaml"});
  rapidjson::Document d;
  d.Parse(sarif.out.c_str());
  ASSERT_FALSE(d.HasParseError()) << sarif.out;
  const auto& result = d["runs"][0]["results"][0];
  EXPECT_STREQ(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].GetString(),
               "charts/shop/templates/web.yaml");
  EXPECT_STREQ(
      result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"].GetString(),
      "rendered.yaml");
  ProcessResult github =
      p.run({"lint", "--format", "github", "--source-root", "charts", "rendered.yaml"});
  EXPECT_TRUE(contains(github.out, "::error file=charts/shop/templates/web.yaml,title="))
      << github.out;
}

// What is not a manifest is skipped with a notice, not an error, as a
// pre-commit hook passing every staged YAML file needs.
TEST(LintReport, FilesThatAreNotManifestsAreSkippedWithANotice) {
  Project p;
  p.write("ci/settings.yaml", "retries: 3\nnames: [a, b]\n");
  p.write("chart/Chart.yaml", "apiVersion: v2\nname: chart\nversion: 0.1.0\n");
  p.write("chart/templates/deployment.yaml",
          "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n");
  p.write("app.yaml", needs_toleration("a"));
  for (const char* command : {"lint", "fix"}) {
    std::vector<std::string> args = {command, "ci/settings.yaml",
                                     "chart/templates/deployment.yaml"};
    if (std::string(command) == "fix") args.insert(args.begin() + 1, "--check");
    ProcessResult r = p.run(args);
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "archfit: skipped ci/settings.yaml: not a Kubernetes manifest"))
        << r.err;
    EXPECT_TRUE(contains(r.err,
                         "archfit: skipped chart/templates/deployment.yaml: templates of the "
                         "helm chart chart"))
        << r.err;
  }
  // Many are summed up after ten.
  for (int i = 0; i < 12; ++i)
    p.write("many/v" + std::to_string(i + 10) + ".yaml", "x: 1\n");
  ProcessResult r = p.run({"lint", "many"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "many/v19.yaml: not a Kubernetes manifest")) << r.err;
  EXPECT_FALSE(contains(r.err, "many/v20.yaml")) << r.err;
  EXPECT_TRUE(contains(r.err, "archfit: skipped 2 more files that are not Kubernetes manifests"))
      << r.err;
}

}  // namespace
}  // namespace archfit
