#include <atomic>
#include <optional>

#include <archfit/base/error.hpp>
#include <archfit/edit/document.hpp>
#include <archfit/edit/editor.hpp>
#include <archfit/edit/layout.hpp>
#include <archfit/edit/verify.hpp>
#include <archfit/yaml/graft.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::edit {

namespace {

std::atomic<bool> cross_check{false};

// The edited document's tree built from the original's where the edits are
// only new lines (yaml::graft), which costs a parse of those lines instead of
// the whole document; nullopt when it has to be parsed.
std::optional<yaml::Tree> graft(const yaml::Tree& tree, const DocumentEditor& editor,
                                std::string_view text, std::uint32_t first_line) {
  std::vector<yaml::Insertion> insertions = editor.insertions();
  if (insertions.empty()) return std::nullopt;
  std::optional<yaml::Tree> grafted = yaml::graft(tree, text, insertions);
  if (grafted && cross_check.load(std::memory_order_relaxed)) {
    std::string difference;
    try {
      difference = yaml::tree_difference(*grafted, yaml::parse_document(text, first_line));
    } catch (const Error& e) {
      difference = "the text does not parse: " + e.message();
    }
    if (!difference.empty()) {
      fail(ErrorKind::Internal, "the grafted tree is not the parsed one (" + difference + ")");
    }
  }
  return grafted;
}

}  // namespace

void check_grafts_against_parse(bool on) {
  cross_check.store(on, std::memory_order_relaxed);
}

DocumentResult edit_document(const yaml::Tree& tree, std::uint32_t first_line,
                             const std::vector<TemplateEdit>& edits, bool check_only,
                             const Layout* layout) {
  DocumentResult result;
  if (edits.empty()) return result;
  DocumentEditor editor(tree, layout != nullptr ? *layout : detect_layout(tree));
  std::vector<AppliedChanges> applied;
  // Rewriting an alias frees its anchor, so an edit refused because of an
  // anchor is tried again once other edits have made progress.
  std::vector<std::size_t> pending(edits.size());
  for (std::size_t i = 0; i < edits.size(); ++i)
    pending[i] = i;
  std::vector<std::pair<std::size_t, std::string>> refused;
  for (bool progress = true; progress && !pending.empty();) {
    progress = false;
    refused.clear();
    std::vector<std::size_t> next;
    for (std::size_t i : pending) {
      const TemplateEdit& edit = edits[i];
      // All of a template's changes, or none of them.
      DocumentEditor::Mark mark = editor.checkpoint();
      bool ok = true;
      std::string why;
      for (const yaml::FieldChange& change : *edit.changes) {
        if (change.remove) {
          ok = editor.try_remove(edit.pod_template, change.path, &why);
        } else {
          ok = editor.try_set(edit.pod_template, change.path, change.value,
                              change.position.value_or(static_cast<std::size_t>(-1)), &why);
        }
        if (!ok) break;
      }
      if (!ok) {
        editor.rollback(mark);
        refused.emplace_back(i, std::move(why));
        next.push_back(i);
        continue;
      }
      progress = true;
      if (!check_only) applied.push_back(AppliedChanges{edit.path, edit.changes});
    }
    pending = std::move(next);
  }
  result.uneditable = std::move(refused);
  if (check_only || editor.empty()) return result;
  try {
    result.text = editor.apply();
  } catch (const Error& e) {
    result.unverified = e.message();
    return result;
  }
  result.changed = true;

  yaml::Tree reparsed;
  if (std::optional<yaml::Tree> grafted = graft(tree, editor, result.text, first_line)) {
    reparsed = std::move(*grafted);
  } else {
    try {
      reparsed = yaml::parse_document(result.text, first_line);
    } catch (const Error& e) {
      result.unverified = "the edited document no longer parses (" + e.message() + ")";
      return result;
    }
  }
  bool meant = false;
  try {
    meant = means_as_intended(tree.root(), reparsed.root(), applied);
  } catch (const Error& e) {
    result.unverified = e.message();
    return result;
  }
  if (!meant) {
    result.unverified = "the edited document does not mean what archfit intended";
    return result;
  }
  // The ranges are kept only where they give the verified text exactly.
  Splices replacements = std::move(editor).replacements();
  if (replacements.gives(tree.text(), result.text)) result.replacements = std::move(replacements);
  return result;
}

}  // namespace archfit::edit
