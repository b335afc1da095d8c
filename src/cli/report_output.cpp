#include "cli/report_output.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/file.hpp>
#include <archfit/base/parallel_for.hpp>
#include <archfit/base/text.hpp>

namespace archfit::cli {

void add_report_flags(CLI::App* cmd, ReportFlags& flags) {
  std::string names;
  for (const std::string& n : report::format_names())
    names += (names.empty() ? "" : ", ") + n;
  cmd->add_option("--format", flags.format, "Report format: " + names + " (default: text)")
      ->check(CLI::IsMember(report::format_names()));
  cmd->add_option("-o,--output", flags.output, "Write the report to FILE instead of stdout");
  cmd->add_option("--report", flags.reports,
                  "A report in FORMAT, to PATH or (without =PATH, or with =-) stdout; give it "
                  "once per report to write several from one run, e.g. --report sarif=a.sarif "
                  "--report github")
      ->type_name("FORMAT[=PATH]")
      ->allow_extra_args(false);
  cmd->add_option("--category", flags.category,
                  "SARIF: the run's category (automationDetails.id), one per analysis of the "
                  "same commit, e.g. the environment");
  cmd->add_option("--source-root", flags.source_root,
                  "For helm-rendered input: the directory holding the charts, so that findings "
                  "point at DIR/<chart>/templates/<file> (from `# Source:` lines or helm 4's "
                  "postrender-filename annotation)");
}

namespace {

ReportTarget parse_target(const std::string& text) {
  const std::size_t eq = text.find('=');
  const std::string name = text.substr(0, eq);
  ReportTarget t;
  try {
    t.format = report::parse_format(name);
  } catch (const Error& e) {
    fail(ErrorKind::Usage, "--report " + archfit::quoted(text) + ": " + e.message());
  }
  if (eq != std::string::npos) t.path = text.substr(eq + 1);
  if (t.path == "-") t.path.clear();
  if (eq != std::string::npos && t.path.empty() && text.size() == eq + 1) {
    fail(ErrorKind::Usage, "--report " + archfit::quoted(text) +
                               ": no file after '='; give FORMAT=PATH, or FORMAT alone for stdout");
  }
  return t;
}

}  // namespace

std::vector<ReportTarget> report_targets(const ReportFlags& flags) {
  if (flags.reports.empty()) {
    ReportTarget t;
    if (!flags.format.empty()) t.format = report::parse_format(flags.format);
    t.path = flags.output;
    return {t};
  }
  if (!flags.format.empty() || !flags.output.empty()) {
    fail(ErrorKind::Usage,
         "--report cannot be combined with --format or -o; give each report as --report "
         "FORMAT[=PATH]");
  }
  std::vector<ReportTarget> out;
  std::set<std::string> files;
  bool to_stdout = false;
  for (const std::string& text : flags.reports) {
    ReportTarget t = parse_target(text);
    if (t.path.empty()) {
      if (to_stdout) {
        fail(ErrorKind::Usage, "--report " + archfit::quoted(text) +
                                   ": another report already goes to stdout; give this one "
                                   "a file, as FORMAT=PATH");
      }
      to_stdout = true;
    } else if (!files.insert(std::filesystem::path(t.path).lexically_normal().string()).second) {
      fail(ErrorKind::Usage, "--report " + archfit::quoted(text) +
                                 ": another report already goes to " + archfit::quoted(t.path));
    }
    out.push_back(std::move(t));
  }
  return out;
}

// One report's thread and the batches waiting for it. A failure stops the
// report (later batches are passed over, so the run never waits on it) and is
// thrown to the run by the next hand-over, or by close().
class ReportOutput::Lane {
 public:
  explicit Lane(report::Writer& writer) : writer_(writer), thread_([this] { run(); }) {}
  ~Lane() { stop(); }
  Lane(const Lane&) = delete;
  Lane& operator=(const Lane&) = delete;

  void push(std::shared_ptr<const Batch> batch) {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [this] { return queue_.size() < kWaiting; });
    queue_.push_back(std::move(batch));
    ready_.notify_one();
  }

  void rethrow_failure() const {
    if (failed_.load(std::memory_order_acquire)) std::rethrow_exception(failure_);
  }

  // Waits until every batch pushed is written; throws what stopped the report.
  void close() {
    stop();
    rethrow_failure();
  }

 private:
  // Batches waiting, at most: what the reports may lag behind the run.
  static constexpr std::size_t kWaiting = 4;

  void stop() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    ready_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

