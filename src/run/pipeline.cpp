#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/threads.hpp>
#include <archfit/edit/layout.hpp>
#include <archfit/manifest/discover.hpp>
#include <archfit/manifest/inputs.hpp>
#include <archfit/manifest/pull_secrets.hpp>
#include <archfit/manifest/source.hpp>
#include <archfit/placement/plan.hpp>
#include <archfit/report/report.hpp>
#include <archfit/run/document_edits.hpp>
#include <archfit/run/feature.hpp>
#include <archfit/run/image_answer.hpp>
#include <archfit/run/item_stream.hpp>
#include <archfit/run/run.hpp>
#include <archfit/run/wants.hpp>
#include <archfit/yaml/list_items.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/path.hpp>
#include <archfit/yaml/stream.hpp>

#include "run/helper_threads.hpp"

namespace archfit::run {

namespace {

std::atomic<bool> lists_by_items{true};

enum class Outcome { Unchanged, Changed, Deferred };

// What one document yields. Documents are analysed concurrently, each into
// its own Work, and merged into the run in their order.
struct Work {
  Outcome outcome = Outcome::Unchanged;
  // When Changed: the new text as replacements of the document's ranges,
  // else whole.
  std::optional<Splices> replacements;
  std::string edited;
  std::vector<findings::Finding> findings;
  std::vector<report::WorkloadSeen> seen;  // when the sink wants workloads
  std::size_t workloads = 0;
  std::size_t templates = 0;
  bool counted = false;  // a document with content, first pass only
  bool object = false;   // ... that is a Kubernetes object
  bool unresolved_failure = false;
  std::vector<manifest::PullSecret> secrets;  // first pass only
  std::vector<WantCollector::Use> uses;       // images only a registry can answer
  std::optional<findings::Finding> stop;      // what stops reading the file here
  std::exception_ptr error;                   // a bug or a setting: fails the run
};

// A document that is a Kubernetes list, read as the stream of its items
// (docs/architecture.md, "Lists"): each item is a piece of its own, and its
// edits go back into the list's text in its place.
struct ListExpansion {
  yaml::DocumentText doc;  // the list, in the file
  std::uint32_t index = 0;
  std::vector<yaml::ListItem> found;
  edit::Layout layout;  // the whole list's: what text added to an item looks like
  ItemStream items;
  std::string source;    // the list's `# Source:` comment
  std::size_t next = 0;  // the item to hand out next
};

// A document of a file and what became of it.
struct Piece {
  yaml::DocumentText doc;
  std::uint32_t index = 0;
  // An item of a list: which, and of which list (index is the list's).
  const ListExpansion* list = nullptr;
  std::uint32_t item = 0;
  Work work;
  // The document parsed ahead of its analysis (see parse_ahead), or what
  // parsing it threw.
  std::optional<yaml::Tree> tree;
  std::exception_ptr unparsed;
};

// How much of a document is analysed: all of it, or (while the run waits for
// the registry) only which images it needs.
enum class Mode { Full, CollectImages };

// Documents analysed together: enough to keep every thread busy, few enough
// that what they yield before it is merged stays small. The run holds two
// windows, one being merged while the next is analysed, so a window ends at
// 512 documents or once it holds 256 KiB of text, whichever comes first
// (a document with thousands of containers yields thousands of findings and
// images to resolve; the 870-byte documents of a rendered chart fill 512).
constexpr std::size_t kWindow = 512;
constexpr std::size_t kWindowBytes = std::size_t{256} << 10;

// The most documents a thread takes from a window at once. It parses them
// all, then analyses them one by one: libyaml's code and the analysis's each
// stay in the processor's caches across a run of documents, rather than
// pushing each other out at every document (fix of the bench stream about 4%
// faster than a document at a time; bench/JOURNAL.md). A thread takes a
// share of what is left, (left / (2 x threads)) clamped to [1, kChunk], so
// that the last documents of a window are still shared out one by one.
constexpr std::size_t kChunk = 32;

// The object a document that archfit refuses is about, as far as it can
// tell: the document read as it is (a repeated key's last value wins).
findings::ResourceRef object_of(const yaml::DocumentText& doc) {
  try {
    yaml::Limits as_is;
    as_is.reject_duplicate_keys = false;
    yaml::Tree tree = yaml::parse_document(doc.text, doc.first_line, as_is);
    yaml::NodeRef root = tree.root().resolved();
    auto text = [](yaml::NodeRef n) {
      n = n.resolved();
      return n.is_scalar() ? std::string(n.scalar()) : std::string();
    };
    yaml::NodeRef metadata = root.get("metadata").resolved();
    return findings::ResourceRef{text(root.get("apiVersion")), text(root.get("kind")),
                                 text(metadata.get("name")), text(metadata.get("namespace"))};
  } catch (const Error&) {
    return {};
  }
}

// An error finding for a fault in the input: `unreadable-file` stops its
// file, `invalid-document` only its document (docs/rules.md).
findings::Finding fault_finding(std::string_view rule, const std::string& file,
                                std::uint32_t document, const Error& e) {
  return findings::make_finding(
      rule,
      e.message() + (rule == "unreadable-file" ? "; archfit leaves the whole file as it is"
                                               : "; archfit leaves this document as it is"),
      {file, document, e.where().line, e.where().column});
}

unsigned worker_count() {
  return std::min(cores(), 8u);
}

// Where a file's documents set aside begin, and where reading it stopped.
struct Resume {
  bool set_aside = false;
  std::uint32_t offset = 0;
  std::uint32_t first_line = 0;
  std::uint32_t index = 0;
  std::uint32_t item = 0;  // when the document is a list: its first item set aside
  std::uint32_t stop_index = std::numeric_limits<std::uint32_t>::max();
  std::optional<findings::Finding> stop;  // reported after the set-aside documents
};

// Runs the documents of every file through discovery, placement and editing,
// a window of documents at a time, and hands on what each yields in document
// order: findings to the sink, edits to its file.
//
// Images answered by the lock file or the cache are looked up as documents
// come. At the first document with an image only a registry can answer, the
// run sets that document and everything after it aside: from there on, the
// first pass only collects the images they use. When every file has been
// read, those images are resolved together, concurrently, and the second
// pass analyses the documents set aside, from that first one on, in order.
// A run whose images are all local so parses each document once, and no run
// holds more than two windows of documents' results.
class Pipeline {
 public:
  Pipeline(const std::vector<Setting>& settings, Task task, const RunSink& sink,
           const RunOptions& options, RunResult& run)
      : settings_(settings),
        task_(task),
        sink_(sink),
        options_(options),
        run_(run),
        helpers_(worker_count() - 1) {
    wants_.reserve(settings.size());
    for (const Setting& s : settings)
      wants_.emplace_back(s.resolver->settings());
  }

