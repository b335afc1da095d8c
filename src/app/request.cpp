#include <archfit/app/request.hpp>
#include <archfit/manifest/inputs.hpp>

namespace archfit::app {

Stream read_standard_input(std::string_view what) {
  Stream stream;
  stream.text = manifest::read_input(manifest::InputFile{"<stdin>", {}, true}, nullptr, what);
  return stream;
}

}  // namespace archfit::app