  void run() {
    for (;;) {
      std::shared_ptr<const Batch> batch;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [this] { return !queue_.empty() || closed_; });
        if (queue_.empty()) return;
        batch = std::move(queue_.front());
        queue_.pop_front();
      }
      room_.notify_one();
      if (failed_.load(std::memory_order_relaxed)) continue;
      try {
        for (const Event& e : *batch)
          write(e);
      } catch (...) {
        failure_ = std::current_exception();
        failed_.store(true, std::memory_order_release);
      }
    }
  }

  void write(const Event& e) {
    if (const auto* f = std::get_if<findings::Finding>(&e)) {
      writer_.add(*f);
    } else if (const auto* w = std::get_if<report::WorkloadSeen>(&e)) {
      writer_.add_workload(*w);
    } else {
      writer_.add_diff(std::get<Diff>(e).text);
    }
  }

  report::Writer& writer_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::condition_variable room_;
  std::deque<std::shared_ptr<const Batch>> queue_;
  bool closed_ = false;
  std::exception_ptr failure_;
  std::atomic<bool> failed_{false};
  std::thread thread_;  // last: it starts once the rest is made
};

ReportOutput::ReportOutput(const ReportFlags& flags, findings::Severity shown) {
  report::WriterOptions options;
  options.shown = shown;
  options.category = flags.category;
  options.source_root = flags.source_root;
  options.tool_version = ARCHFIT_VERSION;
  for (ReportTarget& t : report_targets(flags)) {
    auto r = std::make_unique<Report>();
    r->target = std::move(t);
    std::ostream* out = nullptr;
    if (r->target.path.empty()) {
      r->spool = std::make_unique<Spool>();
      out = &r->spool->out();
    } else {
      r->file = std::make_unique<StreamedWrite>(r->target.path);
      out = &r->file->out();
    }
    r->writer = report::make_writer(r->target.format, *out, options);
    reports_.push_back(std::move(r));
  }
  if (reports_.size() > 1) {
    for (auto& r : reports_)
      r->lane = std::make_unique<Lane>(*r->writer);
  }
}

ReportOutput::~ReportOutput() = default;

namespace {

// Events held before they go to the reports' threads: enough that handing
// them over costs little beside writing them, few enough to hold no memory.
constexpr std::size_t kBatch = 512;

}  // namespace

template <class F>
void ReportOutput::each_report(F&& f) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::exception_ptr failure;
  std::mutex failure_mutex;
  parallel_for(reports_.size(), threads, [&](std::size_t i) {
    try {
      f(*reports_[i]);
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  });
  if (failure) std::rethrow_exception(failure);
}

void ReportOutput::hold(Event event) {
  held_.push_back(std::move(event));
  if (held_.size() >= kBatch) hand_over();
}

void ReportOutput::hand_over() {
  if (held_.empty()) return;
  auto batch = std::make_shared<const Batch>(std::move(held_));
  held_.clear();
  held_.reserve(kBatch);
  for (const auto& r : reports_) {
    r->lane->rethrow_failure();
    r->lane->push(batch);
  }
}

run::RunSink ReportOutput::sink() {
  run::RunSink sink;
  if (reports_.size() == 1) {
    report::Writer* only = reports_.front()->writer.get();
    sink.finding = [only](const findings::Finding& f) { only->add(f); };
    if (reports_.front()->target.format == report::Format::Junit) {
      sink.workload = [only](const report::WorkloadSeen& w) { only->add_workload(w); };
    }
    return sink;
  }
  sink.finding = [this](findings::Finding&& f) { hold(std::move(f)); };
  const bool junit = std::any_of(reports_.begin(), reports_.end(), [](const auto& r) {
    return r->target.format == report::Format::Junit;
  });
  if (junit) sink.workload = [this](const report::WorkloadSeen& w) { hold(w); };
  return sink;
}

bool ReportOutput::shows_diffs() const {
  return std::any_of(reports_.begin(), reports_.end(),
                     [](const auto& r) { return r->target.format == report::Format::Markdown; });
}

void ReportOutput::add_diff(std::string_view diff) {
  if (!shows_diffs()) return;
  if (reports_.size() == 1) {
    reports_.front()->writer->add_diff(diff);
    return;
  }
  // In order, after what the run reported before it.
  hold(Diff{std::string(diff)});
}

void ReportOutput::write(const report::Summary& summary) {
  if (reports_.size() > 1) {
    hand_over();
    for (const auto& r : reports_)
      r->lane->close();
  }
  // Files first: stdout is often a pipe that a reader closes early. Every
  // file is complete before any is put in place: all of them, or none.
  each_report([&summary](Report& r) {
    r.writer->finish(summary);
    if (r.file) r.file->finish();
  });
  for (const auto& r : reports_) {
    if (r->file) r->file->commit();
  }
  for (const auto& r : reports_) {
    if (r->spool) write_stdout(r->spool->content());
  }
}

}  // namespace archfit::cli
