#include <optional>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/run/documents.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

namespace archfit::run {

namespace {

void say(std::ostream& out, const std::string& file, const Error& e, const char* rule,
         const char* left) {
  Location at = e.where();
  at.file = file;
  out << at.str() << ": error " << rule << ": " << e.message() << "; " << left << '\n';
}

}  // namespace

std::size_t for_each_document(
    const std::vector<manifest::InputFile>& inputs,
    const std::function<void(const manifest::InputFile& input, const yaml::Tree& tree)>& visit,
    std::ostream& faults) {
  std::size_t count = 0;
  for (const manifest::InputFile& input : inputs) {
    std::string data;
    try {
      data = manifest::read_input(input);
    } catch (const Error& e) {
      if (!e.in_input()) throw;
      say(faults, input.name, e, "unreadable-file", "archfit leaves the whole file out");
      ++count;
      continue;
    }
    yaml::StreamSplitter split(data);
    while (std::optional<yaml::DocumentText> doc = split.next()) {
      if (!doc->has_content) continue;
      try {
        yaml::Tree tree = yaml::parse_document(doc->text, doc->first_line);
        visit(input, tree);
      } catch (const Error& e) {
        if (!e.in_input()) throw e.where().file.empty() ? e.in_file(input.name) : e;
        ++count;
        if (e.kind() == ErrorKind::Syntax) {
          say(faults, input.name, e, "unreadable-file", "archfit leaves the rest of the file out");
          break;
        }
        say(faults, input.name, e, "invalid-document", "archfit leaves this document out");
      }
    }
  }
  return count;
}

}  // namespace archfit::run
