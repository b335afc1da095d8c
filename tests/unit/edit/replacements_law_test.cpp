// The law behind keeping only the ranges an edit changes: whatever the editor
// does to a real manifest (entries added at the start, middle and end of a
// mapping, entries taken out, values written anew, several of these at once),
// its replacements give exactly the text apply() writes. The one exception is
// documented: a removal that reaches the end of a text without a final line
// break, where apply() takes the break before it as well; edit_document
// compares, and keeps such a text whole.
#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/base/splices.hpp>
#include <archfit/edit/editor.hpp>
#include <archfit/edit/layout.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>
#include <archfit/yaml/value.hpp>

#include "support/corpus.hpp"

namespace archfit::edit {
namespace {

using yaml::Value;

constexpr std::size_t kEditsPerDocument = 12;

struct EditTally {
  std::size_t edits = 0;
  std::size_t exact = 0;
  std::size_t removals_at_the_end = 0;  // the documented exception
};

// One editor's work: apply() against its replacements.
void check(std::string_view text, DocumentEditor editor, const std::string& where,
           EditTally& tally) {
  if (editor.empty()) return;
  std::string applied;
  try {
    applied = editor.apply();
  } catch (const Error&) {
    return;  // edits that overlap (several at one place): nothing is written then
  }
  ++tally.edits;
  Splices replacements = std::move(editor).replacements();
  if (replacements.gives(text, applied)) {
    ++tally.exact;
    EXPECT_EQ(replacements.apply(text), applied) << where;
    return;
  }
  // Only a text without a final line break that lost its end may differ.
  const bool lost_its_end = !text.empty() && text.back() != '\n' && !replacements.empty() &&
                            replacements.replacements().back().end == text.size() &&
                            replacements.replacements().back().text.empty();
  EXPECT_TRUE(lost_its_end) << where << "\n--- applied:\n"
                            << applied << "--- from the replacements:\n"
                            << replacements.apply(text);
  ++tally.removals_at_the_end;
}

Value new_value(std::size_t k) {
  if (k % 2 == 0) return Value::string("replacement law");
  Value v = Value::mapping();
  v.set("a", Value::sequence({Value::integer(1), Value::integer(2)}));
  return v;
}

void edit_everywhere(const yaml::Tree& tree, const std::string& file, EditTally& tally) {
  Layout layout = detect_layout(tree);
  std::vector<yaml::NodeRef> mappings;
  for (yaml::NodeId id = 0; id < tree.node_count(); ++id) {
    yaml::NodeRef n(&tree, id);
    if (!n.is_mapping() || n.size() == 0) continue;
    bool plain_keys = true;
    for (std::size_t i = 0; i < n.size(); ++i)
      plain_keys = plain_keys && n.key(i).is_scalar();
    if (plain_keys) mappings.push_back(n);
  }
  std::size_t stride = std::max<std::size_t>(1, mappings.size() / kEditsPerDocument);
  for (std::size_t m = 0; m < mappings.size(); m += stride) {
    yaml::NodeRef n = mappings[m];
    const std::string where = file + ":" + std::to_string(n.line());
    auto key = [&n](std::size_t i) { return std::string(n.key(i).scalar()); };
    std::size_t size = n.size();
    for (std::size_t at : {std::size_t{0}, size / 2, size}) {
      DocumentEditor add(tree, layout);
      if (add.try_set(n, {"replacement-law"}, new_value(at), at)) {
        check(tree.text(), std::move(add), where + " add", tally);
      }
    }
    for (std::size_t i : {std::size_t{0}, size - 1}) {
      DocumentEditor remove(tree, layout);
      if (remove.try_remove(n, {key(i)}))
        check(tree.text(), std::move(remove), where + " remove", tally);
      DocumentEditor rewrite(tree, layout);
      if (rewrite.try_set(n, {key(i)}, new_value(i))) {
        check(tree.text(), std::move(rewrite), where + " rewrite", tally);
      }
    }
    // Several splices at once: the first entry out, the last rewritten, one
    // added in the middle (each only when the editor takes it).
    DocumentEditor several(tree, layout);
    several.try_remove(n, {key(0)});
    if (size > 1) several.try_set(n, {key(size - 1)}, new_value(m));
    several.try_set(n, {"replacement-law"}, new_value(m + 1), size / 2);
    check(tree.text(), std::move(several), where + " several", tally);
  }
}

TEST(CorpusReplacements, ReplacementsGiveWhatApplyWrites) {
  EditTally tally;
  archfit::testing::for_each_corpus_document(
      [&tally](const std::filesystem::path& path, const yaml::DocumentText& doc) {
        // Each document as it is and without its final line break.
        std::string cut(doc.text);
        while (!cut.empty() && (cut.back() == '\n' || cut.back() == '\r'))
          cut.pop_back();
        for (const std::string& version : {std::string(doc.text), cut}) {
          yaml::Tree tree;
          try {
            tree = yaml::parse_document(version, doc.first_line, archfit::testing::as_written());
          } catch (const Error&) {
            continue;  // a document that ends in a block scalar may not parse cut
          }
          edit_everywhere(tree, path.filename().string(), tally);
        }
      });
  std::cout << "[ ranges   ] " << tally.exact << " of " << tally.edits
            << " corpus edits given exactly by their replacements, " << tally.removals_at_the_end
            << " removals at the end of a text without a final "
            << "line break kept whole\n";
  EXPECT_GT(tally.edits, 20000u);
  EXPECT_GT(tally.exact * 100, tally.edits * 99);
}

}  // namespace
}  // namespace archfit::edit