  // `unread`: why the file could not be read at all, if it could not.
  void first_pass(FileResult& file, std::optional<findings::Finding> unread) {
    Resume& resume = resumes_.emplace_back();
    if (waiting_) resume.set_aside = true;
    if (unread) return stop(file, resume, std::move(*unread), 0);
    yaml::StreamSplitter split(file.original);
    std::uint32_t index = 0;
    std::optional<std::pair<findings::Finding, std::uint32_t>> stopped;
    auto merge = [&] {
      for (Piece& piece : window_) {
        if (!collect(file, piece)) {
          stopped.emplace(std::move(*piece.work.stop), piece.index);
          return;
        }
        if (!waiting_ && piece.work.outcome == Outcome::Deferred) {
          waiting_ = true;
          resume.set_aside = true;
          const yaml::DocumentText& at = piece.list != nullptr ? piece.list->doc : piece.doc;
          resume.offset = at.offset;
          resume.first_line = at.first_line;
          resume.index = piece.index;
          resume.item = piece.list != nullptr ? piece.item : 0;
        }
        if (!waiting_) finish(file, piece);
      }
    };
    window_.clear();
    for (;;) {
      fill(split, index, resume.stop_index);
      // Chosen before the window in merge() is merged: a window analysed in
      // full after a document was set aside is only collected from, as the
      // rest of that document's window is.
      const Mode mode = waiting_ ? Mode::CollectImages : Mode::Full;
      overlap(merge, [&](std::size_t i) { analyze(file, next_[i], mode, true); });
      if (stopped) {
        stop(file, resume, std::move(stopped->first), stopped->second);
        break;
      }
      if (next_.empty()) break;
      std::swap(window_, next_);
    }
    window_.clear();
    lists_.clear();
  }

