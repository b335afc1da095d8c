#include <archfit/base/text.hpp>
#include <archfit/registry/protocol/challenge.hpp>

namespace archfit::registry {

namespace {

bool is_tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~/").find(c) != std::string_view::npos;
}

// A cursor over one header value.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  bool done() const { return pos_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[pos_]; }
  void skip_blanks() {
    while (!done() && (peek() == ' ' || peek() == '\t'))
      ++pos_;
  }
  void skip_separators() {
    while (!done() && (peek() == ' ' || peek() == '\t' || peek() == ','))
      ++pos_;
  }
  std::string token() {
    std::size_t start = pos_;
    while (!done() && is_tchar(peek()))
      ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  // After '=': a quoted string (with backslash escapes) or a token.
  std::string value() {
    skip_blanks();
    if (peek() != '"') return token();
    ++pos_;
    std::string out;
    while (!done() && peek() != '"') {
      if (peek() == '\\' && pos_ + 1 < text_.size()) ++pos_;
      out += text_[pos_++];
    }
    if (!done()) ++pos_;  // closing quote
    return out;
  }
  // The rest of a token68 ("abc==").
  std::string equals_run() {
    std::size_t start = pos_;
    while (!done() && peek() == '=')
      ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  std::size_t pos() const { return pos_; }
  void set_pos(std::size_t p) { pos_ = p; }
  // Skips to the next comma (recovery from a malformed part).
  void skip_part() {
    while (!done() && peek() != ',')
      ++pos_;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

void parse_one_header(std::string_view header, std::vector<Challenge>& out) {
  Lexer lex(header);
  Challenge* current = nullptr;
  for (;;) {
    lex.skip_separators();
    if (lex.done()) return;
    std::size_t start = lex.pos();
    std::string word = lex.token();
    if (word.empty()) {
      lex.set_pos(start + 1);
      lex.skip_part();
      continue;
    }
    lex.skip_blanks();
    if (lex.peek() != '=') {
      // A word not followed by '=' starts a new challenge.
      out.push_back(Challenge{to_lower(word), {}, {}});
      current = &out.back();
      continue;
    }
    // name=value, or a token68 that ends in '=' signs.
    std::size_t before_equals = lex.pos();
    std::string equals = lex.equals_run();
    lex.skip_blanks();
    bool value_follows = !lex.done() && lex.peek() != ',' && equals.size() == 1;
    if (current == nullptr) {
      lex.skip_part();  // a parameter before any scheme
      continue;
    }
    if (!value_follows) {
      if (current->params.empty() && current->token68.empty()) current->token68 = word + equals;
      continue;
    }
    lex.set_pos(before_equals + 1);
    std::string name = to_lower(word);
    std::string value = lex.value();
    current->params.emplace(std::move(name), std::move(value));
  }
}

}  // namespace

std::string Challenge::param(const std::string& name) const {
  auto it = params.find(name);
  return it == params.end() ? std::string() : it->second;
}

std::vector<Challenge> parse_challenges(const std::vector<std::string_view>& header_values) {
  std::vector<Challenge> out;
  for (std::string_view value : header_values)
    parse_one_header(value, out);
  return out;
}

const Challenge* find_challenge(const std::vector<Challenge>& challenges, std::string_view scheme) {
  for (const Challenge& c : challenges) {
    if (c.scheme == scheme) return &c;
  }
  return nullptr;
}

}  // namespace archfit::registry
