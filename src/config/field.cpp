#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <map>

#include <archfit/base/duration.hpp>
#include <archfit/base/text.hpp>
#include <archfit/config/field.hpp>
#include <archfit/config/suggest.hpp>
#include <archfit/image/platform.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::config {

namespace {

// How go-yaml v2 (and so Kubernetes) reads plain scalars: YAML 1.1 booleans and nulls.
constexpr std::array<std::string_view, 11> kTrueWords = {
    "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"};
constexpr std::array<std::string_view, 11> kFalseWords = {
    "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"};
constexpr std::array<std::string_view, 5> kNullWords = {"", "~", "null", "Null", "NULL"};

constexpr std::string_view kStrTag = "tag:yaml.org,2002:str";
constexpr std::string_view kNullTag = "tag:yaml.org,2002:null";

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& words, std::string_view text) {
  return std::find(words.begin(), words.end(), text) != words.end();
}

// For suggestions only: the same lists image::is_known_os and
// image::is_known_architecture check (Go's GOOS and GOARCH).
const std::vector<std::string_view>& known_oses() {
  static const std::vector<std::string_view> names = {
      "linux", "windows", "darwin", "freebsd", "aix",     "android", "dragonfly", "hurd", "illumos",
      "ios",   "js",      "nacl",   "netbsd",  "openbsd", "plan9",   "solaris",   "zos"};
  return names;
}
const std::vector<std::string_view>& known_architectures() {
  static const std::vector<std::string_view> names = {
      "amd64",     "arm64",       "arm",   "386",     "ppc64le", "s390x",  "riscv64", "amd64p32",
      "armbe",     "arm64be",     "ppc64", "loong64", "mips",    "mipsle", "mips64",  "mips64le",
      "mips64p32", "mips64p32le", "ppc",   "riscv",   "s390",    "sparc",  "sparc64", "wasm"};
  return names;
}

std::string unknown_platform(std::string_view text, const image::Platform& p) {
  image::Platform n = p.normalized();
  std::string os = n.os, arch = n.architecture;
  std::string what;
  if (!image::is_known_os(n.os)) {
    what = archfit::quoted(n.os) + " is not a known operating system";
    os = closest(n.os, known_oses());
  }
  if (!image::is_known_architecture(n.architecture)) {
    what += (what.empty() ? "" : " and ") + archfit::quoted(n.architecture) +
            " is not a known architecture";
    arch = closest(n.architecture, known_architectures());
  }
  std::string hint;
  if (!os.empty() && !arch.empty()) {
    hint = " (did you mean " +
           archfit::quoted(os + "/" + arch + (n.variant.empty() ? "" : "/" + n.variant)) + "?)";
  }
  return "unknown platform " + archfit::quoted(text) + ": " + what +
         "; write os/arch[/variant] with Go's names, e.g. linux/arm64" + hint;
}

std::string integer_range(std::int64_t min, std::int64_t max) {
  if (max == std::numeric_limits<std::int64_t>::max()) {
    return "an integer of at least " + std::to_string(min);
  }
  return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
}

// Columns of a block scalar's content: the indentation of its first non-blank line.
std::uint32_t block_indent(std::string_view source) {
  std::size_t pos = source.find('\n');
  while (pos != std::string_view::npos) {
    std::size_t start = pos + 1;
    std::size_t i = start;
    while (i < source.size() && source[i] == ' ')
      ++i;
    if (i < source.size() && source[i] != '\n' && source[i] != '\r') {
      return static_cast<std::uint32_t>(i - start);
    }
    pos = source.find('\n', start);
  }
  return 0;
}

// Where text[0] of a one-line scalar sits, as a column shift, or -1 when the
// value is not its source text verbatim (escapes, folding, several lines).
std::int64_t verbatim_shift(yaml::NodeRef node, std::string_view text) {
  std::string_view source = node.text();
  if (source.find('\n') != std::string_view::npos) return -1;
  switch (node.style()) {
    case yaml::Style::Plain:
      return source == text ? static_cast<std::int64_t>(node.column()) - 1 : -1;
    case yaml::Style::SingleQuoted:
    case yaml::Style::DoubleQuoted:
      return source.size() >= 2 && source.substr(1, source.size() - 2) == text
                 ? static_cast<std::int64_t>(node.column())
                 : -1;
    default:
      return -1;
  }
}