  void second_pass() {
    for (std::size_t i = 0; i < settings_.size(); ++i) {
      WantCollector& wants = wants_[i];
      for (const std::string& w : wants.warnings())
        run_.warnings.push_back(w);
      if (!wants.empty()) settings_[i].resolver->resolve_all(wants.wants(), options_.progress);
      wants.clear();
    }
    for (std::size_t f = 0; f < run_.files.size(); ++f) {
      const Resume& resume = resumes_[f];
      if (!resume.set_aside) continue;
      FileResult& file = run_.files[f];
      yaml::StreamSplitter split(file.original, resume.offset, resume.first_line);
      std::uint32_t index = resume.index;
      skip_items_ = resume.item;
      auto merge = [&] {
        for (Piece& piece : window_) {
          collect(file, piece);
          finish(file, piece);
        }
      };
      window_.clear();
      for (;;) {
        fill(split, index, resume.stop_index);
        overlap(merge, [&](std::size_t i) { analyze(file, next_[i], Mode::Full, false); });
        if (next_.empty()) break;
        std::swap(window_, next_);
      }
      window_.clear();
      lists_.clear();
      // The documents before the fault are reported; the file stays as it is.
      if (resume.stop) {
        report(findings::Finding(*resume.stop));
        file.edits = Splices();
      }
    }
  }

 private:
  // The next window of documents, up to the one at `end`, into next_ (empty
  // at the end). A list's items are documents of the window each.
  void fill(yaml::StreamSplitter& split, std::uint32_t& index, std::uint32_t end) {
    next_.clear();
    std::size_t bytes = 0;
    while (next_.size() < kWindow && bytes < kWindowBytes) {
      if (!lists_.empty() && lists_.back()->next < lists_.back()->found.size()) {
        ListExpansion& list = *lists_.back();
        const std::size_t i = list.next++;
        Piece& piece = next_.emplace_back();
        piece.doc = item_document(list, i);
        piece.index = list.index;
        piece.list = &list;
        piece.item = static_cast<std::uint32_t>(i);
        bytes += piece.doc.text.size();
        continue;
      }
      if (index >= end) break;
      std::optional<yaml::DocumentText> doc = split.next();
      if (!doc) break;
      if (doc->has_content && expand(*doc, index)) {
        ++index;
        continue;
      }
      Piece& piece = next_.emplace_back();
      piece.doc = *doc;
      piece.index = index++;
      bytes += doc->text.size();
    }
  }

  // A list document read as its items, when they can stand alone.
  bool expand(const yaml::DocumentText& doc, std::uint32_t index) {
    if (!lists_by_items.load(std::memory_order_relaxed)) return false;
    std::optional<yaml::ListItems> found = yaml::list_items(doc.text);
    if (!found || found->items.empty()) return false;
    std::optional<ItemStream> items = ItemStream::cut(doc.text, found->items);
    if (!items) return false;
    auto list = std::make_unique<ListExpansion>();
    list->doc = doc;
    list->index = index;
    list->layout = edit::layout_of(found->steps, doc.text, found->json);
    list->found = std::move(found->items);
    list->items = std::move(*items);
    list->source = manifest::source_comment(doc.text);
    list->next = std::min<std::size_t>(std::exchange(skip_items_, 0), list->found.size());
    lists_.push_back(std::move(list));
    return true;
  }

  // Item i of a list as a document: its text as cut out (after its "---"
  // line), at its line in the file.
  static yaml::DocumentText item_document(const ListExpansion& list, std::size_t i) {
    const std::string& stream = list.items.stream();
    std::string_view whole = list.items.document(stream, i);
    yaml::DocumentText d;
    d.text = whole.substr(4);  // "---\n"
    d.offset = static_cast<std::uint32_t>(whole.data() + 4 - stream.data());
    d.first_line = list.doc.first_line + list.found[i].line;
    d.has_content = true;
    return d;
  }

