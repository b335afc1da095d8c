// `archfit lock [PATH...]`: resolve every image of the manifests again and
// write the lock file, so that later runs (CI, pre-commit) need no network.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/run/documents.hpp>
#include <archfit/run/wants.hpp>

#include "cli/commands.hpp"
#include "cli/run_setup.hpp"

namespace archfit::cli {

namespace {

struct LockOptions {
  std::vector<std::string> paths;
  CommonFlags common;
  bool verbose = false;
  bool quiet = false;
};

int run_lock(const LockOptions& o) {
  RunSetup setup =
      prepare_run(o.paths, o.common,
                  SetupOptions{.read_inputs = true, .use_lock = false, .verbose = o.verbose});
  run::WantCollector collector(setup.loaded.resolve);
  run::for_each_document(
      setup.inputs, [&](const manifest::InputFile& input, const yaml::Tree& tree) {
        collector.add_secrets(tree, input.name);
        for (const manifest::Workload& w : manifest::discover(tree, setup.loaded.config.kinds)) {
          for (const manifest::PodTemplate& t : w.templates)
            collector.add_template(t);
        }
      });
  for (const std::string& warning : collector.warnings())
    std::cerr << warning << '\n';
  std::vector<resolve::Want> wants = collector.wants();
  setup.resolver->resolve_all(wants, setup.run_options.progress);
  if (o.verbose) print_resolution_summary(std::cerr, setup.resolver->stats());

  cache::LockFile lock;
  std::size_t failed = 0;
  for (const resolve::Want& want : wants) {
    const resolve::Resolution* r = setup.resolver->find(want.ref);
    if (r == nullptr || !r->ok) {
      std::cerr << "archfit: " << want.ref.canonical() << ": "
                << (r != nullptr ? r->cause(want.ref) : std::string_view("not resolved")) << '\n';
      ++failed;
      continue;
    }
    lock.set(want.ref, cache::LockEntry{r->digest, r->platforms});
  }
  const std::filesystem::path& path = setup.loaded.lock_file;
  if (failed > 0) {
    std::cerr << "archfit: " << failed << " of " << wants.size()
              << " images could not be resolved; " << path.string() << " was not written\n";
    return kUnresolved;
  }
  std::string text = lock.serialize();
  bool same = false;
  std::error_code ec;
  if (std::filesystem::exists(path, ec))
    same = read_file(path, ReadLimit{kMaxLockBytes, "a lock file"}) == text;
  if (!same) write_atomically(path, text);
  if (!o.quiet) {
    std::cerr << (same ? "unchanged " : "wrote ") << path.string() << ": " << lock.size()
              << (lock.size() == 1 ? " image\n" : " images\n");
  }
  return kOk;
}

}  // namespace

void add_lock_command(CLI::App& app, RunState& state) {
  auto o = std::make_shared<LockOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lock",
      "Resolve every image in the manifests and write the lock file (archfit.lock) for offline "
      "runs");
  cmd->add_option("paths", o->paths,
                  "Files or directories (searched for *.yaml, *.yml); '-' or none: stdin");
  cmd->add_flag("-q,--quiet", o->quiet, "Print only errors");
  cmd->add_flag("-v,--verbose", o->verbose,
                "Log registry requests and print how images were resolved");
  add_common_flags(cmd, o->common);
  add_input_flags(cmd, o->common);
  cmd->callback([o, &state] {
    require_files_after_separator(state);
    state.exit_code = run_lock(*o);
  });
}

}  // namespace archfit::cli
