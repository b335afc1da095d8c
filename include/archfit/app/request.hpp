// What a surface asks of a session: the inputs, how configuration and lock
// files are found, and what the run does. Each surface turns its envelope
// (argv, a ResourceList, a helm stream, an Argo CD source) into one Request.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <archfit/config/loader.hpp>
#include <archfit/run/run.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::app {

// A stream held in memory, read as a file of that name: a helm render, the
// items of a ResourceList, standard input read by the surface.
struct Stream {
  std::string name = "<stdin>";
  std::string text;
  // As standard input is: its configuration and lock file are looked for in
  // --stdin-dir (or the working directory), and fix prints it.
  bool is_stdin = true;
};

// Standard input, read as a manifest stream is (capped, text checked;
// manifest::read_input), as the Stream of a session. `what` names it in
// errors ("a ResourceList").
Stream read_standard_input(std::string_view what = "a manifest stream");

struct Request {
  // Files and directories ("-" is standard input); none with `stream` or
  // when read_inputs is false. No PATH and no stream: standard input.
  std::vector<std::string> paths;
  std::optional<Stream> stream;
  // `archfit resolve` and `lock --set` take images, not manifests.
  bool read_inputs = true;

  // Flags, and the environment the ARCHFIT_* variables come from.
  config::CommonFlags flags;
  config::Environment env = config::process_environment();
  // A KRM functionConfig, read instead of a configuration file.
  yaml::NodeRef function_config = {};
  // Each input uses the nearest configuration and lock file above it (lint,
  // fix); otherwise the first input's applies to all. --config and
  // ARCHFIT_CONFIG apply to all either way.
  bool config_per_file = false;
  // `archfit lock` asks again instead of reading the old lock.
  bool use_lock = true;
  // The session runs where nobody reads warnings ("post-render", "a KRM
  // function"): an unresolved image then fails it (config::ConfigRequest).
  std::string unattended = {};
  // Log every registry request, and say which configuration each input uses.
  bool verbose = false;

  // What the run does with the documents.
  run::Task task = run::Task::Lint;
  // fix hears of every finding, those it fixes too (fix --check --format, krm).
  bool report_everything = false;
  // fix may split a Deployment into one per node group; not where each
  // document must stay one (the items of a ResourceList).
  bool split = true;
  // Count the readiness report (report/readiness.hpp) while the run goes:
  // Outcome::readiness.
  bool readiness = false;
};

}  // namespace archfit::app
