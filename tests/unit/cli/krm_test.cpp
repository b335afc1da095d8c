// `archfit krm` as kustomize's and kpt's exec runtimes run it: a ResourceList
// on stdin, the items fixed in place, a result per finding, the annotations
// and order of items kept, the functionConfig read as a configuration.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

#include "support/corpus.hpp"
#include "support/process.hpp"
#include "support/project.hpp"

namespace archfit {
namespace {

using testing::contains;
using testing::ProcessResult;
using testing::Project;

std::string item(const std::string& name, const std::string& image, int index) {
  return "- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: " + name +
         "\n    annotations:\n      config.kubernetes.io/path: apps/" + name +
         ".yaml\n      config.kubernetes.io/index: '" + std::to_string(index) +
         "'\n      internal.config.kubernetes.io/path: apps/" + name +
         ".yaml\n      kustomize.config.k8s.io/id: |\n        kind: Deployment\n"
         "  spec:\n    template:\n      spec:\n        containers:\n        - name: app\n"
         "          image: " +
         image + "\n";
}

std::string resource_list(const std::string& function_config) {
  return "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
         item("web", "amd64only:1", 0) +
         "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n" + item("api", "both:1", 2) +
         function_config;
}

yaml::Value value_of(const std::string& text) {
  yaml::Tree tree = yaml::parse_document(text);
  return yaml::to_value(tree.root());
}

TEST(Krm, FixesItemsInPlaceAndKeepsEverythingElse) {
  Project p;
  std::string input = resource_list("");
  ProcessResult r = p.run({"krm"}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The items' order and every annotation archfit does not own are kept.
  yaml::Value out = value_of(r.out);
  yaml::Value in = value_of(input);
  const yaml::Value& items = *out.find("items");
  ASSERT_EQ(items.items().size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(*items.items()[i].find("kind"), *in.find("items")->items()[i].find("kind"));
    EXPECT_EQ(*items.items()[i].find("metadata")->find("name"),
              *in.find("items")->items()[i].find("metadata")->find("name"));
  }
  EXPECT_EQ(*items.items()[0].find("metadata"), *in.find("items")->items()[0].find("metadata"));
  // The same bytes as fix writes the stream's documents.
  ProcessResult fixed = p.run({"fix", "-"}, input);
  EXPECT_EQ(r.out.substr(0, fixed.out.size()), fixed.out);
  EXPECT_TRUE(contains(r.err, "archfit krm: 3 items, 2 workloads, fixed")) << r.err;
}

// An item stays one item: a Deployment with a weighted spread is not split
// here, and a result says so (fix of the manifests splits it).
TEST(Krm, DoesNotSplitADeploymentIntoItems) {
  Project p;
  std::string input =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
      "- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: web\n"
      "    annotations:\n      CustomPodScheduleStrategy: 'type=a,weight=1:type=b,weight=1'\n"
      "  spec:\n    replicas: 4\n    selector: {matchLabels: {app: web}}\n"
      "    template:\n      metadata: {labels: {app: web}}\n      spec:\n"
      "        containers: [{name: app, image: both:1}]\n";
  ProcessResult r = p.run({"krm"}, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  yaml::Value out = value_of(r.out);
  ASSERT_EQ(out.find("items")->items().size(), 1u);
  EXPECT_FALSE(contains(r.out, "archfit.io/split"));
  EXPECT_TRUE(contains(r.out, "spread-not-split")) << r.out;
  EXPECT_TRUE(contains(r.out, "not here: run archfit fix on the manifests")) << r.out;
}

TEST(Krm, LintLeavesItemsAndReportsResultsWithTheirFiles) {
  Project p;
  std::string input = resource_list("");
  ProcessResult r = p.run({"krm", "--mode", "lint"}, input);
  EXPECT_EQ(r.exit_code, 1) << r.err;  // an error result
  ASSERT_EQ(r.out.substr(0, input.size()), input);
  yaml::Value results = *value_of(r.out).find("results");
  ASSERT_FALSE(results.items().empty());
  const yaml::Value& first = results.items()[0];
  EXPECT_EQ(first.find("severity")->as_string(), "error");
  EXPECT_EQ(first.find("resourceRef")->find("name")->as_string(), "web");
  EXPECT_EQ(first.find("file")->find("path")->as_string(), "apps/web.yaml");
  EXPECT_EQ(first.find("field")->find("path")->as_string(), "spec.template.spec.affinity");
  EXPECT_EQ(first.find("tags")->find("rule")->as_string(), "missing-arch-affinity");
}

TEST(Krm, FunctionConfigTypedOrConfigMapIsTheConfiguration) {
  Project p;
  // An amd64-only cluster: the amd64-only image needs nothing.
  for (const std::string& config :
       {std::string("functionConfig:\n  apiVersion: archfit.io/v1alpha1\n  kind: ArchFit\n"
                    "  metadata:\n    name: a\n    annotations:\n"
                    "      config.kubernetes.io/local-config: \"true\"\n"
                    "  clusterPlatforms: [linux/amd64]\n"),
        std::string("functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n"
                    "  data:\n    clusterPlatforms: linux/amd64\n")}) {
    ProcessResult r = p.run({"krm", "--mode", "lint"}, resource_list(config));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(contains(r.out, "missing-arch-affinity")) << r.out;
  }
  ProcessResult bad = p.run(
      {"krm"}, resource_list("functionConfig:\n  apiVersion: archfit.io/v1alpha1\n  kind: ArchFit\n"
                             "  placement: {mode: sideways}\n"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(bad.out.empty());
  EXPECT_TRUE(contains(bad.err, "\"sideways\"")) << bad.err;
}

// The functionConfig may carry the lock: a path, its JSON, or (typed) a
// mapping. Without it (and no archfit.lock here) the images are unresolved.
TEST(Krm, FunctionConfigGivesTheLockAsAPathOrItsContent) {
  Project p;
  std::filesystem::remove(p / "archfit.lock");
  p.write("locks/team.lock", testing::kProjectLock);
  std::string lock_json = testing::kProjectLock;
  std::string one_line;
  for (char c : lock_json)
    if (c != '\n') one_line += c;
  std::string typed = "functionConfig:\n  apiVersion: archfit.io/v1alpha1\n  kind: ArchFit\n";
  for (const std::string& config :
       {typed + "  lock: locks/team.lock\n", typed + "  lock: '" + one_line + "'\n",
        typed + "  lock:\n    version: 1\n    images:\n      docker.io/library/amd64only:1:\n"
                "        platforms: [linux/amd64]\n      docker.io/library/both:1:\n"
                "        platforms: [linux/amd64, linux/arm64]\n",
        std::string("functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n"
                    "  data:\n    lock: locks/team.lock\n")}) {
    ProcessResult r = p.run({"krm", "--mode", "lint"}, resource_list(config));
    EXPECT_EQ(r.exit_code, 1) << config << r.err;
    EXPECT_TRUE(contains(r.out, "missing-arch-affinity")) << config << r.out;
    EXPECT_FALSE(contains(r.out, "unresolved-image")) << config << r.out;
  }
  ProcessResult none = p.run({"krm", "--mode", "lint"}, resource_list(typed));
  EXPECT_TRUE(contains(none.out, "unresolved-image")) << none.out;
  // In a configuration file `lock` is no key.
  p.write(".archfit.yaml", "lock: locks/team.lock\n");
  ProcessResult file = p.run({"lint", "-"}, testing::needs_fix("a"));
  EXPECT_EQ(file.exit_code, 2);
  EXPECT_TRUE(contains(file.err, "unknown key")) << file.err;
}

TEST(Krm, ResultsAreAddedToThoseOfEarlierFunctionsAndJsonStaysJson) {
  Project p;
  std::string input = resource_list("results:\n- {message: earlier, severity: info}\n");
  ProcessResult r = p.run({"krm", "--mode", "lint"}, input);
  yaml::Value results = *value_of(r.out).find("results");
  ASSERT_GE(results.items().size(), 2u);
  EXPECT_EQ(results.items()[0].find("message")->as_string(), "earlier");
  // A ResourceList in JSON comes back as JSON.
  std::string json =
      R"({"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[)"
      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":)"
      R"({"spec":{"containers":[{"name":"app","image":"amd64only:1"}]}}}}]})";
  ProcessResult j = p.run({"krm"}, json);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  rapidjson::Document doc;
  doc.Parse(j.out.c_str());
  ASSERT_FALSE(doc.HasParseError()) << j.out;
  EXPECT_TRUE(doc.HasMember("items"));
}

// Items that do not read alone (an alias to another item's anchor) are
// analysed as the one document they are; errors name their line in the list.
TEST(Krm, ItemsThatDoNotReadAloneAndErrorsAreTakenAsTheWholeList) {
  Project p;
  std::string aliased =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n"
      "  kind: ConfigMap\n  metadata: &m {name: a}\n- apiVersion: apps/v1\n  kind: Deployment\n"
      "  metadata: *m\n  spec:\n    template:\n      spec:\n        containers:\n"
      "        - {name: app, image: amd64only:1}\n";
  ProcessResult r = p.run({"krm"}, aliased);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "kubernetes.io/arch")) << r.out;
  EXPECT_TRUE(contains(r.err, "archfit krm: 2 items")) << r.err;
  ProcessResult bad = p.run({"krm"},
                            "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
                            "items:\n- apiVersion: v1\n  kind: ConfigMap\n  data: {a: [1}\n");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(bad.out.empty());
  EXPECT_TRUE(contains(bad.err, ":6:15: cannot parse YAML")) << bad.err;
}

// An item archfit cannot read is an error result on that item, with its
// file; the other items are fixed as usual.
TEST(Krm, AnItemThatCannotBeReadIsAResultAndTheOthersAreFixed) {
  Project p;
  std::string broken = item("bad", "amd64only:1", 1);
  broken.insert(broken.find("  spec:"), "  kind: Deployment\n");
  std::string list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
                     item("web", "amd64only:1", 0) + broken + item("api", "amd64only:1", 2);
  ProcessResult r = p.run({"krm"}, list);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  yaml::Limits as_is;
  as_is.reject_duplicate_keys = false;
  yaml::Tree tree = yaml::parse_document(r.out, 0, as_is);
  yaml::NodeRef items = tree.root().get("items");
  ASSERT_EQ(items.size(), 3u) << r.out;
  EXPECT_TRUE(items.item(0).get("spec").get("template").get("spec").get("affinity"));
  EXPECT_FALSE(items.item(1).get("spec").get("template").get("spec").get("affinity"));
  EXPECT_TRUE(items.item(2).get("spec").get("template").get("spec").get("affinity"));
  EXPECT_NE(r.out.find(broken), std::string::npos) << "the broken item keeps its bytes";
  yaml::NodeRef results = tree.root().get("results");
  ASSERT_TRUE(results.is_sequence()) << r.out;
  bool found = false;
  for (std::size_t i = 0; i < results.size(); ++i) {
    yaml::NodeRef result = results.item(i);
    if (!contains(std::string(result.get("message").scalar()), "duplicate key \"kind\"")) continue;
    found = true;
    EXPECT_EQ(result.get("severity").scalar(), "error");
    EXPECT_EQ(result.get("resourceRef").get("name").scalar(), "bad");
    EXPECT_EQ(result.get("file").get("path").scalar(), "apps/bad.yaml");
  }
  EXPECT_TRUE(found) << r.out;
}

// fix returns what it changed, as kpt's mutators do: an info result per
// change, with the item, the field within it and the value written.
TEST(Krm, FixReturnsWhatItChanged) {
  Project p;
  ProcessResult r = p.run({"krm"}, resource_list(""));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  yaml::Value results = *value_of(r.out).find("results");
  std::vector<std::string> messages;
  for (const yaml::Value& result : results.items()) {
    EXPECT_EQ(result.find("severity")->as_string(), "info");
    std::string message = result.find("message")->as_string();
    EXPECT_FALSE(contains(message, "archfit fix ")) << message;
    messages.push_back(result.find("resourceRef")->find("name")->as_string() + " " +
                       result.find("field")->find("path")->as_string() + " " +
                       message.substr(0, message.find(':')));
    EXPECT_TRUE(result.find("field")->find("proposedValue")) << message;
  }
  EXPECT_EQ(messages, (std::vector<std::string>{
                          "web spec.template.spec.affinity fixed missing-arch-affinity",
                          "api spec.template.spec.tolerations fixed missing-toleration"}));
  // Nothing to change: no result.
  ProcessResult again = p.run({"krm"}, r.out.substr(0, r.out.find("results:")));
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_FALSE(contains(again.out, "results:")) << again.out;
}

TEST(Krm, AStreamThatIsNotAResourceListIsRefused) {
  Project p;
  ProcessResult r = p.run({"krm"}, testing::needs_fix("web"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "expected a ResourceList")) << r.err;
}

// Every corpus file as a ResourceList: krm's items are what fix writes the
// file's documents as, and an item fix leaves alone keeps its bytes.
std::string as_resource_list(const std::string& stream) {
  std::string out = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n";
  for (const yaml::DocumentText& doc : yaml::split_stream(stream)) {
    if (!doc.has_content) continue;
    std::string text(doc.text);
    std::size_t at = 0;
    bool first = true;
    // Leading comments and the marker go; every other line is indented under "- ".
    while (at < text.size()) {
      std::size_t nl = text.find('\n', at);
      std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
      std::string line = text.substr(at, end - at);
      at = end;
      if (line.starts_with("...")) break;  // the document's end marker
      if (first && (line.find_first_not_of(" \n") == std::string::npos ||
                    line[line.find_first_not_of(' ')] == '#' || line.starts_with("---"))) {
        continue;
      }
      out += (first ? "- " : (line == "\n" ? "" : "  ")) + line;
      first = false;
    }
    if (out.back() != '\n') out += '\n';
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t nl = text.find('\n', at);
    out.push_back(text.substr(at, nl - at));
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}

TEST(CorpusKrm, ItemsAreWhatFixWritesAndUntouchedItemsKeepTheirBytes) {
  Project p;
  std::size_t lists = 0;
  for (const std::filesystem::path& file : testing::corpus_files()) {
    std::string text = testing::read(file);
    // The defaults, but warn on the corpus's images the lock does not know
    // (an offline run fails on them otherwise): krm and fix alike.
    ProcessResult fixed =
        p.run({"fix", "--config", "/dev/null", "-"}, text, {"ARCHFIT_ON_UNRESOLVED=warn"});
    ASSERT_NE(fixed.exit_code, 2) << file << ": " << fixed.err;
    std::string list = as_resource_list(text);
    ProcessResult r = p.run({"krm", "--config", "/dev/null"}, list, {"ARCHFIT_ON_UNRESOLVED=warn"});
    ASSERT_NE(r.exit_code, 2) << file << ": " << r.err;
    // A document with a key given twice is left as it is by both: read as it
    // is (the last value wins) to compare.
    yaml::Limits as_is;
    as_is.reject_duplicate_keys = false;
    auto read = [&as_is](const std::string& yaml_text) {
      yaml::Tree tree = yaml::parse_document(yaml_text, 0, as_is);
      return yaml::to_value(tree.root(), as_is);
    };
    yaml::Value items = *read(r.out).find("items");
    std::vector<yaml::Value> docs;
    for (const yaml::DocumentText& doc : yaml::split_stream(fixed.out)) {
      if (doc.has_content) docs.push_back(read(std::string(doc.text)));
    }
    ASSERT_EQ(items.items().size(), docs.size()) << file;
    for (std::size_t i = 0; i < docs.size(); ++i)
      EXPECT_EQ(items.items()[i], docs[i]) << file << " item " << i;
    // fix only adds lines to these files (none carries an earlier record):
    // every line of the ResourceList is in krm's output, in order.
    std::vector<std::string> in_lines = lines_of(list), out_lines = lines_of(r.out);
    std::size_t k = 0;
    for (const std::string& line : out_lines)
      if (k < in_lines.size() && line == in_lines[k]) ++k;
    EXPECT_EQ(k, in_lines.size()) << file << ": line " << k + 1 << " of the input is not kept: "
                                  << (k < in_lines.size() ? in_lines[k] : "");
    ++lists;
  }
  EXPECT_GE(lists, 20u);
}

}  // namespace
}  // namespace archfit
