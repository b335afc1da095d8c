#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <archfit/app/messages.hpp>
#include <archfit/app/session.hpp>
#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/unified_diff.hpp>
#include <archfit/base/untrusted.hpp>
#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/run/documents.hpp>
#include <archfit/run/wants.hpp>
#include <archfit/surface/command_line/lock.hpp>
#include <archfit/surface/command_line/lock_changes.hpp>

#include "surface/command_line/lock_diff.hpp"

namespace archfit::surface::command_line {

namespace {

std::string shown(std::string_view text) {
  return for_terminal(Untrusted(text));
}

std::filesystem::path canonical_or_same(const std::filesystem::path& p) {
  std::error_code ec;
  std::filesystem::path c = std::filesystem::weakly_canonical(p, ec);
  return ec ? p : c;
}

// Writes `lock` to `path` unless it already holds exactly these bytes.
// Whether the file at `path` holds exactly `content`, compared a piece at a
// time (neither is held whole).
bool holds(const std::filesystem::path& path, const Content& content) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  bool same = true;
  std::string buffer;
  content([&](std::string_view part) {
    if (!same) return;
    buffer.resize(part.size());
    file.read(buffer.data(), static_cast<std::streamsize>(part.size()));
    same = static_cast<std::size_t>(file.gcount()) == part.size() && buffer == part;
  });
  return same && file.peek() == std::ifstream::traits_type::eof();
}

// Whether it wrote the file (its bytes were not these).
bool write_lock(const std::filesystem::path& path, const cache::LockFile& lock, bool quiet,
                const std::string& what, std::ostream& err) {
  const Content text = [&lock](const std::function<void(std::string_view)>& put) {
    lock.write(put);
  };
  bool same = false;
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) same = holds(path, text);
  if (!same) write_atomically(path, text);
  if (!quiet) {
    err << (same ? "unchanged " : "wrote ") << shown(path.string()) << ": " << lock.size()
        << (lock.size() == 1 ? " image" : " images") << what << '\n';
  }
  return !same;
}

// The bytes `lock` writes.
std::string text_of(const cache::LockFile& lock) {
  std::string text;
  lock.write([&text](std::string_view part) { text.append(part); });
  return text;
}

// How a lock's path is named in reports and diffs: relative to the working directory
// when it lies below it (as git names paths), else as given.
std::string shown_name(const std::filesystem::path& lock) {
  std::error_code ec;
  std::filesystem::path here = std::filesystem::current_path(ec);
  std::filesystem::path full = canonical_or_same(lock);
  if (!ec) {
    std::filesystem::path rel = full.lexically_relative(canonical_or_same(here));
    if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
  }
  return lock.generic_string();
}

// One --set value: "IMAGE=PLATFORMS", the image as a manifest writes it and
// the platforms comma-separated.
std::pair<image::Reference, image::PlatformSet> parse_set(const std::string& value) {
  std::size_t eq = value.find('=');
  if (eq == std::string::npos) {
    fail(ErrorKind::Usage, "--set " + archfit::quoted(value) +
                               ": expected IMAGE=PLATFORMS, e.g. --set "
                               "nginx:1.27=linux/amd64,linux/arm64");
  }
  std::string why;
  std::optional<image::Reference> ref = image::Reference::try_parse(value.substr(0, eq), &why);
  if (!ref) fail(ErrorKind::Usage, "--set " + archfit::quoted(value) + ": " + why);
  image::PlatformSet platforms;
  try {
    platforms = image::PlatformSet::parse(value.substr(eq + 1));
  } catch (const Error& e) {
    fail(ErrorKind::Usage, "--set " + archfit::quoted(value) + ": " + e.message());
  }
  if (platforms.empty()) {
    fail(ErrorKind::Usage, "--set " + archfit::quoted(value) +
                               ": no platforms; list them, e.g. linux/amd64,linux/arm64");
  }
  return {std::move(*ref), std::move(platforms)};
}

// `archfit lock --set`: entries written by hand into the lock file, which is
// read first (when it exists) and kept otherwise as it is. No registry.
app::ExitCode lock_set(const LockRequest& o, std::ostream& err) {
  // `--set A=P B=Q`: the words after the first are entries too.
  for (const std::string& path : o.paths) {
    if (path.find('=') == std::string::npos) {
      fail(ErrorKind::Usage,
           "--set writes the given images only; give no files with it (archfit lock FILE... "
           "resolves the images of the files): " +
               archfit::quoted(path) + " is not IMAGE=PLATFORMS");
    }
  }
  std::vector<std::pair<image::Reference, image::PlatformSet>> entries;
  for (const std::string& value : o.set)
    entries.push_back(parse_set(value));
  for (const std::string& value : o.paths)
    entries.push_back(parse_set(value));
  app::Request request;
  request.read_inputs = false;
  request.use_lock = false;
  request.flags = o.flags;
  request.verbose = o.verbose;
  app::Session session(std::move(request), err);
  const std::filesystem::path& path = session.loaded().lock_file;
  cache::LockFile lock;
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) lock = cache::LockFile::load(path);
  std::size_t changed = 0;
  for (auto& [ref, platforms] : entries) {
    std::optional<cache::LockEntry> old = lock.find(ref);
    if (old && old->platforms == platforms) continue;  // its digest stays
    lock.set(ref, cache::LockEntry{"", std::move(platforms)});
    ++changed;
  }
  write_lock(path, lock, o.quiet,
             " (" + std::to_string(changed) + " set by --set, " +
                 std::to_string(entries.size() - changed) + " already so)",
             err);
  return app::kOk;
}