// The rules behind the typed reads, below: the value, or nothing with why.
std::optional<std::int64_t> try_parse_integer(std::string_view text, std::int64_t min,
                                              std::int64_t max, std::string* why);
// One platform: parses and is known to Go.
std::optional<image::Platform> try_parse_known_platform(std::string_view text, std::string* why);

}  // namespace

Location Origin::at(yaml::NodeRef node) const {
  if (!exact) return fallback;
  if (!node) return Location{file, 0, 0};
  return at(node.line(), node.column());
}

Location Origin::at(std::uint32_t line, std::uint32_t column) const {
  if (!exact) return fallback;
  return Location{file, line, column == 0 ? 0 : column + column_shift};
}

ConfigDocument::ConfigDocument(std::string file) {
  origins_.push_back(std::make_unique<Origin>());
  origins_.front()->file = std::move(file);
}

std::pair<yaml::NodeRef, const Origin*> ConfigDocument::parse_in_place(std::string_view text,
                                                                       yaml::NodeRef node,
                                                                       const Origin& outer,
                                                                       const std::string& path) {
  auto origin = std::make_unique<Origin>();
  origin->file = outer.file;
  origin->fallback = outer.at(node);
  std::uint32_t first_line = 0;
  std::int64_t shift = verbatim_shift(node, text);
  if (!outer.exact) {
    origin->exact = false;
  } else if (node.style() == yaml::Style::Literal) {
    first_line = node.line();  // the content starts on the line after the `|`
    origin->column_shift = outer.column_shift + block_indent(node.text());
  } else if (shift >= 0) {
    first_line = node.line() - 1;
    origin->column_shift = outer.column_shift + static_cast<std::uint32_t>(shift);
  } else {
    origin->exact = false;
  }
  std::unique_ptr<yaml::Tree> tree;
  try {
    tree = std::make_unique<yaml::Tree>(yaml::parse_document(text, first_line));
  } catch (const Error& e) {
    // libyaml's "(while parsing ... at line L, column C)" counts in the value,
    // not the file; the location in front says where.
    std::string message = e.message();
    message = message.substr(0, message.find(" (while parsing"));
    throw Error(ErrorKind::Config, path + ": " + message,
                origin->at(e.where().line, e.where().column));
  }
  yaml::NodeRef root = tree->root();
  trees_.push_back(std::move(tree));
  origins_.push_back(std::move(origin));
  return {root, origins_.back().get()};
}

Field::Field(yaml::NodeRef node, const Origin* origin, ConfigDocument* doc, std::string path,
             bool flat)
    : node_(node), origin_(origin), doc_(doc), path_(std::move(path)), flat_(flat) {}

Field Field::with(yaml::NodeRef node, std::string path) const {
  return Field(node, origin_, doc_, std::move(path));
}

Field Field::as_flat() const {
  Field out = *this;
  out.flat_ = true;
  return out;
}

Field Field::renamed(std::string path) const {
  Field out = *this;
  out.path_ = std::move(path);
  return out;
}

Location Field::where() const {
  if (has_piece_ && piece_column_ > 0) return origin_->at(node_.line(), piece_column_);
  return origin_->at(node_);
}

void Field::fail(const std::string& problem) const {
  throw Error(ErrorKind::Config, path_.empty() ? problem : path_ + ": " + problem, where());
}

std::string_view Field::text() const {
  if (has_piece_) return piece_;
  std::string_view t = node_.resolved().scalar();
  return flat_ ? trim(t) : t;
}

bool Field::explicitly_string() const {
  yaml::NodeRef n = node_.resolved();
  return n.style() != yaml::Style::Plain || n.tag() == kStrTag || n.tag() == "!";
}

bool Field::is_bool_word() const {
  return node_.resolved().is_scalar() && !explicitly_string() &&
         (listed(kTrueWords, text()) || listed(kFalseWords, text()));
}

bool Field::is_null() const {
  if (!node_) return true;
  yaml::NodeRef n = node_.resolved();
  if (!n.is_scalar()) return false;
  if (flat_ || has_piece_) return text().empty();
  return n.style() == yaml::Style::Plain && (n.tag().empty() || n.tag() == kNullTag) &&
         listed(kNullWords, n.scalar());
}

