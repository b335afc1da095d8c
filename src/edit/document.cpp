#include <charconv>

#include <archfit/base/error.hpp>
#include <archfit/edit/document.hpp>
#include <archfit/edit/editor.hpp>
#include <archfit/edit/layout.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::edit {

using yaml::Value;

Value* value_at(Value& root, std::string_view path) {
  Value* v = &root;
  while (!path.empty()) {
    std::size_t dot = path.find('.');
    std::string_view step = path.substr(0, dot);
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    std::size_t bracket = step.find('[');
    std::string_view name = step.substr(0, bracket);
    if (!name.empty()) {
      v = v->find(name);
      if (v == nullptr) return nullptr;
    }
    while (bracket != std::string_view::npos) {
      std::size_t close = step.find(']', bracket);
      std::size_t index = 0;
      std::from_chars(step.data() + bracket + 1, step.data() + close, index);
      if (!v->is_sequence() || index >= v->items().size()) return nullptr;
      v = &v->items()[index];
      bracket = step.find('[', close);
    }
  }
  return v;
}

namespace {

// The planned change applied to data, as the edited text must read.
void apply_to_value(Value& pod_template, const placement::FieldChange& change) {
  Value* v = &pod_template;
  for (std::size_t i = 0; i + 1 < change.path.size(); ++i) {
    if (!v->is_mapping()) *v = Value::mapping();
    Value* next = v->find(change.path[i]);
    if (next == nullptr) {
      if (change.remove) return;
      next = &v->set(change.path[i], Value::mapping());
    }
    v = next;
  }
  if (change.remove) {
    v->erase(change.path.back());
  } else {
    if (!v->is_mapping()) *v = Value::mapping();
    v->set(change.path.back(), change.value);
  }
}

}  // namespace

DocumentResult edit_document(const yaml::Tree& tree, std::uint32_t first_line,
                             const std::vector<TemplateEdit>& edits, bool check_only) {
  DocumentResult result;
  if (edits.empty()) return result;
  DocumentEditor editor(tree, detect_layout(tree));
  Value expected = check_only ? Value() : yaml::to_value(tree.root());
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
      for (const placement::FieldChange& change : edit.changes) {
        ok = change.remove ? editor.remove(edit.pod_template, change.path)
                           : editor.set(edit.pod_template, change.path, change.value);
        if (!ok) break;
      }
      if (!ok) {
        editor.rollback(mark);
        refused.emplace_back(i, editor.reason());
        next.push_back(i);
        continue;
      }
      progress = true;
      if (check_only) continue;
      Value* target = value_at(expected, edit.path);
      if (target == nullptr) fail(ErrorKind::Internal, "no pod template at " + edit.path);
      for (const placement::FieldChange& change : edit.changes)
        apply_to_value(*target, change);
    }
    pending = std::move(next);
  }
  result.uneditable = std::move(refused);
  if (check_only || editor.empty()) return result;
  result.text = editor.apply();
  result.changed = true;

  Location where;
  where.line = first_line + 1;
  Value actual;
  try {
    yaml::Tree reparsed = yaml::parse_document(result.text, first_line);
    actual = yaml::to_value(reparsed.root());
  } catch (const Error& e) {
    fail(ErrorKind::Internal,
         "internal error: the edited document no longer parses (" + e.message() +
             "); nothing was written. Please report this with the document.",
         where);
  }
  if (!(actual == expected)) {
    fail(ErrorKind::Internal,
         "internal error: the edited document does not mean what archfit intended; nothing was "
         "written. Please report this with the document.",
         where);
  }
  return result;
}

}  // namespace archfit::edit
