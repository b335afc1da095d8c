#include <archfit/base/text.hpp>
#include <archfit/config/names.hpp>

namespace archfit::config {

void require(Syntax syntax, std::string_view text, std::string_view noun, const Field& at) {
  std::string why;
  if (!is_valid(syntax, text, &why)) {
    at.fail("invalid " + std::string(noun) + " " + archfit::quoted(text) + ": " + why);
  }
}

}  // namespace archfit::config
