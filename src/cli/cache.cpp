// `archfit cache path|list|prune|clear`: where the cache of resolved platforms
// is, what is in it, and taking old or all of it out. The directory comes from
// the same precedence as every other command (--cache-dir, ARCHFIT_CACHE_DIR,
// XDG_CACHE_HOME, HOME).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <archfit/base/duration.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/cache/store.hpp>
#include <archfit/config/loader.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/shown.hpp"

namespace fs = std::filesystem;

namespace archfit::cli {

namespace {

struct CacheOptions {
  CommonFlags common;  // only --config and --cache-dir are registered
  std::string format = "text";
  std::string older_than = "30d";
};

cache::Store open_store(const CommonFlags& flags) {
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

void print_text_list(const cache::Store& store, const std::vector<cache::ListedEntry>& entries) {
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
    std::cout << pad(r.kind, widths[0]) << "  " << pad(r.key, widths[1]) << "  "
              << pad(r.detail, widths[2]) << "  " << std::string(widths[3] - r.age.size(), ' ')
              << r.age << "  " << r.size << '\n';
  }
  if (entries.empty()) {
    std::cout << "no entries in " << shown(store.root().string()) << '\n';
    return;
  }
  std::cout << plural(entries.size(), "file", "files") << " ("
            << plural(counts[0], "digest", "digests") << ", " << plural(counts[1], "tag", "tags")
            << ", " << counts[2] << " invalid), " << size_text(bytes) << " in "
            << shown(store.root().string()) << '\n';
}

void print_json_list(const cache::Store& store, const std::vector<cache::ListedEntry>& entries) {
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
  std::cout << buffer.GetString() << '\n';
}

void run_list(const CacheOptions& o) {
  if (o.format != "text" && o.format != "json") {
    fail(ErrorKind::Usage,
         "--format: " + archfit::quoted(o.format) + " is not a format; use text or json");
  }
  cache::Store store = open_store(o.common);
  std::vector<cache::ListedEntry> entries = store.list();
  if (o.format == "json") {
    print_json_list(store, entries);
  } else {
    print_text_list(store, entries);
  }
}

void run_prune(const CacheOptions& o) {
  std::string why;
  std::optional<std::chrono::seconds> older_than = try_parse_duration(o.older_than, &why);
  if (!older_than) fail(ErrorKind::Usage, "--older-than: " + why);
  cache::Store store = open_store(o.common);
  cache::PruneResult result = store.prune(*older_than);
  const cache::TimePoint now = store.now();
  for (const cache::ListedEntry& e : result.entries) {
    std::cout << "removed " << kind_name(e.kind) << ' ' << shown(display_key(store, e)) << " ("
              << age_text(now, e.time) << " old)\n";
  }
  std::cout << "removed " << plural(result.removed, "file", "files") << " ("
            << size_text(result.bytes_freed) << ") older than " << format_duration(*older_than)
            << ", kept " << result.kept << ", in " << shown(store.root().string()) << '\n';
}

void run_clear(const CacheOptions& o) {
  cache::Store store = open_store(o.common);
  cache::PruneResult result = store.clear();
  std::cout << "removed " << plural(result.removed, "file", "files") << " ("
            << size_text(result.bytes_freed) << ") from " << shown(store.version_dir().string())
            << '\n';
  if (result.kept > 0) {
    std::cerr << "archfit: " << plural(result.kept, "file", "files")
              << " could not be removed; check the permissions under "
              << shown(store.version_dir().string()) << '\n';
  }
}

// The flags go on each subcommand, where users type them
// (`archfit cache list --cache-dir DIR`), and on `cache` itself.
CLI::App* add_cache_subcommand(CLI::App* parent, const char* name, const char* help,
                               const char* footer, CacheOptions& o) {
  CLI::App* cmd = parent->add_subcommand(name, help);
  if (*footer) cmd->footer(footer);
  add_cache_dir_flag(cmd, o.common);
  add_config_flag(cmd, o.common);
  return cmd;
}

}  // namespace

void add_cache_command(CLI::App& app, RunState& /*state*/) {
  auto o = std::make_shared<CacheOptions>();
  CLI::App* cmd = app.add_subcommand(
      "cache",
      "Show, list and clean the on-disk cache of image platforms (digests never expire; tags "
      "are trusted for resolve.tagTTL)");
  cmd->require_subcommand(1);
  add_cache_dir_flag(cmd, o->common);
  add_config_flag(cmd, o->common);
  cmd->footer(
      "The cache holds, under DIR/v1/, the platforms of each manifest or index digest archfit\n"
      "resolved, and the digest each tag pointed at when it was fetched. Removing entries is\n"
      "always safe: archfit asks the registry again when it needs them. prune and clear remove\n"
      "only files named as archfit's entries, never through a symbolic link, and only from a\n"
      "directory holding the CACHEDIR.TAG archfit wrote with its first entry.");

  CLI::App* path = add_cache_subcommand(
      cmd, "path", "Print the cache directory",
      "The directory is --cache-dir, else $ARCHFIT_CACHE_DIR, else $XDG_CACHE_HOME/archfit, else\n"
      "~/.cache/archfit. It need not exist yet.",
      *o);
  path->callback([o] { std::cout << open_store(o->common).root().string() << '\n'; });

  CLI::App* list = add_cache_subcommand(
      cmd, "list", "List the cached entries with their age and size",
      "One line per file, sorted: kind (digest, tag, invalid), key (the digest, or the image\n"
      "reference of a tag), the digest's platforms or the tag's digest, age, size; then a\n"
      "summary. Files named as entries that are not valid ones (damaged, foreign, misplaced)\n"
      "and temporary files of a writer are listed as invalid; prune removes them. Other files\n"
      "are not archfit's and are not listed.",
      *o);
  list->add_option("--format", o->format, "Output format: text or json")->capture_default_str();
  list->callback([o] { run_list(*o); });

  CLI::App* prune = add_cache_subcommand(
      cmd, "prune", "Remove old entries and leftover files",
      "Removes entries stored longer ago than --older-than (a tag's time is when it was\n"
      "fetched, a digest's when it was written, used since or not), and invalid files older\n"
      "than a minute, then prints what it removed. Other archfit processes may keep running.",
      *o);
  prune
      ->add_option("--older-than", o->older_than,
                   "Remove entries older than this, e.g. 12h, 7d, 2w; 0 removes every entry")
      ->type_name("DUR")
      ->capture_default_str();
  prune->callback([o] { run_prune(*o); });

  CLI::App* clear = add_cache_subcommand(
      cmd, "clear", "Remove everything archfit stored in the cache",
      "Removes every entry under v1/, where archfit keeps them, and the directories left\n"
      "empty, and says how much it removed. Files archfit did not write are left alone.",
      *o);
  clear->callback([o] { run_clear(*o); });
}

}  // namespace archfit::cli