  // Merges the window analysed before (merge(), over window_) while the
  // next one is analysed (analyze_one(i) for each piece of next_, a chunk of
  // pieces at a time, each parsed ahead): the calling thread merges, then
  // helps the others analyse, so that none waits for the merge alone. The
  // merge stays on the calling thread: what it builds up over the run (the
  // images to resolve, the edits) then grows in one thread's memory, not in
  // whichever thread took it. What the merge throws is rethrown once the
  // next window is analysed.
  template <class Merge, class Analyze>
  void overlap(Merge& merge, Analyze&& analyze_one) {
    const std::size_t n = next_.size();
    const std::size_t share = 2 * (helpers_.size() + 1);
    std::atomic<std::size_t> next{0};
    const std::function<void()> work = [&] {
      std::size_t begin = next.load(std::memory_order_relaxed);
      for (;;) {
        std::size_t end;
        do {
          if (begin >= n) return;
          end = begin + std::clamp<std::size_t>((n - begin) / share, 1, kChunk);
        } while (!next.compare_exchange_weak(begin, end, std::memory_order_relaxed));
        for (std::size_t i = begin; i < end; ++i)
          parse_ahead(next_[i]);  // noexcept
        for (std::size_t i = begin; i < end; ++i)
          analyze_one(i);  // noexcept
        begin = next.load(std::memory_order_relaxed);
      }
    };
    std::exception_ptr failure;
    helpers_.start(n, work);
    try {
      merge();
    } catch (...) {
      failure = std::current_exception();
    }
    work();
    helpers_.finish();
    if (failure) std::rethrow_exception(failure);
  }

  // What every document analysed gives the run, final or not: pull secrets
  // and images to resolve. False when reading the file stops there.
  bool collect(FileResult& file, Piece& piece) {
    Work& w = piece.work;
    if (w.error) std::rethrow_exception(w.error);
    if (w.stop) return false;
    if (w.counted) ++file.documents;
    if (w.object) ++file.objects;
    WantCollector& wants = wants_[file.setting];
    if (!w.secrets.empty()) wants.add_secrets(w.secrets, file.input.name);
    for (WantCollector::Use& use : w.uses)
      wants.add_use(std::move(use));
    return true;
  }

  // A file that cannot be read on from document `index`: nothing of it is
  // written. Its finding comes after those of the documents before it, which
  // may still wait for the registry.
  void stop(FileResult& file, Resume& resume, findings::Finding why, std::uint32_t index) {
    file.stopped = true;
    file.edits = Splices();
    resume.stop_index = index;
    if (resume.set_aside) {
      resume.stop = std::move(why);
    } else {
      report(std::move(why));
    }
  }

  // The finding goes to the sink, which may keep it.
  void report(findings::Finding&& f) {
    if (is_fault(f)) ++run_.faults;
    run_.counts.add(f.severity);
    if (!f.fixable && f.severity == findings::Severity::Error) ++run_.unfixable_errors;
    sink_.finding(std::move(f));
  }

  // Folds a final document's work into the run, in document order.
  void finish(FileResult& file, Piece& piece) {
    Work& w = piece.work;
    if (piece.list != nullptr) {
      // A flow item far along its line was cut out without its columns: its
      // findings on that line get them back.
      const yaml::ListItem& found = piece.list->found[piece.item];
      const auto shift =
          static_cast<std::uint32_t>(piece.list->items.item_shift(piece.item, found));
      const std::uint32_t first = piece.doc.first_line + 1;
      for (findings::Finding& f : w.findings) {
        if (shift == 0) break;
        if (f.line == first && f.column != 0) f.column += shift;
        if (f.end_line == first && f.end_column != 0) f.end_column += shift;
      }
    }
    run_.workloads += w.workloads;
    run_.templates += w.templates;
    run_.unresolved_failure = run_.unresolved_failure || w.unresolved_failure;
    for (const report::WorkloadSeen& seen : w.seen)
      sink_.workload(seen);
    report::sort_findings(w.findings);
    for (findings::Finding& f : w.findings)
      report(std::move(f));
    w.findings.clear();
    append(file, piece);
  }

