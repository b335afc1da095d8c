#include <archfit/registry/transport/http.hpp>

namespace archfit::registry {

std::optional<std::string_view> HttpResponse::header(std::string_view name) const {
  for (const auto& [n, v] : headers) {
    if (n == name) return std::string_view(v);
  }
  return std::nullopt;
}

std::vector<std::string_view> HttpResponse::headers_named(std::string_view name) const {
  std::vector<std::string_view> out;
  for (const auto& [n, v] : headers) {
    if (n == name) out.emplace_back(v);
  }
  return out;
}

}  // namespace archfit::registry
