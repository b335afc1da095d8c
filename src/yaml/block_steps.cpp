#include <archfit/yaml/block_steps.hpp>

namespace archfit::yaml {

BlockSteps block_steps(const Tree& tree) {
  BlockSteps out;
  for (NodeId id = 0; id < tree.node_count(); ++id) {
    const Node& m = tree.node(id);
    if (m.kind != Kind::Mapping || m.style != Style::Block) continue;
    for (std::uint32_t i = 0; i + 1 < m.child_count; i += 2) {
      const Node& key = tree.node(tree.child(m.first_child + i));
      const Node& value = tree.node(tree.child(m.first_child + i + 1));
      out.count(key.line, key.column, value.kind, value.style, value.line, value.column);
    }
  }
  return out;
}

}  // namespace archfit::yaml
