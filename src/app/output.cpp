#include <archfit/app/output.hpp>

namespace archfit::app {

namespace {

class StandardOutput final : public Output {
 public:
  void write(const std::vector<std::string_view>& parts) override { write_stdout(parts); }
  void write(const Content& content) override { write_stdout(content); }
  using Output::write;
};

}  // namespace

Output& standard_output() {
  static StandardOutput out;
  return out;
}

void StringOutput::write(const std::vector<std::string_view>& parts) {
  for (std::string_view p : parts)
    text_.append(p);
}

void StringOutput::write(const Content& content) {
  content([this](std::string_view p) { text_.append(p); });
}

void SpoolOutput::write(const std::vector<std::string_view>& parts) {
  for (std::string_view p : parts)
    spool_.out().write(p.data(), static_cast<std::streamsize>(p.size()));
}

void SpoolOutput::write(const Content& content) {
  content([this](std::string_view p) {
    spool_.out().write(p.data(), static_cast<std::streamsize>(p.size()));
  });
}

}  // namespace archfit::app
