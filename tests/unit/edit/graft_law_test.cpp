// The law behind verifying edits with a grafted tree: wherever the editor adds
// entries or items to a real manifest and yaml::graft builds the edited
// tree, that tree is the one parsing the edited text gives. Checked over
// every block collection of every corpus document, at its start, middle and
// end, with scalar, nested and flow values.
#include <gtest/gtest.h>

#include <archfit/edit/editor.hpp>
#include <archfit/edit/layout.hpp>
#include <archfit/yaml/graft.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

#include "support/corpus.hpp"

namespace archfit::edit {
namespace {

using yaml::Value;

Value nested_value(std::size_t k) {
  switch (k % 3) {
    case 0:
      return Value::string("graft law");
    case 1: {
      Value inner = Value::mapping();
      inner.set("c", Value::string("d"));
      Value v = Value::mapping();
      v.set("a", Value::sequence({Value::integer(1), Value::integer(2)}));
      v.set("b", std::move(inner));
      return v;
    }
    default: {
      Value item = Value::mapping();
      item.set("n", Value::integer(2));
      return Value::sequence({Value::integer(1), std::move(item)});
    }
  }
}

constexpr std::size_t kPerDocument = 10;

struct Tally {
  std::size_t edits = 0;
  std::size_t grafted = 0;
};

// Grafts the editor's lines, if it can, and compares with a parse.
void check(const yaml::Tree& tree, const DocumentEditor& editor, std::uint32_t first_line,
           const std::string& where, Tally& tally) {
  std::vector<yaml::Insertion> insertions = editor.insertions();
  if (insertions.empty()) return;
  ++tally.edits;
  std::string edited = editor.apply();
  std::optional<yaml::Tree> grafted =
      yaml::graft(tree, edited, insertions, archfit::testing::as_written());
  if (!grafted) return;
  ++tally.grafted;
  yaml::Tree parsed = yaml::parse_document(edited, first_line, archfit::testing::as_written());
  EXPECT_EQ(yaml::tree_difference(*grafted, parsed), "") << where << "\n" << edited;
}

void edit_everywhere(const yaml::Tree& tree, std::uint32_t first_line, const std::string& file,
                     Tally& tally) {
  Layout layout = detect_layout(tree);
  // The mapping entry that holds each block sequence, by the sequence's id.
  std::vector<std::pair<yaml::NodeRef, std::size_t>> holder(tree.node_count());
  for (yaml::NodeId p = 0; p < tree.node_count(); ++p) {
    yaml::NodeRef m(&tree, p);
    for (std::size_t i = 0; m.is_mapping() && i < m.size(); ++i) {
      if (m.value(i).is_sequence() && m.key(i).is_scalar()) holder[m.value(i).id()] = {m, i};
    }
  }
  std::vector<yaml::NodeId> collections;
  for (yaml::NodeId id = 0; id < tree.node_count(); ++id) {
    yaml::NodeRef n(&tree, id);
    if (n.style() == yaml::Style::Block && n.size() > 0) collections.push_back(id);
  }
  // Every collection of a small document; of a large one (a CRD's schema),
  // an even spread of kPerDocument of them.
  std::size_t stride = std::max<std::size_t>(1, collections.size() / kPerDocument);
  for (std::size_t c = 0; c < collections.size(); c += stride) {
    yaml::NodeId id = collections[c];
    yaml::NodeRef n(&tree, id);
    std::string where = file + ":" + std::to_string(n.line());
    std::size_t size = n.size();
    for (std::size_t at : {std::size_t{0}, size / 2, size}) {
      if (n.is_mapping()) {
        DocumentEditor editor(tree, layout);
        if (editor.try_set(n, {"graft-law"}, nested_value(id + at), at)) {
          check(tree, editor, first_line, where, tally);
        }
        continue;
      }
      // A sequence: the mapping entry that holds it gets it with one item more.
      auto [parent, key] = holder[id];
      if (!parent) continue;
      Value items = yaml::to_value(n);
      items.items().insert(items.items().begin() + static_cast<std::ptrdiff_t>(at),
                           nested_value(id + at));
      DocumentEditor editor(tree, layout);
      if (editor.try_set(parent, {std::string(parent.key(key).scalar())}, items)) {
        check(tree, editor, first_line, where, tally);
      }
    }
  }
}

TEST(CorpusGraft, GraftedTreesAreParsedTrees) {
  Tally tally;
  archfit::testing::for_each_corpus_document(
      [&tally](const std::filesystem::path& path, const yaml::DocumentText& doc) {
        yaml::Tree tree =
            yaml::parse_document(doc.text, doc.first_line, archfit::testing::as_written());
        edit_everywhere(tree, doc.first_line, path.filename().string(), tally);
      });
  std::cout << "[ graft    ] " << tally.grafted << " of " << tally.edits
            << " corpus edits grafted, each equal to its parse\n";
  // Most edits of real manifests are new lines in plain block collections.
  EXPECT_GT(tally.edits, 10000u);
  EXPECT_GT(tally.grafted * 10, tally.edits * 7);
}

}  // namespace
}  // namespace archfit::edit
