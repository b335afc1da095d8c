#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <archfit/app/messages.hpp>
#include <archfit/app/session.hpp>
#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/untrusted.hpp>
#include <archfit/image/platform_set.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/run/documents.hpp>
#include <archfit/run/wants.hpp>
#include <archfit/surface/command_line/lock.hpp>

namespace archfit::surface::command_line {

namespace {

std::string shown(std::string_view text) {
  return for_terminal(Untrusted(text));
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

void write_lock(const std::filesystem::path& path, const cache::LockFile& lock, bool quiet,
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

}  // namespace

app::ExitCode lock(const LockRequest& o, std::ostream& err) {
  if (!o.set.empty()) return lock_set(o, err);
  app::Request request;
  request.paths = o.paths;
  request.use_lock = false;
  request.flags = o.flags;
  request.verbose = o.verbose;
  app::Session session(std::move(request), err);
  const config::LoadedConfig& loaded = session.loaded();
  run::WantCollector collector(loaded.resolve);
  std::size_t faults = run::for_each_document(
      session.inputs(),
      [&](const manifest::InputFile& input, const yaml::Tree& tree) {
        collector.add_secrets(tree, input.name);
        for (const manifest::Workload& w : manifest::discover(tree, loaded.config.kinds)) {
          for (const manifest::PodTemplate& t : w.templates)
            collector.add_template(t);
        }
      },
      err);
  for (const std::string& warning : collector.warnings())
    err << shown(warning) << '\n';
  std::vector<resolve::Want> wants = collector.wants();
  session.resolver().resolve_all(wants, session.progress());
  if (o.verbose) app::print_resolution_summary(err, session.resolver().stats());

  cache::LockFile lock;
  std::size_t failed = 0;
  for (const resolve::Want& want : wants) {
    const resolve::Resolution* r = session.resolver().find(want.ref);
    if (r == nullptr || !r->ok) {
      err << "archfit: " << shown(want.ref.canonical()) << ": "
          << shown(r != nullptr ? r->cause(want.ref) : std::string_view("not resolved")) << '\n';
      ++failed;
      continue;
    }
    lock.set(want.ref, cache::LockEntry{r->digest, r->platforms});
  }
  const std::filesystem::path& path = loaded.lock_file;
  if (failed > 0) {
    err << "archfit: " << failed << " of " << wants.size() << " images could not be resolved; "
        << shown(path.string()) << " was not written\n";
    return app::kUnresolved;
  }
  write_lock(path, lock, o.quiet, "", err);
  // The images of the others are locked; those of what could not be read are
  // not, and that is never a pass.
  if (faults > 0) {
    err << "archfit: " << faults << (faults == 1 ? " document or file" : " documents or files")
        << " could not be read (above); their images are not in " << shown(path.string()) << '\n';
    return app::kChangesOrFindings;
  }
  return app::kOk;
}

}  // namespace archfit::surface::command_line
