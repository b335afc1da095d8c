// readiness, text: a line per platform, then under it the images that keep
// workloads off it, the workloads their own constraints keep off it, and what
// rebuilding the first blockers would free.
#include "report/readiness_writers.hpp"

namespace archfit::report::detail {

namespace {

void files_of(TerminalText& out, const Blocker& b) {
  out << Words(" (");
  for (std::size_t i = 0; i < b.files.size() && i < kShownFiles; ++i)
    out << (i == 0 ? Words("") : Words(", ")) << Untrusted(b.files[i]);
  if (b.files.size() > kShownFiles) {
    out << Words(" and ") << Count{b.files.size() - kShownFiles, "more file"};
  }
  out << Words(")");
}

}  // namespace

void readiness_text(const Readiness& r, std::ostream& stream) {
  TerminalOut out(stream);
  TerminalText head;
  head << Words("archfit readiness: ") << Count{r.workloads, "workload"} << Words(", ")
       << Count{r.replicas, "replica"};
  if (r.unknown > 0) {
    head << Words(" (") << r.unknown
         << Words(" not counted: an image not resolved, or placement archfit cannot read)");
  }
  out << head << Words("\n");
  for (const PlatformReadiness& p : r.platforms) {
    TerminalText line;
    line << Untrusted(p.platform) << Words(": ") << p.runnable << Words(" of ")
         << Count{p.workloads, "workload"} << Words(", ") << p.runnable_replicas << Words(" of ")
         << Count{p.replicas, "replica"} << Words(" can run\n");
    for (std::size_t i = 0; i < p.blockers.size() && i < kShownBlockers; ++i) {
      const Blocker& b = p.blockers[i];
      line << Words("  ") << Untrusted(b.image) << Words(" has no ") << Untrusted(p.platform)
           << Words(" build: it keeps ") << Count{b.workloads, "workload"} << Words(", ")
           << Count{b.replicas, "replica"} << Words(" off");
      files_of(line, b);
      line << Words("\n");
    }
    if (p.blockers.size() > kShownBlockers) {
      line << Words("  and ") << Count{p.blockers.size() - kShownBlockers, "more image"}
           << Words("\n");
    }
    for (std::size_t i = 0; i < p.pinned.size() && i < kShownPinned; ++i) {
      const ReadinessWorkload& w = p.pinned[i];
      line << Words("  ") << Untrusted(w.file) << Words(": ");
      append_resource(line, w.resource);
      line << Words(" could run here, but its own constraints keep it off\n");
    }
    if (p.pinned.size() > kShownPinned) {
      line << Words("  and ") << Count{p.pinned.size() - kShownPinned, "more workload"}
           << Words(" kept off by their own constraints\n");
    }
    for (const Freed& f : p.freed) {
      line << Words("  rebuilding the top ");
      if (f.images == 1) {
        line << Words("blocker");
      } else {
        line << Count{f.images, "blocker"};
      }
      line << Words(" for ") << Untrusted(p.platform) << Words(" lets ")
           << Count{f.workloads, "more workload"} << Words(" (") << Count{f.replicas, "replica"}
           << Words(") run there\n");
    }
    out << line;
  }
}

}  // namespace archfit::report::detail
