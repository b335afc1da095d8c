// Every test that edits a document also checks the grafted tree the editor
// verifies with against a parse of the whole edited text.
#include <archfit/edit/document.hpp>

namespace {

const bool turned_on = (archfit::edit::check_grafts_against_parse(true), true);

}  // namespace
