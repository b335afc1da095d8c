#include <algorithm>
#include <map>
#include <optional>

#include <archfit/base/error.hpp>
#include <archfit/edit/document.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/run/document_edits.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::run {

namespace {

// Every template of a document, in discovery order.
std::vector<yaml::NodeRef> template_nodes(const yaml::Tree& tree,
                                          const manifest::KindTable& kinds) {
  std::vector<yaml::NodeRef> out;
  for (const manifest::Workload& w : manifest::discover(tree, kinds)) {
    for (const manifest::PodTemplate& t : w.templates)
      out.push_back(t.node);
  }
  return out;
}

// Which of a plan's changes an edit applies; `storage` keeps those computed.
using ChangesOf =
    const std::vector<yaml::FieldChange>& (*)(const PlannedTemplate&,
                                              std::vector<yaml::FieldChange>& storage);

const std::vector<yaml::FieldChange>& removal_of(const PlannedTemplate& t,
                                                 std::vector<yaml::FieldChange>&) {
  return t.plan.removal;
}
const std::vector<yaml::FieldChange>& changes_of(const PlannedTemplate& t,
                                                 std::vector<yaml::FieldChange>&) {
  return t.plan.changes;
}
const std::vector<yaml::FieldChange>& undo_of(const PlannedTemplate& t,
                                              std::vector<yaml::FieldChange>& storage) {
  storage = placement::removal_changes(t.plan.desired);
  return storage;
}

// One attempt at the document with a set of templates to change. Either the
// new text, or the templates that must be left alone (and why).
class Attempt {
 public:
  Attempt(const yaml::Tree& tree, std::uint32_t first_line,
          const std::vector<PlannedTemplate>& templates, const manifest::KindTable& kinds,
          const edit::Layout* layout)
      : tree_(tree),
        first_line_(first_line),
        templates_(templates),
        kinds_(kinds),
        layout_(layout) {}

  struct Refusal {
    std::size_t index;
    std::string why;
    // Only what archfit writes now was refused: taking out what it wrote
    // earlier may still be done.
    bool after_removal;
  };
  std::vector<Refusal> refused;
  // The text run() returns as replacements of the document's, when known.
  std::optional<Splices> replacements;

  // The text with `which` templates changed, and archfit's earlier changes
  // taken out of `removal_only` too; nullopt when some were refused.
  std::optional<std::string> run(const std::vector<std::size_t>& which,
                                 const std::vector<std::size_t>& removal_only, bool check_only) {
    std::vector<std::size_t> with_record;
    bool gives_back = false;
    for (std::size_t i : which) {
      if (!templates_[i].plan.removal.empty()) with_record.push_back(i);
      gives_back = gives_back || templates_[i].plan.gives_back;
    }
    with_record.insert(with_record.end(), removal_only.begin(), removal_only.end());
    std::sort(with_record.begin(), with_record.end());
    if (check_only && with_record.empty() && !gives_back) {
      edit::DocumentResult r = edit(tree_, node_map(tree_), which, changes_of, true);
      refuse(r.uneditable, which, "", true);
      return std::string();
    }
    // Step 1: take out what archfit wrote before.
    // The text archfit writes into: the document's own, or (step 1) what is
    // left once archfit's earlier values are out.
    std::string_view text1 = tree_.text();
    std::string removed;
    yaml::Tree tree1;
    const yaml::Tree* base = &tree_;
    if (!with_record.empty()) {
      std::vector<yaml::NodeRef> nodes = node_map(tree_);
      edit::DocumentResult r = edit(tree_, nodes, with_record, removal_of, false);
      if (!refuse(r.uneditable, with_record, "taking out what archfit wrote earlier: ", false) ||
          !check(r, tree_, nodes, with_record, removal_of, "taking out what archfit wrote earlier",
                 false)) {
        return std::nullopt;
      }
      removed = std::move(r.text);
      text1 = removed;
      tree1 = yaml::parse_document(text1, first_line_);
      base = &tree1;
    }
    // Step 2: write what archfit writes now.
    std::vector<yaml::NodeRef> nodes = node_map(*base);
    edit::DocumentResult r2 = edit(*base, nodes, which, changes_of, false);
    if (!refuse(r2.uneditable, which, "", true) ||
        !check(r2, *base, nodes, which, changes_of, "archfit's edit", true)) {
      return std::nullopt;
    }
    if (r2.changed && base == &tree_) replacements = std::move(r2.replacements);
    std::string text2 = r2.changed ? std::move(r2.text) : std::string(text1);
    if (!gives_back) return text2;
    // The user's values taken out or filled in must come back byte for byte.
    yaml::Tree tree2 = yaml::parse_document(text2, first_line_);
    edit::DocumentResult r3 = edit(tree2, node_map(tree2), which, undo_of, false);
    std::string undone = r3.changed ? r3.text : text2;
    if (r3.uneditable.empty() && r3.unverified.empty() && undone == text1) return text2;
    for (std::size_t i : which) {
      if (!templates_[i].plan.gives_back) continue;
      refused.push_back(Refusal{
          i,
          "archfit would take out or fill in values of yours here (placement.respectExisting: "
          "false, or a null it fills), but could not give them back byte for byte on --remove "
          "(they carry comments or a layout archfit does not write)",
          true});
    }
    return std::nullopt;
  }

