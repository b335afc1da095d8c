#include <array>
#include <cstdint>
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

  // Indentation step -> how often; steps up to kSmall counted in an array
  // (nearly all), wider ones in a map. Nodes are read straight from the tree.
  constexpr int kSmall = 32;
  std::array<int, kSmall + 1> small{};
  std::map<int, int> wide;
  int indented = 0;
  int flush = 0;
  for (yaml::NodeId id = 0; id < tree.node_count(); ++id) {
    const yaml::Node& m = tree.node(id);
    if (m.kind != yaml::Kind::Mapping || m.style != yaml::Style::Block) continue;
    for (std::uint32_t i = 0; i + 1 < m.child_count; i += 2) {
      const yaml::Node& key = tree.node(tree.child(m.first_child + i));
      const yaml::Node& value = tree.node(tree.child(m.first_child + i + 1));
      if (value.style != yaml::Style::Block || value.line == key.line) continue;
      int step = static_cast<int>(value.column) - static_cast<int>(key.column);
      if (value.kind == yaml::Kind::Mapping && step > 0) {
        ++(step <= kSmall ? small[static_cast<std::size_t>(step)] : wide[step]);
      }
      if (value.kind == yaml::Kind::Sequence) (step > 0 ? indented : flush) += 1;
    }
  }
  // The most frequent step; of equally frequent ones, the smallest.
  int best = 0;
  for (int step = 1; step <= kSmall; ++step) {
    if (small[static_cast<std::size_t>(step)] > best) {
      best = small[static_cast<std::size_t>(step)];
      layout.indent = step;
    }
  }
  for (const auto& [step, count] : wide) {
    if (count > best) {
      best = count;
      layout.indent = step;
    }
  }
  layout.indent_sequences = indented > flush;
  return layout;
}

}  // namespace archfit::edit
