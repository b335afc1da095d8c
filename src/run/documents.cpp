#include <optional>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/run/documents.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

namespace archfit::run {

void for_each_document(
    const std::vector<manifest::InputFile>& inputs,
    const std::function<void(const manifest::InputFile& input, const yaml::Tree& tree)>& visit) {
  for (const manifest::InputFile& input : inputs) {
    std::string data = manifest::read_input(input);
    yaml::StreamSplitter split(data);
    while (std::optional<yaml::DocumentText> doc = split.next()) {
      if (!doc->has_content) continue;
      try {
        yaml::Tree tree = yaml::parse_document(doc->text, doc->first_line);
        visit(input, tree);
      } catch (const Error& e) {
        if (!e.where().file.empty()) throw;
        throw e.in_file(input.name);
      }
    }
  }
}

}  // namespace archfit::run
