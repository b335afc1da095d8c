// The items of a ResourceList cut out as documents and put back: bytes the
// edits do not touch stay as they were, indentation included.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/surface/krm/resource_list.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::surface::krm {
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

// An item's edits may be several ranges of it, the last an insertion where
// the item ends (and so where the next one starts): each goes into its own
// item, indented as it.
TEST(ResourceListItems, SeveralEditsOfAnItemAndOneAtItsEnd) {
  yaml::Tree tree;
  std::optional<ResourceListItems> items = split(kList, tree);
  ASSERT_TRUE(items);
  std::vector<yaml::DocumentText> docs = yaml::split_stream(items->stream());
  ASSERT_EQ(docs.size(), 2u);
  const std::string_view first = docs[0].text;
  const std::size_t end_of_first = docs[0].offset + first.size();
  ASSERT_EQ(end_of_first, docs[1].offset);
  Splices edits;
  // "ConfigMap" becomes "Map", a label goes into the metadata, and a key
  // after the whole first item.
  edits.replace(docs[0].offset + first.find("ConfigMap"), 6, "");
  edits.replace(docs[0].offset + first.find("}\ndata"), 0, ", labels: {x: y}");
  edits.replace(end_of_first, 0, "extra: 1\n");
  // And the second item's last line.
  const std::string_view second = docs[1].text;
  edits.replace(docs[1].offset + second.find("  name: b"), 9, "  name: c");
  std::string joined = items->join(kList, edits);
  EXPECT_EQ(joined,
            "apiVersion: config.kubernetes.io/v1\n"
            "kind: ResourceList\n"
            "items:\n"
            "- apiVersion: v1\n"
            "  kind: Map   # a comment\n"
            "  metadata: {name: a, labels: {x: y}}\n"
            "  data:\n"
            "    script: |\n"
            "      one\n"
            "\n"
            "      two\n"
            "  extra: 1\n"
            "-\n"
            "  apiVersion: v1\n"
            "  kind: Secret\n"
            "  metadata:\n"
            "    name: c\n"
            "  # the last line\n"
            "functionConfig: {}\n");
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
  // Lines after a block scalar that read as a comment or blank but may be its
  // own go with the item, as in the parsed list.
  const std::string scalar_last =
      "kind: ResourceList\nitems:\n- kind: A\n  data:\n    s: |+\n      x\n"
      "      # of the scalar\n\n- kind: B\n";
  std::optional<ResourceListItems> exact = split(scalar_last, tree);
  std::optional<ResourceListItems> cut = ResourceListItems::scan(scalar_last);
  ASSERT_TRUE(exact);
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->stream(), exact->stream());
  EXPECT_EQ(
      yaml::parse_document(cut->document(cut->stream(), 0)).root().get("data").get("s").scalar(),
      "x\n# of the scalar\n\n");
  // A comment left of the item's keys ends the scalar: the scan goes on.
  EXPECT_TRUE(ResourceListItems::scan(
      "kind: ResourceList\nitems:\n- kind: A\n  s: |\n    x\n# between\n- kind: B\n"));
  // An item that is a block scalar, whose lines may stand left of where keys would.
  EXPECT_FALSE(ResourceListItems::scan("kind: ResourceList\nitems:\n- |1\n  x\n # y\n- kind: B\n"));
  // Shapes the scan leaves to the parsed list.
  EXPECT_FALSE(ResourceListItems::scan(kList));  // "-" alone on its line
  EXPECT_FALSE(ResourceListItems::scan("kind: ResourceList\nitems: [{kind: A}]\n"));
  EXPECT_FALSE(ResourceListItems::scan("---\nkind: ResourceList\nitems:\n- kind: A\n"));
}

// Over generated lists (items at two indentations, blank lines of every kind
// inside and between items, comments at any column, block scalars): where the
// line scan cuts the items, each item's document means what the item means in
// the parsed list, and the items put back unedited give the list back. (The
// parsed list's cut can differ in blank lines after a block scalar, which it
// counts to the item and the scan leaves between the items.)
TEST(ResourceListItems, TheLineScanAgreesWithTheParsedListOnGeneratedLists) {
  std::uint32_t state = 12345;
  auto pick = [&state](std::uint32_t n) {
    state = state * 1103515245u + 12345u;
    return (state >> 16) % n;
  };
  const std::vector<std::string> blanks = {"\n",      "  \n",        "    \n", "# c\n",
                                           "  # c\n", "      # c\n", " \n"};
  int scanned = 0;
  for (int round = 0; round < 400; ++round) {
    std::string pad(pick(2) * 2, ' ');  // "- " at column 0 or 2
    std::string in = pad + "  ";        // the items' keys
    std::string list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n";
    std::size_t items = 1 + pick(4);
    for (std::size_t i = 0; i < items; ++i) {
      list += pad + "- apiVersion: v1\n";
      if (pick(3) == 0) list += blanks[pick(static_cast<std::uint32_t>(blanks.size()))];
      list += in + "kind: ConfigMap\n" + in + "metadata: {name: n" + std::to_string(i) + "}\n";
      if (pick(2) == 0) {
        list += in + "data:\n" + in + "  script: |\n" + in + "    one\n";
        if (pick(2) == 0) list += blanks[pick(3)];  // no comment inside a block scalar
        list += in + "    two\n";
      }
      if (pick(3) == 0) list += blanks[pick(static_cast<std::uint32_t>(blanks.size()))];
    }
    list += "functionConfig: {}\n";
    std::optional<ResourceListItems> scan = ResourceListItems::scan(list);
    if (!scan) continue;
    ++scanned;
    yaml::Tree tree;
    tree = yaml::parse_document(list);
    ASSERT_EQ(scan->size(), items) << list;
    for (std::size_t i = 0; i < items; ++i) {
      std::string_view doc = scan->document(scan->stream(), i);
      EXPECT_EQ(yaml::to_json(yaml::to_value(yaml::parse_document(doc).root())),
                yaml::to_json(yaml::to_value(tree.root().get("items").item(i))))
          << doc;
    }
    EXPECT_EQ(scan->join(list, Splices()), list);
  }
  EXPECT_GT(scanned, 100);  // the law was put to the test
}

}  // namespace
}  // namespace archfit::surface::krm
