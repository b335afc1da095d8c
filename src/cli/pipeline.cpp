#include "cli/pipeline.hpp"

#include <algorithm>
#include <deque>
#include <exception>
#include <memory>
#include <thread>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/parallel_for.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/manifest/pull_secrets.hpp>
#include <archfit/placement/plan.hpp>
#include <archfit/report/report.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

#include "cli/document_edits.hpp"
#include "cli/wants.hpp"

namespace archfit::cli {

namespace {

std::string join_path(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + "." + b;
}

enum class Outcome { Unchanged, Changed, Deferred };

// What one document yields. Documents are analysed concurrently, each into
// its own Work, and merged into the run in their order.
struct Work {
  Outcome outcome = Outcome::Unchanged;
  std::string edited;
  std::vector<placement::Finding> findings;
  std::size_t workloads = 0;
  std::size_t templates = 0;
  bool unresolved_failure = false;
  std::vector<manifest::PullSecret> secrets;  // first pass only
  std::vector<WantCollector::Use> uses;       // images only a registry can answer
  std::exception_ptr error;
};

// A document of a file and what became of it.
struct Piece {
  yaml::DocumentText doc;
  std::uint32_t index = 0;
  Work work;
};

// Documents analysed together: enough to keep every thread busy, few enough
// that what they yield before it is merged stays small.
constexpr std::size_t kWindow = 512;

unsigned worker_count() {
  unsigned n = std::thread::hardware_concurrency();
  return std::clamp(n, 1u, 8u);
}

// Runs the documents of every file through discovery, placement and editing.
//
// Images answered by the lock file or the cache are looked up as documents
// come; a document with an image that only a registry can answer is set
// aside. When every file has been read, those images are resolved together,
// concurrently, and the set-aside documents are parsed and planned again. A
// run whose images are all local so parses each document once.
class Pipeline {
 public:
  Pipeline(const placement::Config& config, resolve::Resolver& resolver, Task task,
           const RunOptions& options, RunResult& run)
      : config_(config),
        resolver_(resolver),
        task_(task),
        options_(options),
        run_(run),
        wants_(config.resolve),
        workers_(worker_count()) {}

  void first_pass(FileResult& file) {
    FileWork& fw = files_.emplace_back();
    std::vector<yaml::DocumentText> docs = yaml::split_stream(file.original);
    fw.pieces.resize(docs.size());
    for (std::size_t i = 0; i < docs.size(); ++i) {
      fw.pieces[i].doc = docs[i];
      fw.pieces[i].index = static_cast<std::uint32_t>(i);
    }
    std::vector<yaml::DocumentText>().swap(docs);
    // Output is assembled in document order: up to the first document set
    // aside now, the rest after the second pass.
    fw.first_deferred = fw.pieces.size();
    for (std::size_t start = 0; start < fw.pieces.size(); start += kWindow) {
      std::size_t n = std::min(kWindow, fw.pieces.size() - start);
      parallel_for(n, workers_, [&](std::size_t i) { analyze(file, fw.pieces[start + i], true); });
      for (std::size_t i = start; i < start + n; ++i) {
        Piece& piece = fw.pieces[i];
        merge(file, piece);
        if (piece.work.outcome == Outcome::Deferred && fw.first_deferred == fw.pieces.size()) {
          fw.first_deferred = i;
        }
        if (fw.first_deferred == fw.pieces.size()) append(file, piece);
      }
    }
  }

  void second_pass() {
    for (const std::string& w : wants_.warnings())
      run_.warnings.push_back(w);
    if (!wants_.empty()) resolver_.resolve_all(wants_.wants(), options_.progress);
    for (std::size_t f = 0; f < run_.files.size(); ++f) {
      FileResult& file = run_.files[f];
      FileWork& fw = files_[f];
      std::vector<Piece*> deferred;
      for (std::size_t i = fw.first_deferred; i < fw.pieces.size(); ++i) {
        if (fw.pieces[i].work.outcome == Outcome::Deferred) deferred.push_back(&fw.pieces[i]);
      }
      parallel_for(deferred.size(), workers_,
                   [&](std::size_t i) { analyze(file, *deferred[i], false); });
      for (Piece* piece : deferred)
        merge(file, *piece);
      for (std::size_t i = fw.first_deferred; i < fw.pieces.size(); ++i)
        append(file, fw.pieces[i]);
      fw.pieces.clear();
    }
  }

