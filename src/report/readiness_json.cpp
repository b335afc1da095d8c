// readiness, JSON: every platform's counts, every blocker with every file
// that uses it, every pinned workload, and what rebuilding frees
// (docs/reports.md, "Readiness").
#include "report/json_out.hpp"
#include "report/readiness_writers.hpp"

namespace archfit::report::detail {

namespace {

void resource(JsonOut& out, const ReadinessWorkload& w) {
  auto& j = out.w();
  j.StartObject();
  out.string("file", Untrusted(w.file));
  out.string("apiVersion", Untrusted(w.resource.api_version));
  out.string("kind", Untrusted(w.resource.kind));
  if (!w.resource.namespace_name.empty())
    out.string("namespace", Untrusted(w.resource.namespace_name));
  out.string("name", Untrusted(w.resource.name));
  out.number("replicas", w.replicas);
  j.EndObject();
}

}  // namespace

void readiness_json(const Readiness& r, std::ostream& stream) {
  JsonOut out(stream);
  auto& j = out.w();
  j.StartObject();
  out.number("workloads", r.workloads);
  out.number("replicas", r.replicas);
  out.number("notCounted", r.unknown);
  j.key("platforms");
  j.StartArray();
  for (const PlatformReadiness& p : r.platforms) {
    j.StartObject();
    out.string("platform", Untrusted(p.platform));
    out.number("workloads", p.workloads);
    out.number("replicas", p.replicas);
    out.number("runnableWorkloads", p.runnable);
    out.number("runnableReplicas", p.runnable_replicas);
    j.key("blockers");
    j.StartArray();
    for (const Blocker& b : p.blockers) {
      j.StartObject();
      out.string("image", Untrusted(b.image));
      out.number("workloads", b.workloads);
      out.number("replicas", b.replicas);
      j.key("files");
      j.StartArray();
      for (const std::string& f : b.files)
        j.string(Untrusted(f));
      j.EndArray();
      j.EndObject();
    }
    j.EndArray();
    j.key("pinned");
    j.StartArray();
    for (const ReadinessWorkload& w : p.pinned)
      resource(out, w);
    j.EndArray();
    j.key("rebuildFrees");
    j.StartArray();
    for (const Freed& f : p.freed) {
      j.StartObject();
      out.number("images", f.images);
      out.number("workloads", f.workloads);
      out.number("replicas", f.replicas);
      j.EndObject();
    }
    j.EndArray();
    j.EndObject();
  }
  j.EndArray();
  j.EndObject();
  out.end_document();
}

}  // namespace archfit::report::detail
