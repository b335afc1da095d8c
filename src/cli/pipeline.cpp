#include "cli/pipeline.hpp"

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/edit/document.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/placement/plan.hpp>
#include <archfit/report/report.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

#include <memory>

namespace archfit::cli {

namespace {

std::string join_path(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + "." + b;
}

class FileProcessor {
 public:
  FileProcessor(const placement::Config& config, resolve::Resolver& resolver, Task task,
                RunResult& run)
      : config_(config), resolver_(resolver), task_(task), run_(run) {}

  void process(FileResult& file) {
    std::uint32_t index = 0;
    for (const yaml::DocumentText& doc : yaml::split_stream(file.original)) {
      std::string edited;
      if (process_document(file, doc, index++, edited)) {
        file.output += edited;
        file.changed = true;
      } else {
        file.output.append(doc.text);
      }
    }
    if (!file.changed) file.output.clear();
  }

 private:
  // True, with the new text in `edited`, when the document changes.
  bool process_document(const FileResult& file, const yaml::DocumentText& doc,
                        std::uint32_t index, std::string& edited) {
    if (!doc.has_content) return false;
    std::unique_ptr<yaml::Tree> tree;
    try {
      tree = std::make_unique<yaml::Tree>(yaml::parse_document(doc.text, doc.first_line));
    } catch (const Error& e) {
      throw e.in_file(file.input.name);
    }
    std::vector<manifest::Workload> workloads = manifest::discover(*tree, config_.kinds);
    if (workloads.empty()) return false;

    placement::Lookup lookup = [this](const image::Reference& ref) {
      return resolver_.resolve_local(ref);
    };
    placement::Action action =
        task_ == Task::Remove ? placement::Action::Remove : placement::Action::Fix;
    std::vector<edit::TemplateEdit> edits;
    // For each edit: where its template's findings start and end in run_.findings.
    std::vector<std::pair<std::size_t, std::size_t>> finding_ranges;
    std::vector<const manifest::PodTemplate*> edited_templates;
    for (const manifest::Workload& w : workloads) {
      ++run_.workloads;
      for (const manifest::PodTemplate& t : w.templates) {
        ++run_.templates;
        placement::TemplateContext where{&w, &t, file.input.name, index};
        placement::TemplatePlan plan = placement::plan_template(where, config_, lookup, action);
        std::size_t first = run_.findings.size();
        for (placement::Finding& f : plan.findings) {
          if (f.rule == "unresolved-image" && f.severity == placement::Severity::Error) {
            run_.unresolved_failure = true;
          }
          run_.findings.push_back(std::move(f));
        }
        if (plan.changes.empty()) continue;
        edits.push_back(
            edit::TemplateEdit{t.node, join_path(w.path, t.path), std::move(plan.changes)});
        finding_ranges.emplace_back(first, run_.findings.size());
        edited_templates.push_back(&t);
      }
    }
    if (edits.empty()) return false;

    edit::DocumentResult result;
    try {
      result = edit::edit_document(*tree, doc.first_line, edits, task_ == Task::Lint);
    } catch (const Error& e) {
      throw e.in_file(file.input.name);
    }
    for (const auto& [i, reason] : result.uneditable) {
      for (std::size_t f = finding_ranges[i].first; f < finding_ranges[i].second; ++f) {
        run_.findings[f].fixable = false;
      }
      const placement::Finding* any =
          finding_ranges[i].first < finding_ranges[i].second
              ? &run_.findings[finding_ranges[i].first]
              : nullptr;
      placement::Finding f;
      f.rule = "uneditable-yaml";
      f.severity = placement::Severity::Error;
      f.message = "archfit cannot change this pod template without changing another part of "
                  "the document: " +
                  reason + "; make the change by hand";
      f.file = file.input.name;
      f.document = index;
      f.line = edited_templates[i]->node.line();
      f.column = edited_templates[i]->node.column();
      if (any != nullptr) f.resource = any->resource;
      f.field_path = edits[i].path;
      run_.findings.push_back(std::move(f));
    }
    if (!result.changed) return false;
    edited = std::move(result.text);
    return true;
  }

  const placement::Config& config_;
  resolve::Resolver& resolver_;
  Task task_;
  RunResult& run_;
};

}  // namespace

RunResult run_pipeline(const std::vector<manifest::InputFile>& inputs,
                       const placement::Config& config, resolve::Resolver& resolver, Task task) {
  RunResult run;
  run.files.reserve(inputs.size());
  FileProcessor processor(config, resolver, task, run);
  for (const manifest::InputFile& input : inputs) {
    FileResult& file = run.files.emplace_back();
    file.input = input;
    file.original = input.is_stdin ? read_stdin() : read_file(input.path);
    processor.process(file);
  }
  report::sort_findings(run.findings);
  return run;
}

}  // namespace archfit::cli