 private:
  // Folds a document's work into the run, in document order. The first
  // error of a file is the one reported.
  void merge(const FileResult& file, Piece& piece) {
    Work& w = piece.work;
    if (w.error) std::rethrow_exception(w.error);
    run_.workloads += w.workloads;
    run_.templates += w.templates;
    run_.unresolved_failure = run_.unresolved_failure || w.unresolved_failure;
    if (!w.secrets.empty()) wants_.add_secrets(w.secrets, file.input.name);
    for (WantCollector::Use& use : w.uses)
      wants_.add_use(std::move(use));
    for (placement::Finding& f : w.findings)
      run_.findings.push_back(std::move(f));
    w.secrets.clear();
    w.uses.clear();
    w.findings.clear();
    w.findings.shrink_to_fit();
  }

  static void append(FileResult& file, Piece& piece) {
    if (piece.work.outcome != Outcome::Changed) return;
    file.edits.replace(piece.doc.offset, piece.doc.text.size(), std::move(piece.work.edited));
  }

  void analyze(const FileResult& file, Piece& piece, bool first) noexcept {
    Work& w = piece.work;
    w = Work();
    try {
      try {
        w.outcome = process_document(file, piece, first);
        // fix and --remove report only what is left for a person to do.
        if (task_ != Task::Lint) {
          std::erase_if(w.findings, [](const placement::Finding& f) {
            return f.fixable || f.severity < placement::Severity::Warning;
          });
        }
      } catch (const Error& e) {
        throw e.where().file.empty() ? e.in_file(file.input.name) : e;
      }
    } catch (...) {
      w.error = std::current_exception();
    }
  }

  // Looks up every image of the workloads from the lock file and the cache;
  // false when some image needs the registry (its uses are recorded then).
  bool look_up_locally(const std::vector<manifest::Workload>& workloads, Work& work) {
    bool all = true;
    for (const manifest::Workload& w : workloads) {
      for (const manifest::PodTemplate& t : w.templates) {
        for (const manifest::Container& c : t.containers) {
          if (c.image_ref.empty() || c.pull_policy == "Never") continue;
          const std::optional<image::Reference>& ref = c.reference;
          if (!ref) continue;
          if (resolver_.resolve_local(*ref, tag_ttl(config_.resolve, c.pull_policy)) == nullptr) {
            work.uses.push_back(wants_.use_of(t, *ref, c.pull_policy));
            all = false;
          }
        }
      }
    }
    return all;
  }

  Outcome process_document(const FileResult& file, Piece& piece, bool first) {
    const yaml::DocumentText& doc = piece.doc;
    Work& work = piece.work;
    if (!doc.has_content) return Outcome::Unchanged;
    yaml::Tree tree = yaml::parse_document(doc.text, doc.first_line);
    if (first) work.secrets = manifest::find_pull_secrets(tree);
    std::vector<manifest::Workload> workloads = manifest::discover(tree, config_.kinds);
    if (workloads.empty()) return Outcome::Unchanged;
    if (first && !look_up_locally(workloads, work)) return Outcome::Deferred;

    placement::Lookup lookup = [this](const image::Reference& ref) {
      // Everything was looked up above or resolved since; an image that was
      // not (it cannot happen) gets the resolver's local answer.
      const resolve::Resolution* r = resolver_.find(ref);
      return r != nullptr ? r : resolver_.resolve_local(ref);
    };
    placement::Action action =
        task_ == Task::Remove ? placement::Action::Remove : placement::Action::Fix;
    std::vector<PlannedTemplate> planned;
    // For each planned template: where its findings are in work.findings.
    std::vector<std::pair<std::size_t, std::size_t>> finding_ranges;
    std::size_t index = 0;
    for (const manifest::Workload& w : workloads) {
      ++work.workloads;
      for (const manifest::PodTemplate& t : w.templates) {
        ++work.templates;
        placement::TemplateContext where{&w, &t, file.input.name, piece.index, quiet()};
        PlannedTemplate& p = planned.emplace_back();
        p.plan = placement::plan_template(where, config_, lookup, action);
        p.where = std::move(where);
        p.path = join_path(w.path, t.path);
        p.index = index++;
        std::size_t begin = work.findings.size();
        for (placement::Finding& f : p.plan.findings) {
          if (f.rule == "unresolved-image" && f.severity == placement::Severity::Error) {
            work.unresolved_failure = true;
          }
          work.findings.push_back(std::move(f));
        }
        p.plan.findings.clear();
        finding_ranges.emplace_back(begin, work.findings.size());
      }
    }
    EditOutcome outcome =
        apply_plans(tree, doc.first_line, planned, config_.kinds, task_ == Task::Lint);
    std::size_t removed = 0;  // findings taken out before the next range
    for (const auto& [i, reason] : outcome.left_alone) {
      auto [begin, end] = finding_ranges[i];
      removed += report_uneditable(planned[i].where, planned[i].path, reason,
                                   {begin - removed, end - removed}, lookup, action, work.findings);
    }
    if (!outcome.changed || task_ == Task::Lint || outcome.text == doc.text) {
      return Outcome::Unchanged;
    }
    work.edited = std::move(outcome.text);
    return Outcome::Changed;
  }

