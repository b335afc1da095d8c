// Changing a parsed document by splicing text into its original bytes. Every
// change is the smallest one that gives the wanted data: add entries or items
// where the data puts them, take entries or items out, replace one node. New
// text follows the document's layout; flow collections get flow text (JSON in
// a JSON document). Bytes outside the splices stay as they are.
//
// Adding and taking out are exact inverses: an entry or item added and later
// taken out again leaves the bytes that were there before, so that what
// archfit adds can be given back byte for byte. Nothing that reaches a field
// through an alias or a merge key is edited: that would change another place
// of the document or hide a merged value, so the edit is refused instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <archfit/base/splices.hpp>
#include <archfit/edit/layout.hpp>
#include <archfit/yaml/graft.hpp>
#include <archfit/yaml/node.hpp>
#include <archfit/yaml/value.hpp>

namespace archfit::edit {

struct Splice {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  std::string text;
  int rank = 0;  // among inserts at one position, lower goes first
  // For whole lines of new entries or items of a block collection: that
  // collection, and how many of its entries stay in front of them. For a
  // key's value replaced from after its ':' (`replaces`): that value.
  yaml::NodeId collection = yaml::kNoNode;
  std::size_t before = 0;
  bool replaces = false;
};

class DocumentEditor {
 public:
  DocumentEditor(const yaml::Tree& tree, Layout layout);

  // Makes the value at `path` below `mapping` equal `value`, creating the
  // mappings on the way; a key that is new goes at `position` among its
  // mapping's keys (at the end when npos). Returns false, saying why in
  // `why`, when that cannot be done without changing another part of the
  // document; nothing is recorded then.
  bool try_set(yaml::NodeRef mapping, const std::vector<std::string>& path,
               const yaml::Value& value, std::size_t position = static_cast<std::size_t>(-1),
               std::string* why = nullptr);

  // Takes the last key of `path` out of its mapping; nothing when absent.
  // Returns false, saying why in `why`, as try_set does.
  bool try_remove(yaml::NodeRef mapping, const std::vector<std::string>& path,
                  std::string* why = nullptr);

  // Undo support for "all of a template's changes or none": rollback(mark)
  // drops every splice recorded after checkpoint() returned mark.
  struct Mark {
    std::size_t splices = 0;
    std::size_t dropped = 0;
  };
  Mark checkpoint() const { return Mark{splices_.size(), dropped_.size()}; }
  void rollback(Mark mark);

  bool empty() const { return splices_.empty(); }
  const std::vector<Splice>& splices() const { return splices_; }

  // The text with every splice applied. Throws Error(Internal) if two
  // splices overlap.
  std::string apply() const;

  // The same edits as replacements of ranges of the original text, in order:
  // splices that meet or overlap are one replacement (removals that overlap
  // take out their union). What apply() does beyond that (a removal that
  // reaches the end of a text without a final line break takes the break
  // before it; it refuses other overlaps) is not expressed: compare with
  // apply() before use (Splices::gives). Never throws. Takes the splices'
  // text: the editor is done with.
  Splices replacements() &&;

  // The splices in the order apply() writes them, as insertions of whole
  // lines into block collections and keys' values written anew from after
  // their ':' (see yaml::graft); empty when one of them is something else.
  std::vector<yaml::Insertion> insertions() const;

 private:
  class Session;
  friend class Session;

  const yaml::Tree& tree_;
  Layout layout_;
  std::vector<Splice> splices_;
  std::vector<std::size_t> order() const;

  std::vector<yaml::NodeId> parent_;
  // For each node, how many aliases that stay in the text point at it. An
  // alias inside a removed subtree no longer counts, so that an anchor whose
  // every alias goes away becomes editable.
  std::vector<std::uint32_t> alias_uses_;
  std::vector<yaml::NodeId> dropped_;  // aliases taken out, in order, for rollback
};

}  // namespace archfit::edit
