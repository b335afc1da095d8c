// The engine driven with documents held in memory: what lint and fix yield,
// in which order, and how another analyzer plugs in.
#include <atomic>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/cache/lock_file.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/run/feature.hpp>
#include <archfit/run/image_answer.hpp>
#include <archfit/run/run.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

#include "support/engine.hpp"

namespace archfit::run {
namespace {

std::string deployment(const std::string& name, const std::string& image) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         "\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: " +
         image + "\n";
}

using archfit::testing::Engine;

TEST(Run, LintReportsEachDocumentInOrderAndChangesNothing) {
  Engine e;
  RunResult r = e.run({Input::in_memory("apps.yaml", deployment("a", "amd64only:1") + "---\n" +
                                                         deployment("b", "both:1"))},
                      Task::Lint);
  EXPECT_EQ(r.workloads, 2u);
  EXPECT_EQ(r.templates, 2u);
  ASSERT_EQ(e.workloads.size(), 2u);
  EXPECT_EQ(e.workloads[0].resource.name, "a");
  EXPECT_EQ(e.workloads[1].document, 1u);
  std::vector<std::string> rules;
  for (const findings::Finding& f : e.findings) {
    EXPECT_EQ(f.file, "apps.yaml");
    rules.push_back(std::to_string(f.document) + " " + f.rule);
  }
  EXPECT_EQ(rules, (std::vector<std::string>{"0 missing-arch-affinity", "0 mutable-tag",
                                             "1 missing-toleration", "1 mutable-tag"}));
  EXPECT_EQ(r.counts.errors, 1u);
  EXPECT_EQ(r.counts.warnings, 1u);
  EXPECT_EQ(r.counts.infos, 2u);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_FALSE(r.files[0].changed());
}

TEST(Run, FixEditsTheDocumentsAndReportsOnlyWhatIsLeft) {
  Engine e;
  std::string text = deployment("a", "amd64only:1") + "---\n" + deployment("b", "both:1");
  RunResult r = e.run({Input::in_memory("apps.yaml", text)}, Task::Fix);
  ASSERT_TRUE(r.files[0].changed());
  std::string fixed = r.files[0].output();
  EXPECT_NE(fixed.find("kubernetes.io/arch"), std::string::npos);
  for (const yaml::DocumentText& doc : yaml::split_stream(fixed)) {
    EXPECT_NO_THROW(yaml::parse_document(doc.text)) << fixed;
  }
  EXPECT_TRUE(e.findings.empty()) << e.findings.front().rule;
  EXPECT_EQ(r.unfixable_errors, 0u);

  // A second fix of what the first wrote changes nothing.
  Engine again;
  RunResult r2 = again.run({Input::in_memory("apps.yaml", fixed)}, Task::Fix);
  EXPECT_FALSE(r2.files[0].changed());
}

TEST(Run, FilesAreTakenInTheOrderOfTheirNames) {
  Engine e;
  RunResult r = e.run({Input::in_memory("b.yaml", deployment("b", "amd64only:1")),
                       Input::in_memory("a.yaml", deployment("a", "amd64only:1"))},
                      Task::Lint);
  ASSERT_EQ(r.files.size(), 2u);
  EXPECT_EQ(r.files[0].input.name, "a.yaml");
  EXPECT_EQ(e.findings.front().file, "a.yaml");
  EXPECT_EQ(e.findings.back().file, "b.yaml");
}

// What cannot be read as YAML stops its file, at its place: nothing of the
// file is edited, the other files are.
TEST(Run, ASyntaxErrorStopsOnlyItsFile) {
  Engine e;
  std::string bad = deployment("a", "amd64only:1") + "---\nkind: Pod\nspec: {a: [1}\n";
  RunResult r = e.run({Input::in_memory("bad.yaml", bad),
                       Input::in_memory("good.yaml", deployment("b", "amd64only:1"))},
                      Task::Fix);
  ASSERT_EQ(r.files.size(), 2u);
  EXPECT_TRUE(r.files[0].stopped);
  EXPECT_FALSE(r.files[0].changed());
  EXPECT_TRUE(r.files[1].changed());
  EXPECT_EQ(r.faults, 1u);
  ASSERT_EQ(e.findings.size(), 1u);
  EXPECT_EQ(e.findings[0].rule, "unreadable-file");
  EXPECT_EQ(e.findings[0].file, "bad.yaml");
  EXPECT_EQ(e.findings[0].line, 13u);
  EXPECT_NE(e.findings[0].message.find("cannot parse YAML"), std::string::npos);
}

// A file split into one Deployment per group before its documents are read
// is not written when reading stops in it.
TEST(Run, AStoppedFileIsNotSplitEither) {
  Engine e;
  std::string text =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n"
      "    CustomPodScheduleStrategy: 'type=default,base=2,weight=1:type=spot,weight=3'\n"
      "spec:\n  selector:\n    matchLabels: {app: web}\n  template:\n"
      "    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n"
      "      - {name: web, image: both:1}\n---\nkind: HorizontalPodAutoscaler\n"
      "spec:\n  minReplicas: 2\n  maxReplicas:(20\n";
  RunResult r = e.run({Input::in_memory("apps.yaml", text)}, Task::Fix);
  EXPECT_TRUE(r.files[0].stopped);
  EXPECT_FALSE(r.files[0].changed());
  EXPECT_EQ(r.files[0].output(), text);
  ASSERT_NE(e.find("unreadable-file"), nullptr);
  // Without the fault, the same file is split.
  Engine clean;
  std::string good = text.substr(0, text.find("---"));
  EXPECT_NE(clean.run({Input::in_memory("apps.yaml", good)}, Task::Fix).files[0].output(), good);
}

// The documents before the fault are reported; the fault comes after them,
// also when they waited for the registry.
TEST(Run, AStoppedFileReportsWhatCameBeforeTheFaultInOrder) {
  Engine e;
  std::string text = deployment("a", "unknown:1") + "---\n" + deployment("b", "amd64only:1") +
                     "---\nx: [\n---\n" + deployment("c", "amd64only:1");
  RunResult r = e.run({Input::in_memory("apps.yaml", text)}, Task::Lint);
  std::vector<std::string> rules;
  for (const findings::Finding& f : e.findings) {
    if (f.rule != "mutable-tag") rules.push_back(std::to_string(f.document) + " " + f.rule);
  }
  EXPECT_EQ(rules, (std::vector<std::string>{"0 unresolved-image", "1 missing-arch-affinity",
                                             "2 unreadable-file"}));
  EXPECT_TRUE(r.files[0].stopped);
}

// A stream of several windows (a window is at most 512 documents, merged
// while the next is analysed) gives what each document gives alone, in
// order: findings, edits, and the documents that wait for the registry
// (unknown:1, from the second window on).
TEST(Run, ManyWindowsGiveWhatEachDocumentGivesAlone) {
  std::vector<std::string> docs;
  for (int i = 0; i < 1400; ++i) {
    const char* image = i >= 600 && i % 97 == 0 ? "unknown:1"
                        : i % 3 == 0            ? "both:1"
                                                : "amd64only:1";
    docs.push_back(i % 5 == 4 ? "kind: ConfigMap\nmetadata: {name: c" + std::to_string(i) + "}\n"
                              : deployment("w" + std::to_string(i), image));
  }
  for (Task task : {Task::Lint, Task::Fix}) {
    std::string stream;
    std::vector<std::string> want_findings;
    std::string want_output;
    for (std::size_t i = 0; i < docs.size(); ++i) {
      stream += (i == 0 ? "" : "---\n") + docs[i];
      Engine alone;
      RunResult r = alone.run({Input::in_memory("apps.yaml", docs[i])}, task);
      for (const findings::Finding& f : alone.findings)
        want_findings.push_back(std::to_string(i) + " " + f.rule + " " + f.message);
      want_output += (i == 0 ? "" : "---\n") + r.files[0].output();
    }
    Engine e;
    RunResult r = e.run({Input::in_memory("apps.yaml", stream)}, task);
    std::vector<std::string> got_findings;
    for (const findings::Finding& f : e.findings)
      got_findings.push_back(std::to_string(f.document) + " " + f.rule + " " + f.message);
    EXPECT_EQ(got_findings, want_findings);
    EXPECT_EQ(r.files[0].output(), want_output);
    EXPECT_EQ(r.workloads, 1120u);
    EXPECT_EQ(e.workloads.size(), 1120u);
    EXPECT_EQ(e.workloads.back().document, 1398u);
  }
}

// A fault in a later window stops the file there: what came before it is
// reported in order, the fault after it, and nothing of the file is written.
TEST(Run, AFaultInALaterWindowStopsTheFileAfterWhatCameBefore) {
  std::string stream;
  for (int i = 0; i < 1200; ++i) {
    stream +=
        (i == 0 ? "" : "---\n") +
        (i == 1100 ? std::string("x: [\n") : deployment("w" + std::to_string(i), "amd64only:1"));
  }
  Engine e;
  RunResult r = e.run({Input::in_memory("apps.yaml", stream)}, Task::Fix);
  EXPECT_TRUE(r.files[0].stopped);
  EXPECT_EQ(r.files[0].output(), stream);
  ASSERT_FALSE(e.findings.empty());
  EXPECT_EQ(e.findings.back().rule, "unreadable-file");
  EXPECT_EQ(e.findings.back().document, 1100u);
  EXPECT_EQ(r.workloads, 1100u);
}

// A fault confined to a document is a finding on it; the document stays as
// it is and the others are fixed.
TEST(Run, AFaultInADocumentIsAFindingAndTheOthersAreFixed) {
  Engine e;
  std::string broken =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: b\n  name: b2\nspec: {}\n";
  std::string text =
      deployment("a", "amd64only:1") + "---\n" + broken + "---\n" + deployment("c", "amd64only:1");
  RunResult r = e.run({Input::in_memory("apps.yaml", text)}, Task::Fix);
  ASSERT_TRUE(r.files[0].changed());
  EXPECT_FALSE(r.files[0].stopped);
  const std::string output = r.files[0].output();
  std::vector<yaml::DocumentText> docs = yaml::split_stream(output);
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[1].text, "---\n" + broken);
  EXPECT_NE(docs[0].text.find("kubernetes.io/arch"), std::string::npos);
  EXPECT_NE(docs[2].text.find("kubernetes.io/arch"), std::string::npos);
  ASSERT_EQ(e.findings.size(), 1u);
  EXPECT_EQ(e.findings[0].rule, "invalid-document");
  EXPECT_EQ(e.findings[0].line, 16u);
  EXPECT_EQ(e.findings[0].column, 3u);
  EXPECT_EQ(r.faults, 1u);
  EXPECT_EQ(r.unfixable_errors, 1u);
}