  static void append(FileResult& file, Piece& piece) {
    if (piece.work.outcome != Outcome::Changed) return;
    if (piece.list != nullptr) {
      // The item, as edited, indented back into its place in the list.
      const ListExpansion& list = *piece.list;
      std::string edited = piece.work.replacements ? piece.work.replacements->apply(piece.doc.text)
                                                   : std::move(piece.work.edited);
      std::string text = list.items.item_text(piece.item, list.doc.text, "---\n" + edited);
      const std::size_t begin = list.items.item_begin(piece.item);
      file.edits.keep(list.doc.offset + begin, list.items.item_end(piece.item) - begin,
                      std::move(text));
      return;
    }
    if (piece.work.replacements) {
      file.edits.take(std::move(*piece.work.replacements), piece.doc.offset);
    } else {
      file.edits.keep(piece.doc.offset, piece.doc.text.size(), std::move(piece.work.edited));
    }
  }

  // Parses the piece's document for process_document, keeping what the
  // parse throws for it to rethrow: a document's fault stays its own.
  static void parse_ahead(Piece& piece) noexcept {
    if (!piece.doc.has_content) return;
    try {
      piece.tree.emplace(yaml::parse_document(piece.doc.text, piece.doc.first_line));
    } catch (...) {
      piece.unparsed = std::current_exception();
    }
  }

  void analyze(const FileResult& file, Piece& piece, Mode mode, bool first) noexcept {
    Work& w = piece.work;
    w = Work();
    try {
      try {
        w.outcome = process_document(file, piece, mode, first);
        // fix and --remove report only what is left for a person to do.
        if (task_ != Task::Lint && !options_.report_everything) {
          std::erase_if(w.findings, [](const findings::Finding& f) {
            return f.fixable || f.severity < findings::Severity::Warning;
          });
        }
      } catch (const Error& e) {
        // A fault in the input: the file stops at what cannot be read; what
        // is confined to the document is a finding on it, which is left as
        // it is. Anything else (a bug) fails the run.
        if (e.kind() == ErrorKind::Syntax) {
          w = Work();
          w.stop = fault_finding("unreadable-file", file.input.name, piece.index, e);
        } else if (e.kind() == ErrorKind::Input) {
          w = Work();
          w.counted = w.object = first;
          findings::Finding f = fault_finding("invalid-document", file.input.name, piece.index, e);
          f.resource = object_of(piece.doc);
          w.findings.push_back(std::move(f));
        } else {
          throw e.where().file.empty() ? e.in_file(file.input.name) : e;
        }
      }
    } catch (...) {
      w.error = std::current_exception();
    }
  }

  // Looks up every image of the workloads from the lock file and the cache;
  // false when some image needs the registry (its uses are recorded then).
  bool look_up_locally(const FileResult& file, const std::vector<manifest::Workload>& workloads,
                       Work& work) {
    resolve::Resolver& resolver = *settings_[file.setting].resolver;
    const WantCollector& wants = wants_[file.setting];
    bool all = true;
    for (const manifest::Workload& w : workloads) {
      for (const manifest::PodTemplate& t : w.templates) {
        for (const manifest::Container& c : t.containers) {
          if (c.image_ref.empty() || c.pull_policy == "Never") continue;
          const std::optional<image::Reference>& ref = c.reference;
          if (!ref) continue;
          if (resolver.resolve_local(*ref, tag_ttl(resolver.settings(), c.pull_policy)) ==
              nullptr) {
            work.uses.push_back(wants.use_of(t, *ref, c.pull_policy));
            all = false;
          }
        }
      }
    }
    return all;
  }

