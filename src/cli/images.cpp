// `archfit images`: every container image of every pod template, where it is
// written and under which canonical name archfit looks it up (the lock file's
// key). Shows what archfit reads before it resolves anything.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/image/reference.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/manifest/inputs.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

#include "cli/commands.hpp"

namespace archfit::cli {

namespace {

struct ImagesOptions {
  std::vector<std::string> paths;
};

void run_images(const ImagesOptions& options) {
  auto kinds = manifest::KindTable::defaults();
  for (const manifest::InputFile& input : manifest::collect_inputs(options.paths)) {
    std::string data = input.is_stdin ? read_stdin() : read_file(input.path);
    for (const yaml::DocumentText& doc : yaml::split_stream(data)) {
      std::unique_ptr<yaml::Tree> tree;
      try {
        tree = std::make_unique<yaml::Tree>(yaml::parse_document(doc.text, doc.first_line));
      } catch (const Error& e) {
        throw e.in_file(input.name);
      }
      for (const manifest::Workload& w : manifest::discover(*tree, kinds)) {
        for (const manifest::PodTemplate& t : w.templates) {
          for (const manifest::Container& c : t.containers) {
            if (!c.image) continue;
            std::string why;
            auto ref = image::Reference::try_parse(c.image_ref, &why);
            std::cout << input.name << ':' << c.image.line() << ':' << c.image.column() << ": "
                      << (ref ? ref->canonical() : why) << "  (" << w.kind << ' ' << w.name
                      << ", container " << c.name << ")\n";
          }
        }
      }
    }
  }
}

}  // namespace

void add_images_command(CLI::App& app, RunState& /*state*/) {
  auto options = std::make_shared<ImagesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "images", "List the image of every container with its location and canonical name");
  cmd->add_option("paths", options->paths,
                  "Files or directories (searched for *.yaml, *.yml); '-' or none: stdin");
  cmd->callback([options] { run_images(*options); });
}

}  // namespace archfit::cli
