// Turning the plans of one document's pod templates into its new text.
//
// A template archfit placed before is edited in two steps: what its record
// says archfit wrote comes out first (giving back the user's text), then what
// archfit writes now goes in, so that the result is what a first run on the
// user's text gives. A plan that takes out or fills in the user's own values
// is also undone once more in memory, and written only if that gives the
// user's bytes back. A template that cannot be edited, or whose edit does not
// check out, is left as it is and named; the others go on.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <archfit/base/splices.hpp>
#include <archfit/edit/layout.hpp>
#include <archfit/manifest/kinds.hpp>
#include <archfit/placement/plan.hpp>
#include <archfit/yaml/node.hpp>
#include <archfit/yaml/path.hpp>

namespace archfit::run {

struct PlannedTemplate {
  placement::TemplateContext where;
  placement::TemplatePlan plan;
  yaml::Path path;        // of the template mapping from the document root
  std::size_t index = 0;  // among all of the document's templates, in discovery order
  // For an item of a list, analysed as a document of its own: how many steps
  // of `path` are the item's place in the list (items[3]). What is edited is
  // the item, from its own root.
  std::size_t in_item = 0;
  std::span<const yaml::PathStep> edit_path() const {
    return std::span<const yaml::PathStep>(path).subspan(in_item);
  }
};

struct EditOutcome {
  bool changed = false;
  std::string text;  // the new document text when changed (not with check_only)
  // The same text as replacements of ranges of the document's, when it was
  // written in one step from the document (no earlier record taken out).
  std::optional<Splices> replacements;
  // Templates left as they are (index into the planned templates), and why.
  std::vector<std::pair<std::size_t, std::string>> left_alone;
};

// With `check_only`, finds out only which templates would be left alone; the
// text is produced only where that takes it (records, values given back).
// `layout`: how added text must look (edit::edit_document).
EditOutcome apply_plans(const yaml::Tree& tree, std::uint32_t first_line,
                        const std::vector<PlannedTemplate>& templates,
                        const manifest::KindTable& kinds, bool check_only,
                        const edit::Layout* layout = nullptr);

}  // namespace archfit::run
