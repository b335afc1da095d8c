// `archfit images`: every container image of every pod template, where it is
// written and under which canonical name archfit looks it up (the lock file's
// key). Shows what archfit reads before it resolves anything.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <archfit/cache/lock_file.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/manifest/inputs.hpp>
#include <archfit/run/documents.hpp>

#include "cli/commands.hpp"
#include "cli/shown.hpp"

namespace archfit::cli {

namespace {

struct ImagesOptions {
  std::vector<std::string> paths;
  std::string format = "text";
};

int run_images(const ImagesOptions& options) {
  auto kinds = manifest::KindTable::defaults();
  auto inputs = manifest::collect_inputs(options.paths).files;
  const bool lock = options.format == "lock";
  std::vector<std::string> canonical;
  std::size_t faults = run::for_each_document(
      inputs,
      [&](const manifest::InputFile& input, const yaml::Tree& tree) {
        for (const manifest::Workload& w : manifest::discover(tree, kinds)) {
          for (const manifest::PodTemplate& t : w.templates) {
            for (const manifest::Container& c : t.containers) {
              if (!c.image) continue;
              if (lock) {
                if (c.reference) canonical.push_back(c.reference->canonical());
                continue;
              }
              std::cout << shown(input.name) << ':' << c.image.line() << ':' << c.image.column()
                        << ": " << shown(c.reference ? c.reference->canonical() : c.reference_error)
                        << "  (" << shown(w.kind) << ' ' << shown(w.name) << ", container "
                        << shown(c.name) << ")\n";
            }
          }
        }
      },
      std::cerr);
  if (lock) std::cout << cache::LockFile::skeleton(canonical);
  return faults > 0 ? kChangesOrFindings : kOk;
}

}  // namespace

void add_images_command(CLI::App& app, RunState& state) {
  auto options = std::make_shared<ImagesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "images", "List the image of every container with its location and canonical name");
  cmd->add_option("paths", options->paths,
                  "Files or directories (searched for *.yaml, *.yml); '-' or none: stdin");
  cmd->add_option("--format", options->format,
                  "text: one line per container; lock: a lock file to fill in, every image with "
                  "empty platforms (or use archfit lock --set IMAGE=PLATFORMS)")
      ->check(CLI::IsMember({"text", "lock"}))
      ->capture_default_str();
  cmd->callback([options, &state] {
    require_files_after_separator(state);
    state.exit_code = run_images(*options);
  });
}

}  // namespace archfit::cli
