// readiness, HTML: one self-contained page, readable offline. Its style is
// inline and its charts are inline SVG (the platforms' coverage, each
// platform's top blockers); it loads nothing (a Content-Security-Policy that
// allows no source says so to the browser) and runs no script. Every value
// from input is HTML text (for_html), in elements and attributes alike. The
// counts carry classes and data-platform / data-image attributes so that a
// program reading the page finds the numbers the JSON gives.
#include <algorithm>

#include "report/readiness_writers.hpp"

namespace archfit::report::detail {

namespace {

constexpr unsigned kLabel = 200;  // width of a chart's labels
constexpr unsigned kBar = 420;    // width of a full bar
constexpr unsigned kRow = 26;     // height of a chart's row

unsigned scaled(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return 0;
  return static_cast<unsigned>(part * kBar / whole);
}

void coverage_chart(HtmlText& h, const Readiness& r) {
  const unsigned height = static_cast<unsigned>(r.platforms.size()) * kRow + 8;
  h << Words("<svg class=\"chart\" id=\"coverage\" role=\"img\" width=\"") << (kLabel + kBar + 120)
    << Words("\" height=\"") << height
    << Words("\" aria-label=\"workloads that can run on each platform\">\n");
  unsigned y = 4;
  for (const PlatformReadiness& p : r.platforms) {
    const unsigned w = scaled(p.runnable, p.workloads);
    h << Words("<text x=\"0\" y=\"") << (y + 17) << Words("\">") << Untrusted(p.platform)
      << Words("</text><rect class=\"all\" x=\"") << kLabel << Words("\" y=\"") << y
      << Words("\" width=\"") << kBar << Words("\" height=\"20\"/><rect class=\"ok\" x=\"")
      << kLabel << Words("\" y=\"") << y << Words("\" width=\"") << w
      << Words("\" height=\"20\"/><text x=\"") << (kLabel + kBar + 8) << Words("\" y=\"")
      << (y + 17) << Words("\">") << percent(p.runnable, p.workloads) << Words("%</text>\n");
    y += kRow;
  }
  h << Words("</svg>\n");
}

void blockers_chart(HtmlText& h, const PlatformReadiness& p) {
  const std::size_t shown = std::min(p.blockers.size(), kShownBlockers);
  const std::size_t most = p.blockers.front().workloads;
  // Image names are long: each above its bar.
  constexpr unsigned kTall = 40;
  h << Words("<svg class=\"chart blockers-chart\" role=\"img\" width=\"") << (kLabel + kBar + 120)
    << Words("\" height=\"") << (shown * kTall + 8)
    << Words("\" aria-label=\"workloads each image keeps off this platform\">\n");
  unsigned y = 4;
  for (std::size_t i = 0; i < shown; ++i) {
    const Blocker& b = p.blockers[i];
    const unsigned w = std::max(2u, scaled(b.workloads, most) * (kLabel + kBar) / kBar);
    h << Words("<text x=\"0\" y=\"") << (y + 13) << Words("\">") << Untrusted(b.image)
      << Words("</text><rect class=\"block\" x=\"0\" y=\"") << (y + 18) << Words("\" width=\"") << w
      << Words("\" height=\"16\"/><text x=\"") << (w + 8) << Words("\" y=\"") << (y + 31)
      << Words("\">") << b.workloads << Words("</text>\n");
    y += kTall;
  }
  h << Words("</svg>\n");
}

void platform_section(HtmlText& h, const PlatformReadiness& p) {
  h << Words("<section class=\"platform\" data-platform=\"") << Untrusted(p.platform)
    << Words("\">\n<h2>") << Untrusted(p.platform) << Words("</h2>\n");
  if (!p.blockers.empty()) {
    h << Words("<h3>Images without a build for it</h3>\n");
    blockers_chart(h, p);
    h << Words(
        "<table class=\"blockers\">\n<tr><th>image</th><th>workloads</th><th>replicas</th>"
        "<th>used in</th></tr>\n");
    for (const Blocker& b : p.blockers) {
      h << Words("<tr data-image=\"") << Untrusted(b.image) << Words("\"><td class=\"image\">")
        << Untrusted(b.image) << Words("</td><td class=\"workloads\">") << b.workloads
        << Words("</td><td class=\"replicas\">") << b.replicas << Words("</td><td>");
      for (std::size_t k = 0; k < b.files.size() && k < kShownFiles; ++k)
        h << (k == 0 ? Words("") : Words(", ")) << Untrusted(b.files[k]);
      if (b.files.size() > kShownFiles)
        h << Words(" and ") << Count{b.files.size() - kShownFiles, "more file"};
      h << Words("</td></tr>\n");
    }
    h << Words("</table>\n");
    if (!p.freed.empty()) {
      h << Words("<ul class=\"freed\">\n");
      for (const Freed& f : p.freed) {
        h << Words("<li data-images=\"") << f.images << Words("\">Rebuilding the top ");
        if (f.images == 1) {
          h << Words("image");
        } else {
          h << Count{f.images, "image"};
        }
        h << Words(" lets <span class=\"workloads\">") << f.workloads << Words("</span> more ")
          << (f.workloads == 1 ? Words("workload") : Words("workloads"))
          << Words(" (<span class=\"replicas\">") << f.replicas << Words("</span> ")
          << (f.replicas == 1 ? Words("replica") : Words("replicas"))
          << Words(") run here.</li>\n");
      }
      h << Words("</ul>\n");
    }
  }
  if (!p.pinned.empty()) {
    h << Words("<h3>Kept off by their own constraints</h3>\n<ul class=\"pinned\">\n");
    for (std::size_t i = 0; i < p.pinned.size() && i < kShownPinned; ++i) {
      h << Words("<li>") << Untrusted(p.pinned[i].file) << Words(": ");
      append_resource(h, p.pinned[i].resource);
      h << Words("</li>\n");
    }
    if (p.pinned.size() > kShownPinned)
      h << Words("<li>and ") << Count{p.pinned.size() - kShownPinned, "more workload"}
        << Words("</li>\n");
    h << Words("</ul>\n");
  }
  h << Words("</section>\n");
}

}  // namespace

void readiness_html(const Readiness& r, std::ostream& stream) {
  HtmlOut out(stream);
  HtmlText h;
  h << Words(
           "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
           "style-src 'unsafe-inline'\">\n<title>archfit readiness</title>\n<style>\n"
           "body{font-family:sans-serif;margin:2em;color:#1b1f24;background:#fff}\n"
           "table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #c8ccd0;"
           "padding:.3em .6em;text-align:left}td.workloads,td.replicas,td.runnable,"
           "td.runnable-replicas{text-align:right}td.image{word-break:break-all;max-width:34em}\n"
           ".chart text{font-size:13px;fill:#1b1f24}.chart rect.all{fill:#e3e6e8}"
           ".chart rect.ok{fill:#2da44e}.chart rect.block{fill:#cf222e}\n"
           "</style>\n</head>\n<body>\n<h1>archfit readiness</h1>\n<p><span id=\"workloads\">")
    << r.workloads << Words("</span> workloads, <span id=\"replicas\">") << r.replicas
    << Words("</span> replicas");
  if (r.unknown > 0) {
    h << Words("; <span id=\"not-counted\">") << r.unknown
      << Words(
             "</span> not counted (an image archfit could not resolve, or placement it cannot "
             "read)");
  }
  h << Words(".</p>\n");
  coverage_chart(h, r);
  h << Words(
      "<table id=\"platforms\">\n<tr><th>platform</th><th>workloads that can run</th>"
      "<th>of</th><th>replicas that can run</th><th>of</th></tr>\n");
  for (const PlatformReadiness& p : r.platforms) {
    h << Words("<tr data-platform=\"") << Untrusted(p.platform) << Words("\"><td>")
      << Untrusted(p.platform) << Words("</td><td class=\"runnable\">") << p.runnable
      << Words("</td><td class=\"workloads\">") << p.workloads
      << Words("</td><td class=\"runnable-replicas\">") << p.runnable_replicas
      << Words("</td><td class=\"replicas\">") << p.replicas << Words("</td></tr>\n");
  }
  h << Words("</table>\n");
  for (const PlatformReadiness& p : r.platforms) {
    if (!p.blockers.empty() || !p.pinned.empty()) platform_section(h, p);
  }
  h << Words("</body>\n</html>\n");
  out << h;
}

}  // namespace archfit::report::detail