  Outcome process_document(const FileResult& file, Piece& piece, Mode mode, bool first) {
    const yaml::DocumentText& doc = piece.doc;
    Work& work = piece.work;
    if (!doc.has_content) return Outcome::Unchanged;
    const placement::Config& config = *settings_[file.setting].config;
    resolve::Resolver& resolver = *settings_[file.setting].resolver;
    if (piece.unparsed) std::rethrow_exception(std::exchange(piece.unparsed, nullptr));
    yaml::Tree tree = std::move(piece.tree).value();
    piece.tree.reset();
    if (first) {
      // A list counts once, as the object it is.
      work.counted = piece.list == nullptr || piece.item == 0;
      work.object = piece.list != nullptr ? piece.item == 0 : manifest::is_object(tree);
      work.secrets = manifest::find_pull_secrets(tree);
    }
    if (mode == Mode::Full && piece.list == nullptr) {
      DocumentScope scope{file.input.name, piece.index, doc.text,
                          doc.first_line,  tree,        file.setting};
      for (const Feature* feature : options_.features) {
        std::optional<OwnDocument> own = feature->own(scope);
        if (!own) continue;
        work.findings = std::move(own->findings);
        if (!own->text || task_ == Task::Lint || *own->text == doc.text) return Outcome::Unchanged;
        work.edited = std::move(*own->text);
        return Outcome::Changed;
      }
    }
    std::vector<manifest::Workload> workloads =
        piece.list != nullptr
            ? manifest::discover_item(tree, config.kinds,
                                      yaml::Path{} / "items" / yaml::PathStep::at(piece.item))
            : manifest::discover(tree, config.kinds);
    if (workloads.empty()) return Outcome::Unchanged;
    if (first && !look_up_locally(file, workloads, work)) return Outcome::Deferred;
    if (mode == Mode::CollectImages) return Outcome::Deferred;

    placement::Lookup lookup = [&resolver, &config](const image::Reference& ref) {
      // Everything was looked up above or resolved since; an image that was
      // not (it cannot happen) gets the resolver's local answer.
      const resolve::Resolution* r = resolver.find(ref);
      return answer_of(ref, r != nullptr ? *r : *resolver.resolve_local(ref), config);
    };
    placement::Action action =
        task_ == Task::Remove ? placement::Action::Remove : placement::Action::Fix;
    const DocumentView view{file.input.name, piece.index, tree, workloads, file.setting, doc.text};
    std::vector<std::unique_ptr<DocumentPass>> passes;
    for (const Feature* feature : options_.features) {
      if (std::unique_ptr<DocumentPass> pass = feature->pass(view))
        passes.push_back(std::move(pass));
    }
    std::vector<PlannedTemplate> planned;
    // For each planned template: where its findings are in work.findings.
    std::vector<std::pair<std::size_t, std::size_t>> finding_ranges;
    std::size_t index = 0;
    const std::string document_source =
        piece.list != nullptr ? piece.list->source : manifest::source_comment(doc.text);
    auto source_of = [&document_source](const manifest::Workload& w) {
      std::string annotated = manifest::source_annotation(w);
      return annotated.empty() ? document_source : annotated;
    };
    for (const manifest::Workload& w : workloads) {
      ++work.workloads;
      if (sink_.workload) {
        work.seen.push_back(report::WorkloadSeen{
            file.input.name, piece.index, w.object.line(),
            findings::ResourceRef{w.api_version, w.kind, w.name, w.namespace_name}});
      }
      for (const manifest::PodTemplate& t : w.templates) {
        ++work.templates;
        placement::TemplateContext where{&w,      &t, file.input.name, piece.index, quiet(),
                                         nullptr, {}};
        for (const std::unique_ptr<DocumentPass>& pass : passes)
          pass->prepare(w, where);
        PlannedTemplate& p = planned.emplace_back();
        p.plan = placement::plan_template(where, config, lookup, action);
        p.where = std::move(where);
        p.path = w.path + t.path;
        if (piece.list != nullptr) p.in_item = w.path.size();
        p.index = index++;
        std::size_t begin = work.findings.size();
        for (findings::Finding& f : p.plan.findings) {
          if (f.rule == "unresolved-image" && f.severity == findings::Severity::Error) {
            work.unresolved_failure = true;
          }
          f.source = source_of(w);
          work.findings.push_back(std::move(f));
        }
        p.plan.findings.clear();
        std::size_t checked = work.findings.size();
        for (const std::unique_ptr<DocumentPass>& pass : passes)
          pass->check(p, work.findings);
        for (std::size_t k = checked; k < work.findings.size(); ++k)
          work.findings[k].source = source_of(w);
        finding_ranges.emplace_back(begin, work.findings.size());
      }
    }
    for (const std::unique_ptr<DocumentPass>& pass : passes) {
      std::size_t begin = work.findings.size();
      pass->analyze(view, work.findings);
      for (std::size_t k = begin; k < work.findings.size(); ++k) {
        findings::Finding& f = work.findings[k];
        if (f.file.empty()) f.file = file.input.name;
        f.document = piece.index;
      }
    }
    EditOutcome outcome =
        apply_plans(tree, doc.first_line, planned, config.kinds, task_ == Task::Lint,
                    piece.list != nullptr ? &piece.list->layout : nullptr);
    std::size_t removed = 0;  // findings taken out before the next range
    for (const auto& [i, reason] : outcome.left_alone) {
      auto [begin, end] = finding_ranges[i];
      std::size_t count = work.findings.size();
      std::size_t taken =
          report_uneditable(config, planned[i].where, planned[i].path, reason,
                            {begin - removed, end - removed}, lookup, action, work.findings);
      removed += taken;
      // What it added goes at the end.
      for (std::size_t k = count - taken; k < work.findings.size(); ++k)
        work.findings[k].source = source_of(*planned[i].where.workload);
    }
    if (!outcome.changed || task_ == Task::Lint || outcome.text == doc.text) {
      return Outcome::Unchanged;
    }
    // The ranges, where known, are all that is kept: a run that changes every
    // document holds little more than its input (bench/JOURNAL.md).
    if (outcome.replacements) {
      work.replacements = std::move(outcome.replacements);
    } else {
      work.edited = std::move(outcome.text);
    }
    return Outcome::Changed;
  }