// The images the manifests of one lock file's scope use: the wants of each
// configuration that uses the lock, and which files use each image.
struct Scope {
  std::filesystem::path lock;
  std::vector<std::size_t> configurations;
  std::map<std::size_t, std::vector<resolve::Want>> wants;  // by configuration
  std::map<std::string, std::vector<std::string>> used_by;  // canonical -> files
};

// Every lock file the inputs use (each input's nearest, as fix and lint
// read them), with what its manifests use. Faults are counted, and said.
std::vector<Scope> scopes_of(app::Session& session, std::size_t& faults, std::ostream& err) {
  std::vector<Scope> scopes;
  std::map<std::filesystem::path, std::size_t> by_lock;
  std::vector<std::size_t> scope_of(session.configurations());
  for (std::size_t k = 0; k < session.configurations(); ++k) {
    std::filesystem::path lock = canonical_or_same(session.loaded(k).lock_file);
    auto [it, added] = by_lock.try_emplace(lock, scopes.size());
    if (added) scopes.push_back(Scope{session.loaded(k).lock_file, {}, {}, {}});
    scopes[it->second].configurations.push_back(k);
    scope_of[k] = it->second;
  }
  const std::vector<manifest::InputFile>& inputs = session.inputs();
  std::vector<std::vector<manifest::InputFile>> files(session.configurations());
  for (std::size_t i = 0; i < inputs.size(); ++i)
    files[session.configuration_of(i)].push_back(inputs[i]);
  for (std::size_t k = 0; k < session.configurations(); ++k) {
    if (files[k].empty()) continue;
    const config::LoadedConfig& loaded = session.loaded(k);
    Scope& scope = scopes[scope_of[k]];
    run::WantCollector collector(loaded.resolve);
    faults += run::for_each_document(
        files[k],
        [&](const manifest::InputFile& input, const yaml::Tree& tree) {
          collector.add_secrets(tree, input.name);
          for (const manifest::Workload& w : manifest::discover(tree, loaded.config.kinds)) {
            for (const manifest::PodTemplate& t : w.templates) {
              collector.add_template(t);
              for (const manifest::Container& c : t.containers) {
                if (!c.reference) continue;
                std::vector<std::string>& users = scope.used_by[c.reference->canonical()];
                if (users.empty() || users.back() != input.name) users.push_back(input.name);
              }
            }
          }
        },
        err);
    for (const std::string& warning : collector.warnings())
      err << shown(warning) << '\n';
    scope.wants[k] = collector.wants();
    // A lock is refreshed or checked against what the registries say now:
    // a tag costs a HEAD whatever the cache's age of it (a digest known
    // costs nothing more).
    for (resolve::Want& want : scope.wants[k])
      want.tag_ttl = std::chrono::seconds(0);
  }
  // A lock no input uses is not the run's.
  std::erase_if(scopes, [](const Scope& s) { return s.wants.empty(); });
  return scopes;
}

}  // namespace

