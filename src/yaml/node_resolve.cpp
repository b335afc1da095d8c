// Kept apart from node.cpp: resolution pulls in the scalar rules.
#include <archfit/yaml/node.hpp>
#include <archfit/yaml/scalar.hpp>

namespace archfit::yaml {

Resolved NodeRef::resolve() const {
  NodeRef n = resolved();
  if (!n.is_scalar()) return {};
  return resolve_scalar(n.scalar(), n.tag(), n.style() == Style::Plain);
}

bool NodeRef::is_string() const {
  NodeRef n = resolved();
  if (!n.is_scalar()) return false;
  // Without a tag, a quoted or block scalar is a string, and so is a plain
  // one that starts like a word (most keys): nothing to resolve.
  if (n.tag().empty()) {
    if (n.style() != Style::Plain) return true;
    if (plain_string_at_a_glance(n.scalar())) return true;
  }
  return n.resolve().type == ScalarType::String;
}

bool NodeRef::is_null() const {
  NodeRef n = resolved();
  return n.is_scalar() && n.resolve().type == ScalarType::Null;
}

}  // namespace archfit::yaml
