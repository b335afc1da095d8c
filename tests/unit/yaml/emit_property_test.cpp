// Property: whatever string goes in, the emitted text reads back as exactly
// that string. Every generated string is emitted for each context, spliced
// into documents where that context applies, and parsed with libyaml's event
// API; the scalar must hold the input byte for byte and resolve to a string.
// Plain outputs are also checked against the PyYAML (YAML 1.1) and YAML 1.2
// core resolvers, written here as regexes straight from their definitions,
// and double-quoted outputs must decode as JSON strings to the input too.

#include <cstdint>
#include <cstdio>
#include <random>
#include <regex.h>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <yaml.h>

#include <archfit/base/error.hpp>
#include <archfit/yaml/scalar.hpp>

namespace archfit::yaml {
namespace {

// ---- the corpus ----

void all_cases(const std::string& word, std::set<std::string>& out) {
  std::vector<std::size_t> letters;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if ((word[i] >= 'a' && word[i] <= 'z') || (word[i] >= 'A' && word[i] <= 'Z')) {
      letters.push_back(i);
    }
  }
  for (std::uint32_t mask = 0; mask < (1u << letters.size()); ++mask) {
    std::string variant = word;
    for (std::size_t b = 0; b < letters.size(); ++b) {
      char& c = variant[letters[b]];
      c = (mask >> b) & 1 ? static_cast<char>(c & ~0x20) : static_cast<char>(c | 0x20);
    }
    out.insert(variant);
  }
}

std::vector<std::string> corpus() {
  std::set<std::string> out;
  const std::vector<std::string> words = {
      "null", "true", "false", "yes",  "no",    "on",    "off",   "y",   "n",   "~",
      "nil",  "none", ".inf",  ".nan", "+.inf", "-.inf", "+.nan", "inf", "nan", "infinity",
      "<<",   "=",    "-",     "+",    ".",     "_",     "?",     ":",   "---", "..."};
  for (const std::string& w : words)
    all_cases(w, out);

  const std::vector<std::string> numbers = {"0",
                                            "-0",
                                            "+0",
                                            "00",
                                            "1",
                                            "+1",
                                            "-1",
                                            "42",
                                            "08",
                                            "09",
                                            "0999",
                                            "0777",
                                            "0o17",
                                            "0O17",
                                            "0x1F",
                                            "0X1f",
                                            "0x",
                                            "0b",
                                            "0o",
                                            "0b101",
                                            "0B101",
                                            "-0b101",
                                            "0b-1",
                                            "0b+1",
                                            "0o+7",
                                            "0b2",
                                            "0o8",
                                            "0xG",
                                            "1_000",
                                            "1__0",
                                            "_1",
                                            "1_",
                                            "._",
                                            "._5",
                                            ".5_0",
                                            ".5",
                                            "-.5",
                                            "+.5",
                                            "5.",
                                            "1.",
                                            "1e3",
                                            "1E3",
                                            "1e+3",
                                            "1e-3",
                                            "1.0e+3",
                                            "1e",
                                            "1e+",
                                            "1.5e",
                                            "12e",
                                            "6.8523e+5",
                                            "685.230_15e+03",
                                            "685_230.15",
                                            "1:20",
                                            "190:20:30",
                                            "190:20:30.15",
                                            "-1:20",
                                            "1:2:3",
                                            "9223372036854775807",
                                            "9223372036854775808",
                                            "-9223372036854775809",
                                            "18446744073709551615",
                                            "18446744073709551616",
                                            "0x10000000000000000",
                                            "1e400",
                                            ".5e400",
                                            "1e-400",
                                            "2001-12-14",
                                            "2001-12-14t21:59:43.10-05:00",
                                            "2001-12-14 21:59:43.10 -5",
                                            "2001-12-14T21:59:43Z",
                                            "2002-1-1",
                                            "2002-1-1x",
                                            "20021-1-1",
                                            "1.2.3",
                                            "10.0.0.1",
                                            "0.0.0.0",
                                            "100m",
                                            "1Gi",
                                            "3s",
                                            "v1",
                                            "1.0.0-rc1",
                                            "0x1p3",
                                            "1,000",
                                            "+-1",
                                            "--1",
                                            "1a",
                                            "0.5",
                                            "-1.5",
                                            "1_000.5",
                                            ".e5",
                                            "+.",
                                            "-."};
  const std::vector<std::string> prefixes = {"", " ", "a", "-", "+", ".", "_", "0", "\t", "'"};
  const std::vector<std::string> suffixes = {"",  " ", "a", ":", "#",  " #",
                                             ",", "_", "0", ".", "\n", "e3"};
  std::vector<std::string> bases = words;
  bases.insert(bases.end(), numbers.begin(), numbers.end());
  for (const std::string& b : bases) {
    for (const std::string& p : prefixes) {
      for (const std::string& s : suffixes)
        out.insert(p + b + s);
    }
  }

  // Every ASCII punctuation mark in every position, alone and in pairs.
  std::string punct;
  for (char c = 0x21; c < 0x7F; ++c) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) punct += c;
  }
  for (char p : punct) {
    const std::string s(1, p);
    for (const std::string& form :
         {s,        s + s,        s + "a",         "a" + s,        "a" + s + "b",
          s + " a", "a " + s,     "a " + s + " b", " " + s,        s + " ",
          s + ":",  ":" + s,      s + "#",         "#" + s,        s + "-",
          "-" + s,  "a " + s + s, s + s + " a",    "a" + s + " b", "a " + s + "b",
          s + "\t", "\t" + s}) {
      out.insert(form);
    }
    for (char q : punct) {
      const std::string t(1, q);
      out.insert(s + t);
      out.insert("a" + s + t + "b");
      out.insert(s + " " + t);
      out.insert("a" + s + " " + t + "b");
    }
  }

  for (const char* s : {" ", "  ", " a", "a ", " a ", "a  b", "\ta", "a\t", "a\tb", "\t", " \t",
                        "a\nb", "a\n", "\na", "a\r\nb", "a\rb", "a\n\nb", "a\n b", "a \n b"}) {
    out.insert(s);
  }
  for (int c = 0; c < 0x20; ++c) {
    const std::string s(1, static_cast<char>(c));
    for (const std::string& form : {s, "a" + s + "b", s + " a", "a " + s, s + s})
      out.insert(form);
  }
  out.insert("\x7F");
  out.insert("a\x7F");
  out.insert(
      "\x7F"
      "a");

  const std::vector<std::string> unicode = {"\xC3\xA9",         "\xE4\xB8\xAD\xE6\x96\x87",
                                            "\xF0\x9F\x98\x80", "\xC2\x85",
                                            "\xE2\x80\xA8",     "\xE2\x80\xA9",
                                            "\xEF\xBB\xBF",     "\xC2\xA0",
                                            "\xEF\xBF\xBE",     "\xEF\xBF\xBF",
                                            "\xEF\xBF\xBD",     "\xEE\x80\x80",
                                            "\xF4\x8F\xBF\xBF", "\xC2\x80",
                                            "\xC2\x9F",         "\xE3\x80\x80",
                                            "\xE2\x80\x8B",     "\xD7\x90",
                                            "\xF0\x90\x80\x80", "\xCC\x81"};
  for (const std::string& u : unicode) {
    for (const std::string& form :
         {u, "a" + u, u + "a", " " + u, u + " ", "a " + u + " b", u + u, u + ":", u + ": x",
          "#" + u, u + " #", "-" + u, u + "1", "1" + u, "true" + u}) {
      out.insert(form);
    }
  }

  // Long strings, and keys around the implicit-key limit.
  out.insert(std::string(1000, 'a'));
  out.insert(std::string(5000, 'a'));
  out.insert(std::string(5000, '1'));
  std::string words_long;
  for (int i = 0; i < 300; ++i)
    words_long += "a b ";
  out.insert(words_long);
  std::string e_long;
  for (int i = 0; i < 600; ++i)
    e_long += "\xC3\xA9";
  out.insert(e_long);
  std::string mixed;
  for (int i = 0; i < 100; ++i)
    mixed += "kubernetes.io/arch: arm64, # \"x\"\t\n";
  out.insert(mixed);
  for (std::size_t n : {1022u, 1023u, 1024u, 1025u}) {
    out.insert(std::string(n, 'k'));
    out.insert(" " + std::string(n - 1, 'k'));
    out.insert(std::string(n - 1, 'k') + "\n");
  }

  for (const char* s : {"kubernetes.io/arch",
                        "kubernetes.io/os",
                        "linux/amd64,linux/arm64",
                        "linux/arm/v7",
                        "NoSchedule",
                        "PreferNoSchedule",
                        "Equal",
                        "Exists",
                        "In",
                        "NotIn",
                        "arm64",
                        "amd64",
                        "nginx:1.25",
                        "docker.io/library/nginx@sha256:abc",
                        "${IMAGE}",
                        "<image_url>",
                        "{{ .Values.image }}",
                        "/bin/sh -c 'echo hi'",
                        "key=value",
                        "a=b,c=d",
                        "*.example.com",
                        "!important",
                        "%d",
                        "@latest",
                        "-Xmx512m",
                        "--flag=x",
                        "C:\\dir",
                        "http://x.io/a",
                        "archfit.io/platforms",
                        "true-ish",
                        "on-call",
                        "no_proxy",
                        "0.5"}) {
    out.insert(s);
  }
  // Document markers: a key at column 0 must not start or end a document.
  for (const char* s : {"--- x", "... x", "---x", "...x", "--- ", "...", "-- x", ".. x", "--- !x",
                        "... &a", "---\tx", "---", "--- a b", "... a b"}) {
    out.insert(s);
  }

  // Random strings over atoms that each stress one rule, from a fixed seed.
  // mt19937's output sequence is fixed by the standard; distributions are
  // not, so indices come from its raw output.
  const std::vector<std::string> atoms = {"a",
                                          "Z",
                                          "y",
                                          "n",
                                          "0",
                                          "1",
                                          "9",
                                          "e",
                                          "x",
                                          "b",
                                          "o",
                                          ".",
                                          "_",
                                          "-",
                                          "+",
                                          ":",
                                          "#",
                                          ",",
                                          "[",
                                          "]",
                                          "{",
                                          "}",
                                          "?",
                                          "&",
                                          "*",
                                          "!",
                                          "|",
                                          ">",
                                          "'",
                                          "\"",
                                          "%",
                                          "@",
                                          "`",
                                          "~",
                                          "<",
                                          "=",
                                          "\\",
                                          "/",
                                          " ",
                                          " ",
                                          "\t",
                                          "\n",
                                          "\r",
                                          std::string(1, '\0'),
                                          "\x7F",
                                          "\xC3\xA9",
                                          "\xC2\x85",
                                          "\xE2\x80\xA8",
                                          "\xEF\xBB\xBF",
                                          "\xF0\x9F\x98\x80",
                                          "true",
                                          "null",
                                          ".inf",
                                          "0x",
                                          ": ",
                                          " #",
                                          "- ",
                                          "---"};
  std::mt19937 rng(20240601u);
  for (int i = 0; i < 6000; ++i) {
    std::string s;
    const std::uint32_t length = rng() % 12;
    for (std::uint32_t k = 0; k < length; ++k)
      s += atoms[rng() % atoms.size()];
    out.insert(s);
  }
  return {out.begin(), out.end()};
}