app::ExitCode lock(const LockRequest& o, app::Output& out, std::ostream& err) {
  if (!o.set.empty() && !o.diff.empty()) fail(ErrorKind::Usage, "--diff is not used with --set");
  if (!o.set.empty()) return lock_set(o, err);
  if (o.check && o.prune) fail(ErrorKind::Usage, "--check and --prune cannot be used together");
  if (o.check && !o.diff.empty()) {
    fail(ErrorKind::Usage, "--diff is of the locks written; --check writes none");
  }
  if (o.format != "text" && o.format != "json" && o.format != "markdown") {
    fail(ErrorKind::Usage,
         "--format: " + archfit::quoted(o.format) + " is not a format; use text, json or markdown");
  }
  app::Request request;
  request.paths = o.paths;
  request.use_lock = false;
  request.config_per_file = true;
  request.flags = o.flags;
  request.verbose = o.verbose;
  app::Session session(std::move(request), err);
  std::size_t faults = 0;
  std::vector<Scope> scopes = scopes_of(session, faults, err);

  std::vector<LockReport> reports;
  // The diff of every lock written (--diff), streamed to its file, which is
  // written whatever happened (empty when no lock changed), so that a
  // workflow reads one file in every case; put in place at the end.
  std::unique_ptr<StreamedWrite> diff;
  if (!o.diff.empty()) diff = std::make_unique<StreamedWrite>(o.diff, Durability::Kernel);
  std::size_t failed = 0;
  std::size_t kept_unused = 0;
  for (Scope& scope : scopes) {
    LockReport report;
    report.lock = shown_name(scope.lock);
    std::error_code ec;
    // The lock is changed in place: its memory is had once, whatever its size.
    cache::LockFile lock;
    if (std::filesystem::exists(scope.lock, ec)) lock = cache::LockFile::load(scope.lock);
    // The entries the scope's images find (as fix and lint look them up), and
    // those no manifest of the scope uses, found before anything changes.
    std::set<std::string> used_keys;
    for (const auto& [k, wants] : scope.wants) {
      for (const resolve::Want& want : wants) {
        if (std::optional<std::string> key = lock.key_of(want.ref)) used_keys.insert(*key);
      }
    }
    std::vector<std::string> unused;
    if (o.prune) {
      // No registry: only what no manifest of the scope uses goes.
      lock.remove_all_but(used_keys, [&report](const std::string& key, cache::LockEntry entry) {
        report.changes.push_back(
            LockChange{LockChange::Kind::Removed, key, std::move(entry), std::nullopt, {}});
      });
    } else {
      for (std::string& key : lock.keys()) {
        if (!used_keys.contains(key)) unused.push_back(std::move(key));
      }
      for (auto& [k, wants] : scope.wants) {
        resolve::Resolver& resolver = session.resolver(k);
        resolver.resolve_all(wants, session.progress());
        if (o.verbose) app::print_resolution_summary(err, resolver.stats());
        for (const resolve::Want& want : wants) {
          const resolve::Resolution* r = resolver.find(want.ref);
          if (r == nullptr || !r->ok) {
            err << "archfit: " << shown(want.ref.canonical()) << ": "
                << shown(r != nullptr ? r->cause(want.ref) : std::string_view("not resolved"))
                << '\n';
            ++failed;
            continue;
          }
          cache::LockEntry now{r->digest, r->platforms};
          std::optional<std::string> key = lock.key_of(want.ref);
          if (!key) {
            std::vector<std::string> users = scope.used_by[want.ref.canonical()];
            report.changes.push_back(
                LockChange{o.check ? LockChange::Kind::Missing : LockChange::Kind::Added,
                           want.ref.canonical(), std::nullopt, now, std::move(users)});
            lock.set(want.ref, std::move(now));
            continue;
          }
          cache::LockEntry before = *lock.find(*key);
          const bool moved =
              !before.digest.empty() && before.digest != now.digest && !want.ref.has_digest();
          if (!moved && before.platforms == now.platforms) continue;  // its bytes stay
          report.changes.push_back(
              LockChange{moved ? LockChange::Kind::Moved : LockChange::Kind::Platforms,
                         *key,
                         before,
                         now,
                         {}});
          lock.set(want.ref, std::move(now));
        }
      }
      for (const std::string& key : unused) {
        if (o.check) {
          report.changes.push_back(
              LockChange{LockChange::Kind::Unused, key, lock.find(key), std::nullopt, {}});
        } else {
          ++kept_unused;
        }
      }
    }
    std::vector<std::string>().swap(unused);  // its memory back before the diff is made
    // A lock is written when it changed, and when there was none: a first
    // `archfit lock` leaves a lock behind even if it holds no entry yet.
    const bool existed = std::filesystem::is_regular_file(scope.lock, ec);
    if (failed == 0 && !o.check && (!report.changes.empty() || !existed)) {
      // The diff is of the bytes as they were: read before they are
      // replaced, once the lock's own memory is given back.
      const std::string after = diff ? text_of(lock) : std::string();
      std::string before;
      if (diff && existed) before = read_file(scope.lock, ReadLimit{kMaxLockBytes, "a lock file"});
      report.written = write_lock(scope.lock, lock, o.quiet, "", err);
      lock = cache::LockFile();
      if (report.written && diff) {
        std::ostream& to = diff->out();
        write_lock_diff(before, existed, after, shown_name(scope.lock),
                        [&to](std::string_view part) {
                          to.write(part.data(), static_cast<std::streamsize>(part.size()));
                        });
      }
    }
    reports.push_back(std::move(report));
  }
  write_lock_reports(reports, o.format, out);
  if (diff) diff->commit();
  if (failed > 0) {
    err << "archfit: " << failed << " images could not be resolved"
        << (o.check ? "; the locks were not checked against them\n" : "; no lock was written\n");
    return app::kUnresolved;
  }
  if (kept_unused > 0 && !o.quiet) {
    err << "archfit: kept " << kept_unused << (kept_unused == 1 ? " entry" : " entries")
        << " no manifest given here uses; archfit lock --prune drops them\n";
  }
  std::size_t changes = 0;
  for (const LockReport& r : reports)
    changes += r.changes.size();
  if (o.check && !o.quiet) {
    err << "archfit: " << reports.size() << (reports.size() == 1 ? " lock file" : " lock files")
        << " checked, " << changes << (changes == 1 ? " difference" : " differences") << '\n';
  }
  // The images of the others are locked; those of what could not be read are
  // not, and that is never a pass.
  if (faults > 0) {
    err << "archfit: " << faults << (faults == 1 ? " document or file" : " documents or files")
        << " could not be read (above); their images are not in a lock\n";
    return app::kChangesOrFindings;
  }
  return o.check && changes > 0 ? app::kChangesOrFindings : app::kOk;
}

}  // namespace archfit::surface::command_line