  // fix plans quietly (see TemplateContext::quiet).
  bool quiet() const { return task_ != Task::Lint && !options_.report_everything; }

  // A template archfit leaves as it is: what it would have fixed is left to
  // a person, who is told why, and all of it (fix planned it quietly, so it
  // is planned again for every finding).
  // Returns how many findings it took out of the range (to be planned again).
  std::size_t report_uneditable(const placement::Config& config, placement::TemplateContext where,
                                const yaml::Path& path, const std::string& reason,
                                std::pair<std::size_t, std::size_t> range,
                                const placement::Lookup& lookup, placement::Action action,
                                std::vector<findings::Finding>& findings) const {
    auto first = findings.begin() + static_cast<std::ptrdiff_t>(range.first);
    auto last = findings.begin() + static_cast<std::ptrdiff_t>(range.second);
    std::size_t removed = 0;
    if (where.quiet) {
      removed = range.second - range.first;
      findings.erase(first, last);
      where.quiet = false;
      for (findings::Finding& f :
           placement::plan_template(where, config, lookup, action).findings) {
        if (f.fixable) findings::leave_to_a_person(f);
        findings.push_back(std::move(f));
      }
    } else {
      for (auto f = first; f != last; ++f) {
        if (f->fixable) findings::leave_to_a_person(*f);
      }
    }
    const manifest::Workload& w = *where.workload;
    findings::Finding f = findings::make_finding(
        "uneditable-yaml",
        "archfit leaves this pod template as it is: " + reason + "; make the change by hand",
        {where.file, where.document, where.pod_template->node.line(),
         where.pod_template->node.column()},
        {w.api_version, w.kind, w.name, w.namespace_name});
    f.field_path = path;
    findings.push_back(std::move(f));
    return removed;
  }