// ---- oracles ----

struct Scalar {
  std::string value;
  std::string tag;
  bool plain = false;
};

struct ParseResult {
  std::string error;  // empty when the document parsed
  std::string shape;  // M/m mapping start/end, S/s sequence start/end, = scalar
  std::vector<Scalar> scalars;
};

// The documents of a stream, each with its events, or a single result with
// the error. One parser for many documents: setting a parser up costs far
// more than parsing these small documents.
std::vector<ParseResult> parse_stream(const std::string& text) {
  std::vector<ParseResult> docs;
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()),
                               text.size());
  for (bool done = false; !done;) {
    yaml_event_t event;
    if (!yaml_parser_parse(&parser, &event)) {
      docs.assign(1, ParseResult{parser.problem ? parser.problem : "unknown error", "", {}});
      break;
    }
    ParseResult* doc = docs.empty() ? nullptr : &docs.back();
    switch (event.type) {
      case YAML_DOCUMENT_START_EVENT:
        docs.emplace_back();
        break;
      case YAML_MAPPING_START_EVENT:
        doc->shape += 'M';
        break;
      case YAML_MAPPING_END_EVENT:
        doc->shape += 'm';
        break;
      case YAML_SEQUENCE_START_EVENT:
        doc->shape += 'S';
        break;
      case YAML_SEQUENCE_END_EVENT:
        doc->shape += 's';
        break;
      case YAML_ALIAS_EVENT:
        doc->shape += '*';
        break;
      case YAML_SCALAR_EVENT: {
        doc->shape += '=';
        Scalar scalar;
        scalar.value.assign(reinterpret_cast<const char*>(event.data.scalar.value),
                            event.data.scalar.length);
        if (event.data.scalar.tag) {
          scalar.tag = reinterpret_cast<const char*>(event.data.scalar.tag);
        }
        scalar.plain = event.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        doc->scalars.push_back(std::move(scalar));
        break;
      }
      case YAML_STREAM_END_EVENT:
        done = true;
        break;
      default:
        break;
    }
    yaml_event_delete(&event);
  }
  yaml_parser_delete(&parser);
  return docs;
}

