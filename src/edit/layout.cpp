#include <archfit/edit/layout.hpp>

namespace archfit::edit {

Layout layout_of(const yaml::BlockSteps& steps, std::string_view text, bool json) {
  Layout layout;
  std::size_t lf = text.find('\n');
  if (lf != std::string_view::npos && lf > 0 && text[lf - 1] == '\r') layout.newline = "\r\n";
  layout.json = json;
  // The most frequent step; of equally frequent ones, the smallest.
  int best = 0;
  for (const auto& [step, count] : steps.mapping_steps) {
    if (count > best) {
      best = count;
      layout.indent = step;
    }
  }
  layout.indent_sequences = steps.sequences_indented > steps.sequences_flush;
  return layout;
}

bool is_json_document(const yaml::Tree& tree) {
  yaml::NodeRef root = tree.root();
  return root.is_mapping() && root.style() == yaml::Style::Flow && root.size() > 0 &&
         root.key(0).style() == yaml::Style::DoubleQuoted;
}

Layout detect_layout(const yaml::Tree& tree) {
  return layout_of(yaml::block_steps(tree), tree.text(), is_json_document(tree));
}

}  // namespace archfit::edit