// A template whose view would hold more values than archfit plans with is
// left as it is, an invalid-document finding at the template; memory stays
// that of its tree, and the documents around it are fixed as usual.
TEST(Run, ATemplateTooLargeToPlanIsLeftAsItIs) {
  Engine e;
  std::string annotations = "    metadata:\n      annotations:\n";
  for (int i = 0; i < 40000; ++i)
    annotations += "        k" + std::to_string(i) + ": v\n";
  std::string large = deployment("b", "amd64only:1");
  large.insert(large.find("    spec:\n      containers"), annotations);
  std::string text =
      deployment("a", "amd64only:1") + "---\n" + large + "---\n" + deployment("c", "amd64only:1");
  RunResult r = e.run({Input::in_memory("apps.yaml", text)}, Task::Fix);
  ASSERT_TRUE(r.files[0].changed());
  const std::string output = r.files[0].output();
  std::vector<yaml::DocumentText> docs = yaml::split_stream(output);
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_TRUE(docs[1].text == "---\n" + large) << "the large document is left as it is";
  EXPECT_NE(docs[0].text.find("kubernetes.io/arch"), std::string::npos);
  EXPECT_NE(docs[2].text.find("kubernetes.io/arch"), std::string::npos);
  ASSERT_EQ(e.findings.size(), 1u);
  EXPECT_EQ(e.findings[0].rule, "invalid-document");
  EXPECT_NE(e.findings[0].message.find("hold more than 32768 values"), std::string::npos)
      << e.findings[0].message;
  EXPECT_EQ(e.findings[0].line, 18u);  // the template
}