// Each document parsed on its own, so that an error is pinned on the right one.
std::vector<ParseResult> parse_each(const std::vector<std::string>& docs) {
  std::vector<ParseResult> results;
  for (const std::string& doc : docs) {
    std::vector<ParseResult> one = parse_stream(doc);
    results.push_back(one.size() == 1 ? one[0] : ParseResult{"not one document", "", {}});
  }
  return results;
}

// Every character any of the regexes below can match; text with anything
// else is a string to all of them.
bool could_resolve(const std::string& s) {
  if (s.size() > 64) return false;
  for (char c : s) {
    bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alnum && std::string_view("_.:+-~<= \t").find(c) == std::string_view::npos) return false;
  }
  return true;
}

// A POSIX extended regular expression matched against a whole string. POSIX
// regex rather than std::regex: GCC 12 reports false -Wmaybe-uninitialized
// warnings inside <regex> under the sanitizers, and these tables read the same.
class WholeMatch {
 public:
  explicit WholeMatch(const std::string& pattern) {
    const std::string anchored = "^(" + pattern + ")$";
    if (regcomp(&re_, anchored.c_str(), REG_EXTENDED | REG_NOSUB) != 0) {
      throw std::runtime_error("bad test regex: " + pattern);
    }
  }
  ~WholeMatch() { regfree(&re_); }
  WholeMatch(const WholeMatch&) = delete;
  WholeMatch& operator=(const WholeMatch&) = delete;
  bool operator()(const std::string& s) const {
    return regexec(&re_, s.c_str(), 0, nullptr, 0) == 0;
  }