  const std::vector<Setting>& settings_;
  Task task_;
  const RunSink& sink_;
  const RunOptions& options_;
  RunResult& run_;
  std::vector<WantCollector> wants_;  // one per setting
  HelperThreads helpers_;             // analyse beside the calling thread
  bool waiting_ = false;              // a document was set aside for the registry
  std::vector<Resume> resumes_;       // one per file
  std::vector<Piece> window_;         // analysed, to be merged
  std::vector<Piece> next_;           // being analysed
  // The lists of the file being read, as their items (pieces point here).
  std::vector<std::unique_ptr<ListExpansion>> lists_;
  std::uint32_t skip_items_ = 0;  // of the next list: items done before it was set aside
};

}  // namespace

void read_lists_by_items(bool on) {
  lists_by_items.store(on, std::memory_order_relaxed);
}

bool is_fault(const findings::Finding& f) {
  return f.rule == "invalid-document" || f.rule == "unreadable-file";
}

Input Input::in_memory(std::string name, std::string text) {
  Input input;
  input.file.name = std::move(name);
  input.text = std::move(text);
  return input;
}

std::vector<Input> inputs_of(const std::vector<manifest::InputFile>& files) {
  std::vector<Input> out;
  out.reserve(files.size());
  for (const manifest::InputFile& f : files)
    out.push_back(Input{f, std::nullopt});
  return out;
}

RunResult run_pipeline(std::vector<Input> inputs, const placement::Config& config,
                       resolve::Resolver& resolver, Task task, const RunSink& sink,
                       const RunOptions& options) {
  return run_pipeline(std::move(inputs), {Setting{&config, &resolver}}, task, sink, options);
}

RunResult run_pipeline(std::vector<Input> inputs, const std::vector<Setting>& settings, Task task,
                       const RunSink& sink, const RunOptions& options) {
  for (const Input& input : inputs) {
    if (input.setting >= settings.size()) {
      fail(ErrorKind::Internal, "input " + input.file.name + " names setting " +
                                    std::to_string(input.setting) + " of " +
                                    std::to_string(settings.size()));
    }
  }
  // Files in the order of their names, which is the order of the report.
  std::vector<Input*> ordered;
  for (Input& input : inputs)
    ordered.push_back(&input);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const Input* a, const Input* b) { return a->file.name < b->file.name; });
  RunResult run;
  run.files.reserve(inputs.size());  // pieces point into the files' text
  // Why a file could not be read, for each that could not: it is reported,
  // and the others go on.
  std::vector<std::optional<findings::Finding>> unread(inputs.size());
  for (Input* input : ordered) {
    FileResult& file = run.files.emplace_back();
    file.input = input->file;
    file.setting = input->setting;
    try {
      if (!input->text) {
        file.original = manifest::read_input(input->file, &file.identity);
        continue;
      }
      file.original = std::move(*input->text);
      input->text.reset();
      yaml::check_encoding(file.original);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::Input && e.kind() != ErrorKind::Syntax) throw;
      // A text held in memory stays: front ends give it back as it came.
      unread[run.files.size() - 1] = fault_finding("unreadable-file", file.input.name, 0, e);
    }
  }
  // Every file is read before any is analysed: a node pool, a PodDistributor
  // or an autoscaler may come after the workloads it is about.
  std::uint64_t bytes = 0;
  for (const FileResult& file : run.files)
    bytes += file.original.size();
  WorkBudget budget = WorkBudget::for_input(bytes);
  const Facts facts{run.files, settings, task, options.split, budget};
  for (Feature* feature : options.features)
    feature->gather(facts);
  // Features may rewrite a file before anything else (a split Deployment);
  // the run then places the pieces as any other Deployments.
  std::vector<std::optional<std::string>> unsplit(run.files.size());
  for (std::size_t i = 0; i < run.files.size(); ++i) {
    FileResult& file = run.files[i];
    for (const Feature* feature : options.features) {
      std::optional<std::string> text = feature->rewrite(file);
      if (!text) continue;
      if (!unsplit[i]) unsplit[i] = std::move(file.original);
      file.original = std::move(*text);
    }
  }
  Pipeline pipeline(settings, task, sink, options, run);
  for (std::size_t i = 0; i < run.files.size(); ++i)
    pipeline.first_pass(run.files[i], std::move(unread[i]));
  pipeline.second_pass();
  // A file that was rewritten is one change of the whole file; one that
  // could not be read to its end is not changed at all.
  for (std::size_t i = 0; i < run.files.size(); ++i) {
    if (!unsplit[i]) continue;
    FileResult& file = run.files[i];
    std::string output = file.output();
    file.original = std::move(*unsplit[i]);
    file.edits = Splices();
    if (!file.stopped) file.edits.keep(0, file.original.size(), std::move(output));
  }
  return run;
}

}  // namespace archfit::run
