// The readiness report (docs/reports.md, "Readiness"): for each platform of
// the cluster, how many workloads and replicas can run there, which images
// keep the others off it (ranked by the workloads and replicas they block,
// with the files that use them), the workloads whose own constraints keep
// them off it, and what rebuilding the top blockers would free. The numbers
// are counted by the readiness feature (readiness/feature.hpp); here they are
// only written, each format through its own encoder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <archfit/findings/finding.hpp>

namespace archfit::report {

struct ReadinessWorkload {
  std::string file;
  findings::ResourceRef resource;
  std::uint64_t replicas = 0;
};

// An image that keeps workloads off a platform: it has no build for it.
struct Blocker {
  std::string image;  // canonical
  std::size_t workloads = 0;
  std::uint64_t replicas = 0;
  std::vector<std::string> files;  // that use it there, sorted
};

// Rebuilding the first `images` blockers for the platform lets these run
// there too (cumulative).
struct Freed {
  std::size_t images = 0;
  std::size_t workloads = 0;
  std::uint64_t replicas = 0;
};

struct PlatformReadiness {
  std::string platform;       // os/arch[/variant], from clusterPlatforms
  std::size_t workloads = 0;  // workloads whose cluster runs this platform, their images known
  std::uint64_t replicas = 0;
  std::size_t runnable = 0;  // of those, the ones that can run here
  std::uint64_t runnable_replicas = 0;
  std::vector<Blocker> blockers;          // ranked: workloads, replicas, then image
  std::vector<ReadinessWorkload> pinned;  // images run here; their own constraints say no
  std::vector<Freed> freed;               // for the first 1, 2 and 3 blockers
};

struct Readiness {
  std::size_t workloads = 0;  // every workload read
  std::uint64_t replicas = 0;
  // Workloads with an image archfit could not resolve (or only assumed,
  // resolve.fallbackPlatforms), or whose placement it could not read: not
  // counted on any platform.
  std::size_t unknown = 0;
  std::vector<PlatformReadiness> platforms;  // in clusterPlatforms order
};

enum class ReadinessStyle { Text, Json, Markdown, Html };

// The report's name as --format and --report take it: "readiness" (text, or
// for a file, by its extension: .json, .md or .markdown, .html or .htm), or
// "readiness-text", "readiness-json", "readiness-markdown", "readiness-html".
// nullopt for a name that is none of these.
std::optional<ReadinessStyle> readiness_style(std::string_view name, std::string_view path);
bool is_readiness_name(std::string_view name);
const std::vector<std::string>& readiness_names();

// How many blockers and pinned workloads the text, Markdown and HTML list
// for each platform (JSON lists all): the rest are counted.
inline constexpr std::size_t kShownBlockers = 10;
inline constexpr std::size_t kShownPinned = 10;
inline constexpr std::size_t kShownFiles = 3;

void write_readiness(const Readiness& r, ReadinessStyle style, std::ostream& out);

}  // namespace archfit::report