 private:
  regex_t re_{};
};

// PyYAML's implicit resolvers (YAML 1.1), plus go-yaml's y/Y/n/N booleans,
// and the YAML 1.2 core schema. A string is what matches none of them.
const char* non_string_type(const std::string& s) {
  static const WholeMatch kYaml11Bool(
      "yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|y|Y|n|N");
  static const WholeMatch kYaml11Float(
      "[-+]?([0-9][0-9_]*)\\.[0-9_]*([eE][-+][0-9]+)?|\\.[0-9_]+([eE][-+][0-9]+)?"
      "|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");
  static const WholeMatch kYaml11Int(
      "[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
      "|[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+");
  static const WholeMatch kYaml11Null("~|null|Null|NULL|");
  static const WholeMatch kYaml11Other("<<|=");
  static const WholeMatch kYaml11Timestamp(
      "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
      "|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?([Tt]|[ \t]+)[0-9][0-9]?"
      ":[0-9][0-9]:[0-9][0-9](\\.[0-9]*)?([ \t]*(Z|[-+][0-9][0-9]?(:[0-9][0-9])?))?");
  static const WholeMatch kCoreNull("null|Null|NULL|~|");
  static const WholeMatch kCoreBool("true|True|TRUE|false|False|FALSE");
  static const WholeMatch kCoreInt("[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+");
  static const WholeMatch kCoreFloat(
      "[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)"
      "|\\.(nan|NaN|NAN)");
  if (!could_resolve(s)) return nullptr;
  const std::pair<const WholeMatch*, const char*> checks[] = {
      {&kYaml11Bool, "YAML 1.1 bool"},
      {&kYaml11Float, "YAML 1.1 float"},
      {&kYaml11Int, "YAML 1.1 int"},
      {&kYaml11Null, "YAML 1.1 null"},
      {&kYaml11Other, "YAML 1.1 merge/value"},
      {&kYaml11Timestamp, "YAML 1.1 timestamp"},
      {&kCoreNull, "YAML 1.2 null"},
      {&kCoreBool, "YAML 1.2 bool"},
      {&kCoreInt, "YAML 1.2 int"},
      {&kCoreFloat, "YAML 1.2 float"}};
  for (const auto& [matches, name] : checks) {
    if ((*matches)(s)) return name;
  }
  return nullptr;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// A JSON (RFC 8259) string literal to its value; false if it is not one.
bool json_string(const std::string& text, std::string& out) {
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return false;
  out.clear();
  const auto hex4 = [&](std::size_t at, std::uint32_t& v) {
    if (at + 4 > text.size() - 1) return false;
    v = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
      const char c = text[k];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) return false;
      v = v * 16 + static_cast<std::uint32_t>(d);
    }
    return true;
  };
  for (std::size_t i = 1; i + 1 < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c < 0x20) return false;
    if (c != '\\') {
      out += static_cast<char>(c);
      continue;
    }
    if (++i + 1 >= text.size()) return false;
    switch (text[i]) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        std::uint32_t cp = 0;
        if (!hex4(i + 1, cp)) return false;
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          std::uint32_t low = 0;
          if (text.compare(i + 1, 2, "\\u") != 0 || !hex4(i + 3, low) || low < 0xDC00 ||
              low > 0xDFFF) {
            return false;
          }
          i += 6;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return false;
        }
        append_utf8(out, cp);
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

