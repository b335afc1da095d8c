// Reading every document of the inputs into a tree, one at a time, for the
// commands that only look (images, lock).
#pragma once

#include <cstddef>
#include <functional>
#include <ostream>
#include <vector>

#include <archfit/manifest/inputs.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::run {

// Visits each document of the inputs. A fault in the input is isolated as a
// run isolates it (docs/rules.md): a document that cannot be read is skipped
// with an `invalid-document` line on `faults`, a file that cannot be read on
// from some place with an `unreadable-file` line there. Returns how many
// faults there were.
std::size_t for_each_document(
    const std::vector<manifest::InputFile>& inputs,
    const std::function<void(const manifest::InputFile& input, const yaml::Tree& tree)>& visit,
    std::ostream& faults);

}  // namespace archfit::run
