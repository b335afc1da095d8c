#include <utility>

#include <archfit/base/error.hpp>

namespace archfit {

std::string Location::str() const {
  if (file.empty() && line == 0) return {};
  std::string out = file.empty() ? std::string("<input>") : file;
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (column > 0) out += ':' + std::to_string(column);
  }
  return out;
}

namespace {
std::string compose(const Location& where, const std::string& message) {
  std::string prefix = where.str();
  return prefix.empty() ? message : prefix + ": " + message;
}
}  // namespace

Error::Error(ErrorKind kind, std::string message, Location where)
    : std::runtime_error(compose(where, message)),
      kind_(kind),
      message_(std::move(message)),
      where_(std::move(where)) {}

Error Error::in_file(const std::string& file) const {
  Location where = where_;
  where.file = file;
  return Error(kind_, message_, where);
}

void fail(ErrorKind kind, std::string message, Location where) {
  throw Error(kind, std::move(message), std::move(where));
}

}  // namespace archfit