// ---- the property ----

std::string show(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s.substr(0, 120)) {
    if (c < 0x20 || c == 0x7F || c >= 0x80 || c == '"' || c == '\\') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + (s.size() > 120 ? "...\"" : "\"");
}

const char* context_name(Context c) {
  return c == Context::Block ? "Block" : c == Context::Flow ? "Flow" : "Key";
}

// A document with the emitted text spliced in at "@", the events it must
// give, which scalar is ours, and the contexts whose output may stand there.
struct Embedding {
  std::string pattern;
  std::string shape;
  std::size_t index;
  std::vector<std::string> others;  // the other scalars, in order
  bool block_ok;                    // Block and Key output may stand here
  bool is_key;                      // an implicit key: at most kMaxImplicitKeyBytes
};

const std::vector<Embedding>& embeddings() {
  // Each text is followed by more content, so that a scalar running on
  // (or stopping short) shows; in flow, each bracket is next to it once.
  static const std::vector<Embedding> kAll = {
      {"k: @\nz: 1\n", "M====m", 1, {"k", "z", "1"}, true, false},
      {"- @\n- x\n", "S==s", 0, {"x"}, true, false},
      {"a:\n  - @\n", "M=S=sm", 1, {"a"}, true, false},
      {"@: v\nz: 1\n", "M====m", 0, {"v", "z", "1"}, true, true},
      {"a:\n  @: v\n", "M=M==mm", 1, {"a", "v"}, true, true},
      {"[@, x]\n", "S==s", 0, {"x"}, false, false},
      {"[x, @]\n", "S==s", 1, {"x"}, false, false},
      {"{k: @}\n", "M==m", 1, {"k"}, false, false},
      {"{k: @, z: 1}\n", "M====m", 1, {"k", "z", "1"}, false, false},
      {"{@: v}\n", "M==m", 0, {"v"}, false, true},
      {"k: [x, @]\n", "M=S==sm", 2, {"k", "x"}, false, false},
  };
  return kAll;
}

// The resolver tables are the property's oracle: they must know the words
// and numbers that are not strings, and nothing else.
TEST(EmitProperty, OracleKnowsNonStrings) {
  for (const char* s :
       {"",     "~",      "null",  "yes",   "Off",  "y",          "0x1F",
        "0o17", "017",    "0b101", "1_000", "1e3",  "+1.5e-3",    ".5",
        "1:20", "1:20.5", ".inf",  "-.Inf", ".NaN", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
        "<<",   "="}) {
    EXPECT_NE(non_string_type(s), nullptr) << s;
  }
  for (const char* s : {"hello", "1.2.3", "0x", "yess", "1e", "2001-1-1", "<", "==", ":"}) {
    EXPECT_EQ(non_string_type(s), nullptr) << s;
  }
}

