// What a lock file's entries are against what the manifests in its scope use
// and what the registries say now, and how `archfit lock` reports it: text
// for a person, JSON for a script, Markdown for a job summary.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <archfit/app/output.hpp>
#include <archfit/cache/lock_file.hpp>

namespace archfit::surface::command_line {

struct LockChange {
  enum class Kind {
    Missing,    // a manifest uses the image, the lock does not hold it
    Added,      // ... and it was written
    Moved,      // the tag points at another digest now
    Platforms,  // the digest's platforms are not the lock's
    Unused,     // no manifest in the lock's scope uses it
    Removed,    // ... and it was taken out (--prune)
  };
  Kind kind;
  std::string image;                       // the lock's key: the canonical reference
  std::optional<cache::LockEntry> before;  // the lock's entry
  std::optional<cache::LockEntry> after;   // what the registry says, or was written
  std::vector<std::string> used_by;        // the files that use it (Missing, Added)
};

struct LockReport {
  std::filesystem::path lock;
  std::vector<LockChange> changes;
  bool written = false;  // the file was written (its bytes changed)
};

// "missing", "added", "moved", "platforms", "unused", "removed".
std::string_view change_name(LockChange::Kind kind);

// The platforms `after` has that `before` lacks (gained), and the reverse.
std::vector<std::string> gained(const LockChange& c);
std::vector<std::string> lost(const LockChange& c);

// The reports in a format: "text" (one line a change), "json" or
// "markdown"; every value from the input through its sink's encoder.
void write_lock_reports(const std::vector<LockReport>& reports, const std::string& format,
                        app::Output& out);

}  // namespace archfit::surface::command_line
