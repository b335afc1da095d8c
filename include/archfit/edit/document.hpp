// Applying the changes planned for one document's pod templates to its text,
// and checking the result: the edited text must parse and mean exactly the
// original data with the planned fields changed.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/base/splices.hpp>
#include <archfit/edit/layout.hpp>
#include <archfit/yaml/change.hpp>
#include <archfit/yaml/node.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::edit {

struct TemplateEdit {
  yaml::NodeRef pod_template;            // the mapping with the template's metadata and spec
  std::span<const yaml::PathStep> path;  // of that mapping from the document root (none: a Pod)
  const std::vector<yaml::FieldChange>* changes = nullptr;  // owned by the caller
};

struct DocumentResult {
  std::string text;  // the new document text when `changed`
  bool changed = false;
  // When `changed` and verified: the same text as replacements of ranges of
  // the original's (checked to give `text` exactly), so that a caller can
  // keep those instead of the whole text. Nearly always there.
  std::optional<Splices> replacements;
  // One per template that could not be edited (index into the edits, reason);
  // the text leaves those templates as they were.
  std::vector<std::pair<std::size_t, std::string>> uneditable;
  // The edited text did not parse again, or did not mean what was planned
  // (why): a bug. Nothing of `text` may be written then.
  std::string unverified;
};

// `first_line` is the document's first line in its file, for messages. With
// `check_only`, only finds out which templates cannot be edited: no text is
// produced and nothing is verified.
// Where edits only add lines, the edited text is checked with a tree grafted
// from the original one and a parse of the new lines (yaml::graft). With
// this on, every grafted tree is also compared with a parse of the whole
// text, and a difference is an internal error: the tests turn it on.
void check_grafts_against_parse(bool on);

// `layout`: how text added must look; by default, as the document looks
// (detect_layout). A list's item edited alone looks like the whole list.
DocumentResult edit_document(const yaml::Tree& tree, std::uint32_t first_line,
                             const std::vector<TemplateEdit>& edits, bool check_only = false,
                             const Layout* layout = nullptr);

}  // namespace archfit::edit
