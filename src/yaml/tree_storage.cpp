// Trees' node and child arrays, used again. A run parses every document
// into a tree and builds a second one for every edited document; each
// window's trees go when the window is merged. Allocating those arrays anew
// each time cost more than building them (large blocks, from memory the
// allocator had given back), so a tree that goes keeps its arrays, emptied,
// for the next tree its thread builds: a few per thread, none larger than
// kLargest bytes.
#include <cstddef>
#include <vector>

#include <archfit/yaml/node.hpp>

#include "yaml/key_indexes.hpp"

namespace archfit::yaml {

namespace {

constexpr std::size_t kSpares = 4;
constexpr std::size_t kLargest = std::size_t{1} << 20;

// Set when this thread's spares are destroyed (it ends, or the process
// exits): trees destroyed after that, such as those of static objects, keep
// their arrays to themselves. A bool has no destructor, so it stays readable.
thread_local bool spares_gone = false;

template <typename T>
class Spares {
 public:
  Spares() = default;
  Spares(const Spares&) = delete;
  Spares& operator=(const Spares&) = delete;
  ~Spares() { spares_gone = true; }

  void give(std::vector<T>& v) {
    if (v.capacity() == 0 || v.capacity() * sizeof(T) > kLargest || kept_.size() >= kSpares) return;
    v.clear();
    kept_.push_back(std::move(v));
  }

  // An empty array with room for `size`: the smallest spare that has it, or
  // a new one.
  std::vector<T> take(std::size_t size) {
    std::size_t best = kept_.size();
    for (std::size_t i = 0; i < kept_.size(); ++i) {
      if (kept_[i].capacity() >= size &&
          (best == kept_.size() || kept_[i].capacity() < kept_[best].capacity())) {
        best = i;
      }
    }
    std::vector<T> out;
    if (best < kept_.size()) {
      out = std::move(kept_[best]);
      kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(best));
    }
    out.reserve(size);
    return out;
  }

 private:
  std::vector<std::vector<T>> kept_;
};

thread_local Spares<Node> spare_nodes;
thread_local Spares<NodeId> spare_children;

}  // namespace

Tree::Tree() = default;
Tree::Tree(Tree&&) noexcept = default;
Tree& Tree::operator=(Tree&&) noexcept = default;

void Tree::note_mapping(std::uint32_t entries) {
  if (entries > kScannedKeys && !key_indexes_) key_indexes_ = std::make_unique<KeyIndexes>();
}

Tree::~Tree() {
  if (spares_gone) return;
  spare_nodes.give(nodes_);
  spare_children.give(children_);
}

void Tree::reserve(std::size_t nodes, std::size_t children) {
  if (spares_gone) {
    nodes_.reserve(nodes);
    children_.reserve(children);
    return;
  }
  nodes_ = spare_nodes.take(nodes);
  children_ = spare_children.take(children);
}

}  // namespace archfit::yaml
