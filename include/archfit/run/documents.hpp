// Reading every document of the inputs into a tree, one at a time, for the
// commands that only look (images, lock). Parse errors name the file.
#pragma once

#include <functional>
#include <vector>

#include <archfit/manifest/inputs.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::run {

void for_each_document(
    const std::vector<manifest::InputFile>& inputs,
    const std::function<void(const manifest::InputFile& input, const yaml::Tree& tree)>& visit);

}  // namespace archfit::run
