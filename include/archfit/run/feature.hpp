// Features: what plugs into a run beside placement (node pools, weighted and
// topology spread). The run hands each document to every feature at fixed
// points and names none of them; front ends choose the features a run has.
//
//   gather    once, when every file has been read and before any document is
//             analysed: facts over all inputs (the node pools of the stream,
//             the PodDistributors, the autoscaled Deployments)
//   rewrite   a file's text before it is analysed (a Deployment split into
//             one per node group); the run reports the whole file as changed
//   own       a document that is the feature's own (a NodePool): its
//             findings and new text, and placement does not see it
//   pass      the feature's part in one document with workloads: what it
//             contributes to each template's context before placement plans
//             it, what it checks in each plan, and its own analysis after
//
// Documents are analysed on several threads at once: everything but gather
// must leave the feature as it is; a pass belongs to one document.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/base/work_budget.hpp>
#include <archfit/findings/finding.hpp>
#include <archfit/manifest/workload.hpp>
#include <archfit/placement/plan.hpp>
#include <archfit/run/document_edits.hpp>
#include <archfit/run/run.hpp>
#include <archfit/yaml/node.hpp>

namespace archfit::run {

// What a run knows when features gather: every file as read, the settings
// (RunInput::setting indexes them), the task, whether documents may be
// split (RunOptions::split), and the run's budget for work that grows as a
// product of its inputs (it lives as long as the run).
struct Facts {
  const std::vector<FileResult>& files;
  const std::vector<Setting>& settings;
  Task task;
  bool split;
  WorkBudget& budget;
};

// Any document with content, before placement sees it.
struct DocumentScope {
  const std::string& file;  // as reports name it
  std::uint32_t document;   // its index in the file
  std::string_view text;
  std::uint32_t first_line;
  const yaml::Tree& tree;
  std::size_t setting;
};

// A document a feature answers for whole.
struct OwnDocument {
  std::vector<findings::Finding> findings;
  std::optional<std::string> text;  // its new text, when fix changes it
};

// A feature's part in one document with workloads.
class DocumentPass {
 public:
  virtual ~DocumentPass() = default;
  // Before the template of `w` is planned: what the feature adds to its
  // context. The context may point into the pass, which outlives the plan.
  virtual void prepare(const manifest::Workload& w, placement::TemplateContext& where) {
    static_cast<void>(w), static_cast<void>(where);
  }
  // After a template is planned: findings about its plan.
  virtual void check(const PlannedTemplate& t, std::vector<findings::Finding>& out) const {
    static_cast<void>(t), static_cast<void>(out);
  }
  // After every template of the document is planned.
  virtual void analyze(const DocumentView& doc, std::vector<findings::Finding>& out) const {
    static_cast<void>(doc), static_cast<void>(out);
  }
};

class Feature {
 public:
  virtual ~Feature() = default;
  virtual void gather(const Facts& facts) { static_cast<void>(facts); }
  // The file's new text, or nullopt to leave it.
  virtual std::optional<std::string> rewrite(const FileResult& file) const {
    static_cast<void>(file);
    return std::nullopt;
  }
  // The document's outcome when it is the feature's own; nullopt otherwise.
  // Throws Error(Input) for a document of its own it cannot read.
  virtual std::optional<OwnDocument> own(const DocumentScope& doc) const {
    static_cast<void>(doc);
    return std::nullopt;
  }
  // Its pass over a document with workloads; nullptr when it has nothing to
  // do there.
  virtual std::unique_ptr<DocumentPass> pass(const DocumentView& doc) const {
    static_cast<void>(doc);
    return nullptr;
  }
};

}  // namespace archfit::run