bool Field::is_mapping() const {
  return node_.resolved().is_mapping();
}

bool Field::is_list() const {
  return node_.resolved().is_sequence();
}

std::string Field::describe() const {
  if (is_mapping()) return "a mapping";
  if (is_list()) return "a list";
  if (flat_ || has_piece_) return archfit::quoted(text());
  if (is_null()) return "null";
  if (is_bool_word()) return "the boolean " + std::string(text());
  if (explicitly_string()) return "the string " + archfit::quoted(text());
  return archfit::quoted(text());
}

bool Field::as_bool() const {
  constexpr const char* kExpected = "expected a boolean (true or false), got ";
  if (!node_.resolved().is_scalar() || is_null()) fail(kExpected + describe());
  std::optional<bool> word = bool_word(text());
  if (!flat_ && explicitly_string()) {
    fail(kExpected + describe() + (word ? "; write it without quotes" : ""));
  }
  if (!word) fail(kExpected + describe());
  return *word;
}

std::int64_t Field::as_int(std::int64_t min, std::int64_t max) const {
  std::string expected = "expected " + integer_range(min, max) + ", got ";
  if (!node_.resolved().is_scalar() || is_null()) fail(expected + describe());
  std::string why;
  std::optional<std::int64_t> value = try_parse_integer(text(), min, max, &why);
  if (!value) fail(why);
  if (!flat_ && explicitly_string()) fail(expected + describe() + "; write it without quotes");
  return *value;
}

std::string Field::as_string() const {
  if (!node_.resolved().is_scalar() || is_null()) fail("expected a string, got " + describe());
  if (!flat_ && is_bool_word()) {
    fail("expected a string, got " + describe() +
         "; quote it to mean the text: " + archfit::quoted(text()));
  }
  return std::string(text());
}

std::size_t Field::as_enum(std::string_view noun,
                           const std::vector<std::string_view>& options) const {
  if (!node_.resolved().is_scalar() || is_null()) {
    fail("expected one of " + join(options) + ", got " + describe());
  }
  auto found = std::find(options.begin(), options.end(), text());
  if (found == options.end()) {
    fail(archfit::quoted(text()) + " is not " + std::string(noun) + "; use one of " +
         join(options) + did_you_mean(text(), options));
  }
  return static_cast<std::size_t>(found - options.begin());
}

std::chrono::seconds Field::as_duration() const {
  constexpr const char* kExpected = "expected a duration such as 30s, 1h30m or 7d, got ";
  if (!node_.resolved().is_scalar() || is_null() || (!flat_ && is_bool_word())) {
    fail(kExpected + describe());
  }
  std::string why;
  auto d = try_parse_duration(text(), &why);
  if (!d) fail(why);
  return *d;
}

image::PlatformSet Field::as_platforms() const {
  image::PlatformSet set;
  for (const Field& item : items()) {
    std::string why;
    std::optional<image::Platform> platform = try_parse_known_platform(item.as_string(), &why);
    if (!platform) item.fail(why);
    set.insert(*platform);
  }
  return set;
}

std::string Field::as_architecture() const {
  std::string text = as_string();
  std::string arch = image::normalize_architecture(text, "").first;
  if (!image::is_known_architecture(arch)) {
    fail(archfit::quoted(text) + " is not a known architecture; use Go's names, e.g. amd64, arm64" +
         did_you_mean(arch, known_architectures()));
  }
  return arch;
}

std::vector<std::string> Field::as_strings() const {
  std::vector<std::string> out;
  for (const Field& item : items())
    out.push_back(item.as_string());
  return out;
}