// A feature plugs in through RunOptions, and the run calls it at its points:
// gather once with every file, rewrite per file, own per document, and a
// pass per document with workloads (prepare and check per template, analyze
// per document), its findings reported in place with placement's.
class CountingFeature : public Feature {
 public:
  struct Counts {
    std::atomic<int> prepared{0};
    std::atomic<int> checked{0};
    std::atomic<int> analyzed{0};
  };
  class Pass : public DocumentPass {
   public:
    explicit Pass(Counts& counts) : counts_(counts) {}
    void prepare(const manifest::Workload&, placement::TemplateContext&) override {
      ++counts_.prepared;
    }
    void check(const PlannedTemplate& t, std::vector<findings::Finding>&) const override {
      EXPECT_FALSE(t.plan.platforms.empty()) << "check sees the plan";
      ++counts_.checked;
    }
    void analyze(const DocumentView& doc, std::vector<findings::Finding>& out) const override {
      ++counts_.analyzed;
      findings::Finding& f = out.emplace_back(findings::make_finding(
          "mutable-tag", "seen " + std::to_string(doc.workloads.size()) + " workload(s)",
          {"", 0, doc.workloads.front().object.line(), 1}));
      f.severity = findings::Severity::Warning;  // fix reports it
    }

   private:
    Counts& counts_;
  };

