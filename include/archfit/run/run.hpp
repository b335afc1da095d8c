// The engine every front end shares (lint, fix, and the render-pipeline
// surfaces): inputs -> documents -> analyzers -> findings and edits, in the
// shape of kyaml's Pipeline{Inputs, Filters, Outputs}.
//
//   inputs     files, standard input, or text held in memory (the items of a
//              ResourceList, tests)
//   analyzers  placement for every document with workloads, and the features
//              given in RunOptions (node pools, spread: feature.hpp), which the
//              loop calls at fixed points without naming them
//   outputs    findings handed to a RunSink as each document is final, and each
//              file's edited documents in its FileResult
//
// Nothing is written here and nothing printed: front ends decide what to do
// with the results.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <archfit/base/file.hpp>
#include <archfit/base/splices.hpp>
#include <archfit/findings/finding.hpp>
#include <archfit/manifest/inputs.hpp>
#include <archfit/manifest/workload.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/report/report.hpp>
#include <archfit/resolve/resolver.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::run {

enum class Task { Lint, Fix, Remove };

// One input: where it is, and its text when that is held in memory (then
// nothing is read).
struct Input {
  manifest::InputFile file;
  std::optional<std::string> text;
  std::size_t setting = 0;  // which Setting of the run applies (see run_pipeline)

  static Input in_memory(std::string name, std::string text);
};
std::vector<Input> inputs_of(const std::vector<manifest::InputFile>& files);

// A document with workloads, as a feature's pass sees it (feature.hpp).
struct DocumentView {
  const std::string& file;  // as reports name it
  std::uint32_t document;   // its index in the file
  const yaml::Tree& tree;
  const std::vector<manifest::Workload>& workloads;
  std::size_t setting = 0;  // the Setting its file is analysed with
  std::string_view text;    // the document's text
};

class Feature;

struct FileResult {
  manifest::InputFile input;
  std::size_t setting = 0;  // the Setting it was analysed with
  std::string original;
  FileIdentity identity;  // of the file when it was read (not for stdin)
  Splices edits;          // the documents that changed, with their new text
  // Documents with content, and how many of them are Kubernetes objects (a
  // file with documents but no objects is not a manifest: front ends say so).
  std::size_t documents = 0;
  std::size_t objects = 0;
  // Reading it stopped at a fault (a YAML syntax error, bytes that are not
  // text, a file that cannot be opened), reported as `unreadable-file`: it has
  // no edits.
  bool stopped = false;

  bool changed() const { return !edits.empty(); }
  // The new content, in pieces or whole.
  std::vector<std::string_view> output_parts() const { return edits.parts(original); }
  std::string output() const { return edits.apply(original); }
};

struct RunResult {
  std::vector<FileResult> files;     // by name: the order findings are reported in
  report::Counts counts;             // of every finding reported
  std::size_t unfixable_errors = 0;  // findings of severity error that fix does not fix
  // Documents and files archfit could not read (`invalid-document`,
  // `unreadable-file`): never a pass, whatever --fail-on says.
  std::size_t faults = 0;
  std::size_t workloads = 0;
  std::size_t templates = 0;
  // An image could not be resolved and resolve.onUnresolved is fail.
  bool unresolved_failure = false;
  std::vector<std::string> warnings;  // for stderr: pull secrets archfit could not read
};

struct RunOptions {
  resolve::ProgressOptions progress;
  // fix reports only what is left for a person to do, unless it reports
  // everything lint would (fix --check --format).
  bool report_everything = false;
  // What plugs in beside placement (node pools, spread), in the order they
  // gather and see each document (feature.hpp). They are the run's while it
  // lasts: gather keeps what it learns until the next run.
  std::vector<Feature*> features;
  // fix may split a Deployment into one per node group (weighted spread),
  // which adds documents; not where each document must stay one (the items
  // of a ResourceList).
  bool split = true;
};

// A finding that says a document or file could not be read (`invalid-document`,
// `unreadable-file`).
bool is_fault(const findings::Finding& f);

// Whether a list document whose items can stand alone is read item by item
// (the default) or whole. A seam for tests: what both give must agree.
void read_lists_by_items(bool on);

// Receives what each document yields once it is final, in report order:
// files by name, then documents; a document's workloads, then its findings by
// line, column and rule. The run keeps none of them, so that its memory
// follows its input, not the number of findings.
struct RunSink {
  std::function<void(findings::Finding&&)> finding;           // the sink may keep it
  std::function<void(const report::WorkloadSeen&)> workload;  // may be empty
};

// A configuration and the resolver that answers for its lock file: files of a
// monorepo can each use their nearest configuration.
struct Setting {
  const placement::Config* config;
  resolve::Resolver* resolver;
};

// A fault in the input is a finding, not an error: `invalid-document` when
// it is confined to a document (which is left as it is), `unreadable-file`
// when reading the file cannot go on (FileResult::stopped). The other
// documents and files are processed as usual (docs/rules.md: invalid-document, unreadable-file).
// Throws only for what fails the whole run: a bug, or a setting that names no input. The inputs are
// taken by value: an in-memory text moves into its FileResult instead of being copied (a
// ResourceList of 100 MiB is held once).
RunResult run_pipeline(std::vector<Input> inputs, const std::vector<Setting>& settings, Task task,
                       const RunSink& sink, const RunOptions& options = {});
// The same with one setting for every input.
RunResult run_pipeline(std::vector<Input> inputs, const placement::Config& config,
                       resolve::Resolver& resolver, Task task, const RunSink& sink,
                       const RunOptions& options = {});

}  // namespace archfit::run