  // fix plans quietly (see TemplateContext::quiet).
  bool quiet() const { return task_ != Task::Lint; }

  // A template archfit leaves as it is: what it would have fixed is left to
  // a person, who is told why, and all of it (fix planned it quietly, so it
  // is planned again for every finding).
  // Returns how many findings it took out of the range (to be planned again).
  std::size_t report_uneditable(placement::TemplateContext where, const std::string& path,
                                const std::string& reason,
                                std::pair<std::size_t, std::size_t> range,
                                const placement::Lookup& lookup, placement::Action action,
                                std::vector<placement::Finding>& findings) const {
    auto first = findings.begin() + static_cast<std::ptrdiff_t>(range.first);
    auto last = findings.begin() + static_cast<std::ptrdiff_t>(range.second);
    std::size_t removed = 0;
    if (where.quiet) {
      removed = range.second - range.first;
      findings.erase(first, last);
      where.quiet = false;
      for (placement::Finding& f :
           placement::plan_template(where, config_, lookup, action).findings) {
        f.fixable = false;
        findings.push_back(std::move(f));
      }
    } else {
      for (auto f = first; f != last; ++f)
        f->fixable = false;
    }
    placement::Finding f;
    f.rule = "uneditable-yaml";
    f.severity = placement::Severity::Error;
    f.message =
        "archfit leaves this pod template as it is: " + reason + "; make the change by hand";
    f.file = where.file;
    f.document = where.document;
    f.line = where.pod_template->node.line();
    f.column = where.pod_template->node.column();
    const manifest::Workload& w = *where.workload;
    f.resource = placement::ResourceRef{w.api_version, w.kind, w.name, w.namespace_name};
    f.field_path = path;
    findings.push_back(std::move(f));
    return removed;
  }

  const placement::Config& config_;
  resolve::Resolver& resolver_;
  Task task_;
  const RunOptions& options_;
  RunResult& run_;
  WantCollector wants_;
  unsigned workers_;
  // What the documents of a file yielded; output is assembled up to the
  // first document set aside for the registry.
  struct FileWork {
    std::vector<Piece> pieces;
    std::size_t first_deferred = 0;
  };
  std::deque<FileWork> files_;
};

}  // namespace

RunResult run_pipeline(const std::vector<manifest::InputFile>& inputs,
                       const placement::Config& config, resolve::Resolver& resolver, Task task,
                       const RunOptions& options) {
  RunResult run;
  run.files.reserve(inputs.size());  // pieces point into the files' text
  Pipeline pipeline(config, resolver, task, options, run);
  for (const manifest::InputFile& input : inputs) {
    FileResult& file = run.files.emplace_back();
    file.input = input;
    file.original = input.is_stdin ? read_stdin() : read_file(input.path, &file.identity);
    try {
      yaml::check_encoding(file.original);
    } catch (const Error& e) {
      throw e.in_file(input.name);
    }
    pipeline.first_pass(file);
  }
  pipeline.second_pass();
  report::sort_findings(run.findings);
  return run;
}

}  // namespace archfit::cli
