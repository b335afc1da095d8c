// `archfit images`: its flags (surface/command_line/images.hpp does the work).
#include <iostream>
#include <memory>

#include <archfit/surface/command_line/images.hpp>

#include "cli/commands.hpp"

namespace archfit::cli {

void add_images_command(CLI::App& app, RunState& state) {
  auto options = std::make_shared<surface::command_line::ImagesRequest>();
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
    state.exit_code = surface::command_line::images(*options, app::standard_output(), std::cerr);
  });
}

}  // namespace archfit::cli
