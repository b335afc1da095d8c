#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <archfit/base/duration.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/untrusted.hpp>
#include <archfit/cache/store.hpp>
#include <archfit/config/loader.hpp>
#include <archfit/surface/command_line/cache.hpp>

namespace fs = std::filesystem;

namespace archfit::surface::command_line {

namespace {

std::string shown(std::string_view text) {
  return for_terminal(Untrusted(text));
}

cache::Store open_store(const config::CommonFlags& flags) {
  config::ConfigRequest request;
  request.flags = flags;
  config::LoadedConfig loaded = config::load_config(request);
  if (loaded.cache_dir.empty()) {
    fail(ErrorKind::Config,
         "no cache directory: HOME is not set; give --cache-dir DIR, or set ARCHFIT_CACHE_DIR "
         "or XDG_CACHE_HOME");
  }
  std::error_code ec;
  fs::path dir = fs::absolute(loaded.cache_dir, ec);
  return cache::Store(ec ? loaded.cache_dir : dir.lexically_normal());
}

std::string_view kind_name(cache::ListedEntry::Kind kind) {
  switch (kind) {
    case cache::ListedEntry::Kind::Digest:
      return "digest";
    case cache::ListedEntry::Kind::Tag:
      return "tag";
    case cache::ListedEntry::Kind::Invalid:
      break;
  }
  return "invalid";
}

// The key users recognize: the digest or reference, or the file for an
// invalid one.
std::string display_key(const cache::Store& store, const cache::ListedEntry& e) {
  if (e.kind != cache::ListedEntry::Kind::Invalid) return e.key;
  return e.path.lexically_relative(store.root()).string();
}

std::string detail(const cache::ListedEntry& e) {
  switch (e.kind) {
    case cache::ListedEntry::Kind::Digest:
      return e.platforms.str();
    case cache::ListedEntry::Kind::Tag:
      return e.digest;
    case cache::ListedEntry::Kind::Invalid:
      break;
  }
  return "(not a valid entry)";
}

// The age in its largest whole unit: "45s", "12m", "3h", "5d"; "-3h" for a
// time in the future.
std::string age_text(cache::TimePoint now, cache::TimePoint then) {
  auto age = std::chrono::floor<std::chrono::seconds>(now - then);
  std::string sign = age.count() < 0 ? "-" : "";
  long long s = age.count() < 0 ? -age.count() : age.count();
  if (s >= 86400) return sign + std::to_string(s / 86400) + "d";
  if (s >= 3600) return sign + std::to_string(s / 3600) + "h";
  if (s >= 60) return sign + std::to_string(s / 60) + "m";
  return sign + std::to_string(s) + "s";
}

std::string size_text(std::uintmax_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  char buf[32];
  double value = static_cast<double>(bytes);
  if (bytes < 1024 * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", value / 1024);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MiB", value / (1024 * 1024));
  }
  return buf;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

long long unix_seconds(cache::TimePoint t) {
  return std::chrono::floor<std::chrono::seconds>(t.time_since_epoch()).count();
}

void print_text_list(const cache::Store& store, const std::vector<cache::ListedEntry>& entries,
                     std::ostream& text) {
  const cache::TimePoint now = store.now();
  struct Row {
    std::string kind, key, detail, age, size;
  };
  std::vector<Row> rows;
  std::size_t widths[4] = {0, 0, 0, 0};
  std::size_t counts[3] = {0, 0, 0};
  std::uintmax_t bytes = 0;
  for (const cache::ListedEntry& e : entries) {
    rows.push_back({std::string(kind_name(e.kind)), shown(display_key(store, e)), shown(detail(e)),
                    age_text(now, e.time), size_text(e.bytes)});
    const Row& r = rows.back();
    widths[0] = std::max(widths[0], r.kind.size());
    widths[1] = std::max(widths[1], r.key.size());
    widths[2] = std::max(widths[2], r.detail.size());
    widths[3] = std::max(widths[3], r.age.size());
    ++counts[static_cast<int>(e.kind)];
    bytes += e.bytes;
  }
  auto pad = [](const std::string& s, std::size_t width) {
    return s + std::string(width - s.size(), ' ');
  };
  for (const Row& r : rows) {
    text << pad(r.kind, widths[0]) << "  " << pad(r.key, widths[1]) << "  "
         << pad(r.detail, widths[2]) << "  " << std::string(widths[3] - r.age.size(), ' ') << r.age
         << "  " << r.size << '\n';
  }
  if (entries.empty()) {
    text << "no entries in " << shown(store.root().string()) << '\n';
    return;
  }
  text << plural(entries.size(), "file", "files") << " (" << plural(counts[0], "digest", "digests")
       << ", " << plural(counts[1], "tag", "tags") << ", " << counts[2] << " invalid), "
       << size_text(bytes) << " in " << shown(store.root().string()) << '\n';
}

void print_json_list(const cache::Store& store, const std::vector<cache::ListedEntry>& entries,
                     std::ostream& text) {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buffer);
  w.SetIndent(' ', 2);
  auto string = [&w](std::string_view s) {
    const std::string valid = for_json(Untrusted(s));
    w.String(valid.data(), static_cast<rapidjson::SizeType>(valid.size()));
  };
  w.StartObject();
  w.Key("directory");
  string(store.root().string());
  w.Key("entries");
  w.StartArray();
  for (const cache::ListedEntry& e : entries) {
    w.StartObject();
    w.Key("kind");
    string(kind_name(e.kind));
    w.Key("key");
    string(e.key);
    if (e.kind != cache::ListedEntry::Kind::Invalid) {
      w.Key("digest");
      string(e.digest);
    }
    if (e.kind == cache::ListedEntry::Kind::Digest) {
      w.Key("platforms");
      w.StartArray();
      for (const std::string& p : e.platforms.strs())
        string(p);
      w.EndArray();
    }
    w.Key("time");
    w.Int64(unix_seconds(e.time));
    w.Key("bytes");
    w.Uint64(e.bytes);
    w.Key("path");
    string(e.path.lexically_relative(store.root()).string());
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  text << buffer.GetString() << '\n';
}

}  // namespace

void cache_path(const CacheRequest& o, app::Output& out) {
  out.write(open_store(o.flags).root().string() + "\n");
}

void cache_list(const CacheRequest& o, app::Output& out) {
  std::ostringstream text;
  if (o.format != "text" && o.format != "json") {
    fail(ErrorKind::Usage,
         "--format: " + archfit::quoted(o.format) + " is not a format; use text or json");
  }
  cache::Store store = open_store(o.flags);
  std::vector<cache::ListedEntry> entries = store.list();
  if (o.format == "json") {
    print_json_list(store, entries, text);
  } else {
    print_text_list(store, entries, text);
  }
  out.write(text.str());
}

void cache_prune(const CacheRequest& o, app::Output& out) {
  std::ostringstream text;
  std::string why;
  std::optional<std::chrono::seconds> older_than = try_parse_duration(o.older_than, &why);
  if (!older_than) fail(ErrorKind::Usage, "--older-than: " + why);
  cache::Store store = open_store(o.flags);
  cache::PruneResult result = store.prune(*older_than);
  const cache::TimePoint now = store.now();
  for (const cache::ListedEntry& e : result.entries) {
    text << "removed " << kind_name(e.kind) << ' ' << shown(display_key(store, e)) << " ("
         << age_text(now, e.time) << " old)\n";
  }
  text << "removed " << plural(result.removed, "file", "files") << " ("
       << size_text(result.bytes_freed) << ") older than " << format_duration(*older_than)
       << ", kept " << result.kept << ", in " << shown(store.root().string()) << '\n';
  out.write(text.str());
}

void cache_clear(const CacheRequest& o, app::Output& out, std::ostream& err) {
  cache::Store store = open_store(o.flags);
  cache::PruneResult result = store.clear();
  out.write("removed " + plural(result.removed, "file", "files") + " (" +
            size_text(result.bytes_freed) + ") from " + shown(store.version_dir().string()) + "\n");
  if (result.kept > 0) {
    err << "archfit: " << plural(result.kept, "file", "files")
        << " could not be removed; check the permissions under "
        << shown(store.version_dir().string()) << '\n';
  }
}

}  // namespace archfit::surface::command_line