 private:
  std::vector<yaml::NodeRef> node_map(const yaml::Tree& tree) const {
    return &tree == &tree_ ? original_nodes() : template_nodes(tree, kinds_);
  }
  std::vector<yaml::NodeRef> original_nodes() const {
    std::vector<yaml::NodeRef> out;
    for (const PlannedTemplate& t : templates_) {
      if (out.size() <= t.index) out.resize(t.index + 1);
      out[t.index] = t.where.pod_template->node;
    }
    return out;
  }

  edit::DocumentResult edit(const yaml::Tree& tree, const std::vector<yaml::NodeRef>& nodes,
                            const std::vector<std::size_t>& which, ChangesOf changes,
                            bool check_only) const {
    std::vector<edit::TemplateEdit> edits;
    std::vector<std::vector<yaml::FieldChange>> storage(which.size());
    for (std::size_t k = 0; k < which.size(); ++k) {
      const PlannedTemplate& t = templates_[which[k]];
      if (t.index >= nodes.size()) fail(ErrorKind::Internal, "a pod template went missing");
      edits.push_back(edit::TemplateEdit{nodes[t.index], t.edit_path(), &changes(t, storage[k])});
    }
    return edit::edit_document(tree, first_line_, edits, check_only, layout_);
  }

  // Records refused templates; false when there are any.
  bool refuse(const std::vector<std::pair<std::size_t, std::string>>& uneditable,
              const std::vector<std::size_t>& which, const std::string& prefix,
              bool after_removal) {
    for (const auto& [k, why] : uneditable)
      refused.push_back(Refusal{which[k], prefix + why, after_removal});
    return uneditable.empty();
  }

  // A result that does not check out is a bug: find the templates whose
  // edits alone do not check out, and refuse those (all, if none alone).
  bool check(const edit::DocumentResult& r, const yaml::Tree& base,
             const std::vector<yaml::NodeRef>& nodes, const std::vector<std::size_t>& which,
             ChangesOf changes, const std::string& step, bool after_removal) {
    if (r.unverified.empty()) return true;
    std::vector<std::size_t> culprits;
    for (std::size_t i : which) {
      if (!edit(base, nodes, {i}, changes, false).unverified.empty()) culprits.push_back(i);
    }
    if (culprits.empty()) culprits = which;
    for (std::size_t i : culprits) {
      refused.push_back(Refusal{
          i,
          step + " did not check out (" + r.unverified + "); please report this with the document",
          after_removal});
    }
    return false;
  }

  const yaml::Tree& tree_;
  std::uint32_t first_line_;
  const std::vector<PlannedTemplate>& templates_;
  const manifest::KindTable& kinds_;
  const edit::Layout* layout_;
};

}  // namespace

EditOutcome apply_plans(const yaml::Tree& tree, std::uint32_t first_line,
                        const std::vector<PlannedTemplate>& templates,
                        const manifest::KindTable& kinds, bool check_only,
                        const edit::Layout* layout) {
  EditOutcome out;
  std::vector<std::size_t> which;
  for (std::size_t i = 0; i < templates.size(); ++i) {
    if (templates[i].plan.changes_template()) which.push_back(i);
  }
  // Templates whose new placement cannot be written but whose earlier one
  // archfit still takes out, so that the result is what a first run gives.
  std::vector<std::size_t> removal_only;
  std::map<std::size_t, std::string> why;
  // Each failed attempt leaves at least one template out of `which`.
  while (!which.empty() || !removal_only.empty()) {
    Attempt attempt(tree, first_line, templates, kinds, layout);
    std::optional<std::string> text = attempt.run(which, removal_only, check_only);
    if (attempt.refused.empty() && text) {
      out.changed = true;
      out.text = std::move(*text);
      out.replacements = std::move(attempt.replacements);
      break;
    }
    if (attempt.refused.empty()) fail(ErrorKind::Internal, "an edit failed without a reason");
    for (Attempt::Refusal& r : attempt.refused) {
      bool keeps_removal = r.after_removal && !templates[r.index].plan.removal.empty() &&
                           std::find(which.begin(), which.end(), r.index) != which.end();
      std::erase(which, r.index);
      std::erase(removal_only, r.index);
      if (keeps_removal) {
        removal_only.push_back(r.index);
        r.why =
            "archfit took out what it wrote here earlier, but cannot write what it would now: " +
            r.why;
      }
      why[r.index] = std::move(r.why);  // the last reason is the one that holds
    }
  }
  out.left_alone.assign(why.begin(), why.end());
  return out;
}

}  // namespace archfit::run
