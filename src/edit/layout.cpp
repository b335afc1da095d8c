#include <map>

#include <archfit/edit/layout.hpp>

namespace archfit::edit {

Layout detect_layout(const yaml::Tree& tree) {
  Layout layout;
  std::string_view text = tree.text();
  std::size_t lf = text.find('\n');
  if (lf != std::string_view::npos && lf > 0 && text[lf - 1] == '\r') layout.newline = "\r\n";

  yaml::NodeRef root = tree.root();
  layout.json = root.is_mapping() && root.style() == yaml::Style::Flow && root.size() > 0 &&
                root.key(0).style() == yaml::Style::DoubleQuoted;

  std::map<int, int> steps;  // indentation step -> how often
  int indented = 0;
  int flush = 0;
  for (yaml::NodeId id = 0; id < tree.node_count(); ++id) {
    yaml::NodeRef m(&tree, id);
    if (!m.is_mapping() || m.style() != yaml::Style::Block) continue;
    for (std::size_t i = 0; i < m.size(); ++i) {
      yaml::NodeRef key = m.key(i);
      yaml::NodeRef value = m.value(i);
      if (value.style() != yaml::Style::Block || value.line() == key.line()) continue;
      int step = static_cast<int>(value.column()) - static_cast<int>(key.column());
      if (value.is_mapping() && step > 0) ++steps[step];
      if (value.is_sequence()) (step > 0 ? indented : flush) += 1;
    }
  }
  int best = 0;
  for (const auto& [step, count] : steps) {
    if (count > best) {
      best = count;
      layout.indent = step;
    }
  }
  layout.indent_sequences = indented > flush;
  return layout;
}

}  // namespace archfit::edit