TEST(EmitProperty, CorpusIsLargeAndVaried) {
  const std::vector<std::string> all = corpus();
  EXPECT_GE(all.size(), 10000u);
  std::size_t plain = 0;
  for (const std::string& s : all)
    plain += plain_safe(s) ? 1 : 0;
  // Both outcomes must be well represented for the property to mean much.
  EXPECT_GE(plain, 2000u);
  EXPECT_GE(all.size() - plain, 2000u);
}

TEST(EmitProperty, EveryStringReadsBackExactly) {
  const std::vector<std::string> all = corpus();
  std::size_t failures = 0;
  std::size_t documents = 0;
  const auto report = [&](const std::string& what, const std::string& input, Context context,
                          const std::string& emitted, const std::string& doc) {
    if (++failures <= 40) {
      ADD_FAILURE() << what << "\n  input:   " << show(input)
                    << "\n  context: " << context_name(context) << "\n  emitted: " << show(emitted)
                    << "\n  document: " << show(doc);
    }
  };

  for (const std::string& input : all) {
    for (Context context : {Context::Block, Context::Flow, Context::Key}) {
      std::string emitted;
      try {
        emitted = emit_string(input, context);
      } catch (const Error& e) {
        // Only a key too long for any reader may be refused (the corpus is UTF-8).
        if (!(context == Context::Key && double_quote(input).size() > kMaxImplicitKeyBytes)) {
          report(std::string("threw: ") + e.what(), input, context, "", "");
        }
        continue;
      }
      const bool plain = emitted == input;
      if (plain != plain_safe(input, context)) {
        report("plain_safe disagrees with emit_string", input, context, emitted, "");
      }
      if (!plain) {
        std::string decoded;
        if (!json_string(emitted, decoded) || decoded != input) {
          report("double-quoted text is not a JSON string of the input", input, context, emitted,
                 "");
        }
      } else if (const char* type = non_string_type(input)) {
        report(std::string("plain text reads as ") + type, input, context, emitted, "");
      }

      if (context == Context::Key && emitted.size() > kMaxImplicitKeyBytes) {
        report("key text longer than any reader accepts", input, context, emitted, "");
      }
      std::vector<const Embedding*> used;
      std::vector<std::string> docs;
      std::string stream;
      for (const Embedding& e : embeddings()) {
        const bool fits = context == Context::Flow ? true : e.block_ok;
        if (!fits || (e.is_key && emitted.size() > kMaxImplicitKeyBytes)) continue;
        if (e.is_key && e.block_ok && context == Context::Block) continue;  // Key's job
        std::string doc = e.pattern;
        doc.replace(doc.find('@'), 1, emitted);
        stream += "---\n" + doc;
        used.push_back(&e);
        docs.push_back(std::move(doc));
      }
      documents += docs.size();
      std::vector<ParseResult> results = parse_stream(stream);
      if (results.size() != docs.size() || !results[0].error.empty()) results = parse_each(docs);

      for (std::size_t d = 0; d < docs.size(); ++d) {
        const Embedding& e = *used[d];
        const ParseResult& r = results[d];
        const std::string& doc = docs[d];
        if (!r.error.empty()) {
          report("libyaml: " + r.error, input, context, emitted, doc);
          continue;
        }
        if (r.shape != e.shape) {
          report("events " + r.shape + ", expected " + e.shape, input, context, emitted, doc);
          continue;
        }
        const Scalar& ours = r.scalars[e.index];
        if (ours.value != input) {
          report("read back as " + show(ours.value), input, context, emitted, doc);
        }
        Resolved resolved = resolve_scalar(ours.value, ours.tag, ours.plain);
        if (resolved.type != ScalarType::String) {
          report("resolves to a non-string", input, context, emitted, doc);
        }
        std::size_t k = 0;
        for (std::size_t i = 0; i < r.scalars.size(); ++i) {
          if (i != e.index && r.scalars[i].value != e.others[k++]) {
            report("a neighbouring scalar changed", input, context, emitted, doc);
          }
        }
      }
    }
  }
  std::printf("[ property ] %zu strings, %zu documents parsed, %zu failures\n", all.size(),
              documents, failures);
  EXPECT_EQ(failures, 0u);
}

}  // namespace
}  // namespace archfit::yaml