std::vector<Field> Field::items() const {
  std::vector<Field> out;
  if (flat_ && node_.resolved().is_scalar()) {
    std::string_view whole = node_.resolved().scalar();
    std::string_view t = trim(whole);
    if (t.empty()) return out;
    if (t.front() == '[') return parsed().items();
    // Comma-separated text: each piece is located in the line when the value
    // is written verbatim on one line.
    std::int64_t shift = origin_->exact ? verbatim_shift(node_.resolved(), whole) : -1;
    std::size_t index = 0;
    for (std::string_view raw : split(whole, ',')) {
      std::string_view piece = trim(raw);
      Field item = *this;
      item.path_ = path_ + "[" + std::to_string(index++) + "]";
      if (piece.empty()) {
        fail("empty entry in the comma-separated list " + archfit::quoted(t) +
             "; separate entries with one comma");
      }
      item.has_piece_ = true;
      item.piece_ = piece;
      if (shift >= 0) {
        item.piece_column_ = static_cast<std::uint32_t>(shift + (piece.data() - whole.data()) + 1);
      }
      out.push_back(item);
    }
    return out;
  }
  if (is_null()) return out;
  if (!is_list()) fail("expected a list, got " + describe());
  yaml::NodeRef n = node_.resolved();
  for (std::size_t i = 0; i < n.size(); ++i) {
    out.push_back(with(n.item(i), path_ + "[" + std::to_string(i) + "]"));
  }
  return out;
}

std::vector<Field::Entry> Field::entries() const {
  if (flat_) return parsed().entries();
  std::vector<Entry> out;
  // A null field here is a null root (a value of only comments) or `key: ~`.
  if (is_null()) return out;
  if (!is_mapping()) fail("expected a mapping, got " + describe());
  yaml::NodeRef n = node_.resolved();
  // A key given twice never gets here: the YAML parser refuses it.
  for (std::size_t i = 0; i < n.size(); ++i) {
    yaml::NodeRef key_node = n.key(i);
    std::string key(key_node.resolved().scalar());
    std::string path = path_.empty() ? key : path_ + "." + key;
    Field key_field = with(key_node, path);
    if (!key_node.resolved().is_scalar()) key_field.fail("keys must be strings");
    out.push_back(Entry{key, key_field, with(n.value(i), path)});
  }
  return out;
}

std::vector<Field::Entry> Field::entries(const std::vector<std::string_view>& keys) const {
  std::vector<Entry> out = entries();
  for (const Entry& e : out) {
    if (std::find(keys.begin(), keys.end(), e.key) == keys.end()) unknown_key(e.key_field, keys);
  }
  return out;
}

Field Field::parsed() const {
  if (!flat_ || is_list() || is_mapping()) {
    Field out = *this;
    out.flat_ = false;
    return out;
  }
  auto [root, origin] = doc_->parse_in_place(node_.resolved().scalar(), node_, *origin_, path_);
  return Field(root, origin, doc_, path_);  // only comments: a null root, read as empty
}

std::optional<bool> bool_word(std::string_view text) {
  if (listed(kTrueWords, text)) return true;
  if (listed(kFalseWords, text)) return false;
  return std::nullopt;
}

namespace {

std::optional<std::int64_t> try_parse_integer(std::string_view text, std::int64_t min,
                                              std::int64_t max, std::string* why) {
  std::string_view digits = !text.empty() && text.front() == '+' ? text.substr(1) : text;
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  bool numeric = !digits.empty() && end == digits.data() + digits.size() &&
                 (ec == std::errc() || ec == std::errc::result_out_of_range);
  if (!numeric) {
    *why = "expected " + integer_range(min, max) + ", got " + archfit::quoted(text);
    return std::nullopt;
  }
  if (ec == std::errc::result_out_of_range || v < min || v > max) {
    *why = std::string(text) + " is out of range; use " + integer_range(min, max);
    return std::nullopt;
  }
  return v;
}

std::optional<image::Platform> try_parse_known_platform(std::string_view text, std::string* why) {
  auto parsed = image::Platform::try_parse(text, why);
  if (!parsed) return std::nullopt;
  if (!parsed->is_known()) {
    *why = unknown_platform(text, *parsed);
    return std::nullopt;
  }
  return parsed;
}

}  // namespace

void unknown_key(const Field& key, const std::vector<std::string_view>& keys) {
  std::string_view name = key.node().resolved().scalar();
  // Long lists (a ConfigMap's flat keys) would bury the suggestion.
  std::string valid = keys.size() <= 16 ? "valid keys here: " + join(keys)
                                        : std::string("see docs/configuration.md for the keys");
  key.fail("unknown key; " + valid + did_you_mean(name, keys));
}

}  // namespace archfit::config
