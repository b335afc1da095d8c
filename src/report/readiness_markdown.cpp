// readiness, Markdown: for a job summary or a pull request. A table of the
// platforms, then for each platform something keeps workloads off, its
// blockers, what rebuilding them frees, and the workloads their own
// constraints pin. Every cell from input is text (for_markdown).
#include "report/readiness_writers.hpp"

namespace archfit::report::detail {

void readiness_markdown(const Readiness& r, std::ostream& stream) {
  MarkdownOut out(stream);
  MarkdownText text;
  text << Words("## archfit readiness\n\n") << Count{r.workloads, "workload"} << Words(", ")
       << Count{r.replicas, "replica"} << Words(".");
  if (r.unknown > 0) {
    text << Words(" ") << Count{r.unknown, "workload"}
         << Words(" not counted: an image archfit could not resolve, or placement it cannot read.");
  }
  text << Words(
      "\n\n| platform | workloads that can run | replicas that can run |\n"
      "|---|---:|---:|\n");
  for (const PlatformReadiness& p : r.platforms) {
    text << Words("| ") << Untrusted(p.platform) << Words(" | ") << p.runnable << Words(" of ")
         << p.workloads << Words(" (") << percent(p.runnable, p.workloads) << Words("%) | ")
         << p.runnable_replicas << Words(" of ") << p.replicas << Words(" (")
         << percent(p.runnable_replicas, p.replicas) << Words("%) |\n");
  }
  for (const PlatformReadiness& p : r.platforms) {
    if (p.blockers.empty() && p.pinned.empty()) continue;
    text << Words("\n### ") << Untrusted(p.platform) << Words("\n");
    if (!p.blockers.empty()) {
      text << Words(
          "\n| image without a build for it | workloads | replicas | used in |\n"
          "|---|---:|---:|---|\n");
      for (std::size_t i = 0; i < p.blockers.size() && i < kShownBlockers; ++i) {
        const Blocker& b = p.blockers[i];
        text << Words("| ") << Untrusted(b.image) << Words(" | ") << b.workloads << Words(" | ")
             << b.replicas << Words(" | ");
        for (std::size_t k = 0; k < b.files.size() && k < kShownFiles; ++k)
          text << (k == 0 ? Words("") : Words(", ")) << Untrusted(b.files[k]);
        if (b.files.size() > kShownFiles)
          text << Words(" and ") << Count{b.files.size() - kShownFiles, "more file"};
        text << Words(" |\n");
      }
      if (p.blockers.size() > kShownBlockers) {
        text << Words("\nAnd ") << Count{p.blockers.size() - kShownBlockers, "more image"}
             << Words(".\n");
      }
      text << Words("\n");
      for (const Freed& f : p.freed) {
        text << Words("- Rebuilding the top ");
        if (f.images == 1) {
          text << Words("image");
        } else {
          text << Count{f.images, "image"};
        }
        text << Words(" above lets ") << Count{f.workloads, "more workload"} << Words(" (")
             << Count{f.replicas, "replica"} << Words(") run here.\n");
      }
    }
    if (!p.pinned.empty()) {
      text << Words("\nTheir images run here, but their own constraints keep them off:\n\n");
      for (std::size_t i = 0; i < p.pinned.size() && i < kShownPinned; ++i) {
        text << Words("- ") << Untrusted(p.pinned[i].file) << Words(": ");
        append_resource(text, p.pinned[i].resource);
        text << Words("\n");
      }
      if (p.pinned.size() > kShownPinned)
        text << Words("- and ") << Count{p.pinned.size() - kShownPinned, "more workload"}
             << Words("\n");
    }
  }
  out << text;
}

}  // namespace archfit::report::detail
