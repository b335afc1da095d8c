// The floor for archfit's parse benchmark: libyaml's event parser over a whole
// manifest stream, and nothing else.
//
//   bench_libyaml_parse FILE [--repeat K]
//
// The file is read into memory once, before any timing (that read is reported
// separately as read_seconds). Each run then creates a parser on the buffer,
// calls yaml_parser_parse until the end of the stream, deleting every event,
// and destroys the parser; only that is timed, with std::chrono::steady_clock.
// With --repeat K it runs K times and reports the best (minimum) time and the
// median. Output is one machine-readable line on stdout:
//
//   seconds=0.431000 median=0.433000 runs=5 events=1234567 documents=28558 bytes=21000000
//   read_seconds=0.004000
//
// Exit status: 0 on success, 1 when the stream does not parse (the message
// names the line and column), 2 on usage or I/O errors.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <yaml.h>

namespace {

struct ParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Owns a yaml_parser_t reading from a caller-owned buffer.
class Parser {
 public:
  explicit Parser(std::string_view input) {
    if (yaml_parser_initialize(&parser_) == 0) throw std::runtime_error("out of memory");
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(input.data()),
                                 input.size());
  }
  ~Parser() { yaml_parser_delete(&parser_); }
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  // The next event, or a ParseError with libyaml's message and position.
  void next(yaml_event_t& event) {
    if (yaml_parser_parse(&parser_, &event) == 0) {
      const yaml_mark_t& mark = parser_.problem_mark;
      throw ParseError(std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1) +
                       ": " + (parser_.problem != nullptr ? parser_.problem : "parse error"));
    }
  }

 private:
  yaml_parser_t parser_{};
};

// Deletes the event it holds when it goes out of scope.
class Event {
 public:
  Event() = default;
  ~Event() { yaml_event_delete(&event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  yaml_event_t& get() { return event_; }

 private:
  yaml_event_t event_{};
};

struct Counts {
  std::uint64_t events = 0;
  std::uint64_t documents = 0;
};

// Parses the whole stream once. This is the timed work.
Counts parse_stream(std::string_view input) {
  Parser parser(input);
  Counts counts;
  for (;;) {
    Event event;
    parser.next(event.get());
    ++counts.events;
    const yaml_event_type_t type = event.get().type;
    if (type == YAML_DOCUMENT_START_EVENT) ++counts.documents;
    if (type == YAML_STREAM_END_EVENT) break;
  }
  return counts;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string data{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw std::runtime_error("cannot read " + path);
  return data;
}

struct Options {
  std::string file;
  int repeat = 1;
};

constexpr char kUsage[] =
    "usage: bench_libyaml_parse FILE [--repeat K]\n"
    "Times libyaml's event parser over FILE (read into memory first, untimed) and prints\n"
    "seconds=<best> median=<s> runs=<K> events=<n> documents=<n> bytes=<n> read_seconds=<s>\n";

std::optional<Options> parse_args(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    if (arg == "--repeat" || arg.starts_with("--repeat=")) {
      std::string_view value;
      if (arg == "--repeat") {
        if (i + 1 >= argc) return std::nullopt;
        value = argv[++i];
      } else {
        value = arg.substr(std::string_view("--repeat=").size());
      }
      const auto [end, ec] =
          std::from_chars(value.data(), value.data() + value.size(), options.repeat);
      if (ec != std::errc() || end != value.data() + value.size() || options.repeat < 1) {
        return std::nullopt;
      }
    } else if (!arg.empty() && arg[0] == '-') {
      return std::nullopt;
    } else if (options.file.empty()) {
      options.file = arg;
    } else {
      return std::nullopt;
    }
  }
  if (options.file.empty()) return std::nullopt;
  return options;
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Options> options = parse_args(argc, argv);
  if (!options) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  try {
    const Clock::time_point read_start = Clock::now();
    const std::string data = read_file(options->file);
    const double read_seconds = seconds_since(read_start);

    std::vector<double> times;
    times.reserve(static_cast<std::size_t>(options->repeat));
    Counts counts;
    for (int run = 0; run < options->repeat; ++run) {
      const Clock::time_point start = Clock::now();
      counts = parse_stream(data);
      times.push_back(seconds_since(start));
    }
    std::sort(times.begin(), times.end());
    const std::size_t n = times.size();
    const double median = n % 2 == 1 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;

    std::printf(
        "seconds=%.6f median=%.6f runs=%zu events=%llu documents=%llu bytes=%zu "
        "read_seconds=%.6f\n",
        times.front(), median, n, static_cast<unsigned long long>(counts.events),
        static_cast<unsigned long long>(counts.documents), data.size(), read_seconds);
    return 0;
  } catch (const ParseError& e) {
    std::fprintf(stderr, "%s:%s\n", options->file.c_str(), e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_libyaml_parse: %s\n", e.what());
    return 2;
  }
}
