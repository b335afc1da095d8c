// The work of `fix` and `lint` over a set of input files: read, split, parse,
// find workloads, plan every pod template, and (for fix) edit the documents
// that need it. Nothing is written here; the commands decide what to do with
// the results.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <archfit/base/file.hpp>
#include <archfit/base/splices.hpp>
#include <archfit/manifest/inputs.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/placement/finding.hpp>
#include <archfit/report/report.hpp>
#include <archfit/resolve/resolver.hpp>

namespace archfit::cli {

enum class Task { Lint, Fix, Remove };

struct FileResult {
  manifest::InputFile input;
  std::string original;
  FileIdentity identity;  // of the file when it was read (not for stdin)
  Splices edits;          // the documents that changed, with their new text

  bool changed() const { return !edits.empty(); }
  // The new content, in pieces or whole.
  std::vector<std::string_view> output_parts() const { return edits.parts(original); }
  std::string output() const { return edits.apply(original); }
};

struct RunResult {
  std::vector<FileResult> files;     // by name: the order findings are reported in
  report::Counts counts;             // of every finding reported
  std::size_t unfixable_errors = 0;  // findings of severity error that fix does not fix
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
};

// Receives what each document yields once it is final, in report order:
// files by name, then documents; a document's workloads, then its findings by
// line, column and rule. The run keeps none of them, so that its memory
// follows its input, not the number of findings.
struct RunSink {
  std::function<void(const placement::Finding&)> finding;
  std::function<void(const report::WorkloadSeen&)> workload;  // may be empty
};

// Throws Error(Input) with file:line:col for unreadable or invalid input.
RunResult run_pipeline(const std::vector<manifest::InputFile>& inputs,
                       const placement::Config& config, resolve::Resolver& resolver, Task task,
                       const RunSink& sink, const RunOptions& options = {});

}  // namespace archfit::cli