  void gather(const Facts& facts) override { gathered += static_cast<int>(facts.files.size()); }
  std::optional<std::string> rewrite(const FileResult& file) const override {
    if (!contains(file.original, "REWRITE ME")) return std::nullopt;
    std::string text = file.original;
    text.replace(text.find("REWRITE ME"), 10, "rewritten!");
    return text;
  }
  std::optional<OwnDocument> own(const DocumentScope& doc) const override {
    if (!contains(doc.text, "name: mine")) return std::nullopt;
    findings::Finding f =
        findings::make_finding("mutable-tag", "mine", {doc.file, doc.document, doc.first_line, 1});
    f.severity = findings::Severity::Warning;
    return OwnDocument{{f}, std::string(doc.text) + "# owned\n"};
  }
  std::unique_ptr<DocumentPass> pass(const DocumentView&) const override {
    return std::make_unique<Pass>(counts);
  }

  int gathered = 0;
  mutable Counts counts;
};

TEST(Run, AFeatureIsCalledAtEachPointAndNamedNowhere) {
  Engine e;
  CountingFeature counting;
  RunOptions options;
  options.features = {&counting};
  std::string stream = deployment("a", "both:1") +
                       "---\nkind: ConfigMap\nmetadata:\n  name: mine\n---\n# REWRITE ME\n" +
                       deployment("b", "both:1");
  RunResult r = e.run({Input::in_memory("apps.yaml", stream)}, Task::Fix, options);
  EXPECT_EQ(counting.gathered, 1);
  EXPECT_EQ(counting.counts.prepared.load(), 2);
  EXPECT_EQ(counting.counts.checked.load(), 2);
  EXPECT_EQ(counting.counts.analyzed.load(), 2);
  std::vector<std::string> seen;
  for (const findings::Finding& f : e.findings) {
    if (f.rule == "mutable-tag")
      seen.push_back(f.file + " " + std::to_string(f.document) + " " + f.message);
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"apps.yaml 0 seen 1 workload(s)", "apps.yaml 1 mine",
                                            "apps.yaml 2 seen 1 workload(s)"}));
  std::string out = r.files.at(0).output();
  EXPECT_TRUE(contains(out, "  name: mine\n# owned\n")) << out;
  EXPECT_TRUE(contains(out, "# rewritten!\n")) << out;
  EXPECT_FALSE(contains(out, "REWRITE ME")) << out;
}

TEST(ImageAnswer, ResolvedImagesAreKnownOthersAssumedOnlyWithAFallback) {
  const image::Reference ref = image::Reference::parse("registry.example/app:1");
  placement::Config config = placement::Config::defaults();
  resolve::Resolution found;
  found.ok = true;
  found.platforms = image::PlatformSet::parse("linux/arm64");
  found.digest = "sha256:" + std::string(64, 'a');
  placement::ImageAnswer a = answer_of(ref, found, config);
  EXPECT_TRUE(a.known());
  EXPECT_EQ(a.platforms, &found.platforms);
  EXPECT_EQ(a.digest, found.digest);
  EXPECT_TRUE(a.why.empty());

  resolve::Resolution missing;
  missing.error = "registry.example/app:1: is not in the lock file archfit.lock";
  placement::ImageAnswer b = answer_of(ref, missing, config);
  EXPECT_FALSE(b.known());
  EXPECT_EQ(b.platforms, nullptr);
  EXPECT_EQ(b.why, "is not in the lock file archfit.lock");

  config.fallback_platforms = image::PlatformSet::parse("linux/amd64");
  placement::ImageAnswer c = answer_of(ref, missing, config);
  EXPECT_FALSE(c.known());
  EXPECT_TRUE(c.assumed);
  EXPECT_EQ(c.platforms, &config.fallback_platforms);
  EXPECT_EQ(c.why, b.why);
}

TEST(Run, FilesWithoutKubernetesObjectsAreCountedAsSuch) {
  Engine e;
  RunResult r = e.run({Input::in_memory("values.yaml", "replicas: 3\n---\nimage: {tag: 1}\n"),
                       Input::in_memory("app.yaml", "kind: ConfigMap\napiVersion: v1\n---\n" +
                                                        deployment("a", "both:1")),
                       Input::in_memory("empty.yaml", "# nothing\n")},
                      Task::Lint);
  ASSERT_EQ(r.files.size(), 3u);
  EXPECT_EQ(r.files[0].input.name, "app.yaml");
  EXPECT_EQ(r.files[0].documents, 2u);
  EXPECT_EQ(r.files[0].objects, 2u);
  EXPECT_EQ(r.files[1].input.name, "empty.yaml");
  EXPECT_EQ(r.files[1].documents, 0u);
  EXPECT_EQ(r.files[2].documents, 2u);
  EXPECT_EQ(r.files[2].objects, 0u);
}

}  // namespace
}  // namespace archfit::run
