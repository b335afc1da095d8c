// The items of a ResourceList cut out as documents and put back: bytes the
// edits do not touch stay as they were, indentation included.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include <archfit/run/resource_list.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

namespace archfit::run {
namespace {

const std::string kList =
    "apiVersion: config.kubernetes.io/v1\n"
    "kind: ResourceList\n"
    "items:\n"
    "- apiVersion: v1\n"
    "  kind: ConfigMap   # a comment\n"
    "  metadata: {name: a}\n"
    "  data:\n"
    "    script: |\n"
    "      one\n"
    "\n"
    "      two\n"
    "-\n"
    "  apiVersion: v1\n"
    "  kind: Secret\n"
    "  metadata:\n"
    "    name: b\n"
    "  # the last line\n"
    "functionConfig: {}\n";

bool contains_item(const std::string& text) {
  return text.find("kind: Secret") != std::string::npos;
}

std::optional<ResourceListItems> split(const std::string& text, yaml::Tree& tree) {
  tree = yaml::parse_document(text);
  return ResourceListItems::split(text, tree.root().get("items"));
}

TEST(ResourceListItems, EachItemIsADocumentWithoutItsIndentation) {
  yaml::Tree tree;
  std::optional<ResourceListItems> items = split(kList, tree);
  ASSERT_TRUE(items);
  ASSERT_EQ(items->size(), 2u);
  std::vector<yaml::DocumentText> docs = yaml::split_stream(items->stream());
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].text,
            "---\napiVersion: v1\nkind: ConfigMap   # a comment\nmetadata: {name: a}\ndata:\n"
            "  script: |\n    one\n\n    two\n");
  EXPECT_EQ(docs[1].text, "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: b\n");
  for (const yaml::DocumentText& d : docs)
    EXPECT_NO_THROW(yaml::parse_document(d.text));
}

TEST(ResourceListItems, NoEditGivesTheTextBackAndAnEditIsIndentedAsItsItem) {
  yaml::Tree tree;
  std::optional<ResourceListItems> items = split(kList, tree);
  ASSERT_TRUE(items);
  EXPECT_EQ(items->join(kList, Splices()), kList);
  std::vector<yaml::DocumentText> docs = yaml::split_stream(items->stream());
  Splices edits;
  edits.replace(docs[1].offset, docs[1].text.size(),
                "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: b\n  labels: {x: y}\n");
  std::string joined = items->join(kList, edits);
  EXPECT_NE(joined.find("-\n  apiVersion: v1\n  kind: Secret\n  metadata:\n    name: b\n"
                        "    labels: {x: y}\n  # the last line\nfunctionConfig: {}\n"),
            std::string::npos)
      << joined;
  EXPECT_EQ(joined.substr(0, kList.find("-\n  apiVersion: v1\n  kind: Secret")),
            kList.substr(0, kList.find("-\n  apiVersion: v1\n  kind: Secret")));
}

TEST(ResourceListItems, ItemsThatCannotBeCutOutExactlyAreNot) {
  yaml::Tree tree;
  EXPECT_FALSE(split("kind: ResourceList\nitems: [{kind: A}]\n", tree));
  // A blank line of a block scalar with fewer spaces than its item's indentation.
  EXPECT_FALSE(
      split("kind: ResourceList\nitems:\n  - kind: A\n    data: |\n      x\n  \n      y\n", tree));
  EXPECT_TRUE(
      split("kind: ResourceList\nitems:\n  - kind: A\n    data: |\n      x\n\n      y\n", tree));
  std::optional<ResourceListItems> none = split("kind: ResourceList\n", tree);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->size(), 0u);
}

TEST(ResourceListItems, TheLineScanCutsAsTheParsedListDoes) {
  const std::string list =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
      "- apiVersion: v1\n  kind: ConfigMap   # a comment\n  metadata: {name: a}\n"
      "  data:\n    script: |\n      - not an item\n\n      two\n"
      "# between items\n"
      "- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: b\n"
      "functionConfig:\n  kind: ConfigMap\n";
  yaml::Tree tree;
  std::optional<ResourceListItems> parsed = split(list, tree);
  std::optional<ResourceListItems> scanned = ResourceListItems::scan(list);
  ASSERT_TRUE(parsed);
  ASSERT_TRUE(scanned);
  EXPECT_EQ(scanned->stream(), parsed->stream());
  // The skeleton keeps every line where it was, the items' lines empty.
  const std::string& skeleton = scanned->skeleton();
  EXPECT_EQ(std::count(skeleton.begin(), skeleton.end(), '\n'),
            std::count(list.begin(), list.end(), '\n'));
  yaml::Tree rest = yaml::parse_document(skeleton);
  EXPECT_EQ(rest.root().get("functionConfig").line(), tree.root().get("functionConfig").line());
  EXPECT_EQ(rest.root().get("functionConfig").line(), 18u);
  EXPECT_FALSE(contains_item(skeleton));
  // Shapes the scan leaves to the parsed list.
  EXPECT_FALSE(ResourceListItems::scan(kList));  // "-" alone on its line
  EXPECT_FALSE(ResourceListItems::scan("kind: ResourceList\nitems: [{kind: A}]\n"));
  EXPECT_FALSE(ResourceListItems::scan("---\nkind: ResourceList\nitems:\n- kind: A\n"));
}

}  // namespace
}  // namespace archfit::run
