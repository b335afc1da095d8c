// What a session says to a person besides its findings, the same on every
// surface: the notices of a run, how its images were resolved, and why a
// run failed on images it could not resolve.
#pragma once

#include <ostream>

#include <archfit/resolve/resolver.hpp>
#include <archfit/run/run.hpp>

namespace archfit::app {

// What the run noticed besides findings, one "archfit: ..." line each: its
// warnings, and the files that are not Kubernetes manifests (documents, none
// of them with apiVersion and kind: a values.yaml, a CI configuration), at
// most 10 of them named.
void print_notices(std::ostream& out, const run::RunResult& run);

// "archfit: 300 images: 0 from the lock file, 12 from the cache, 288 from
// registries, 0 failed; 612 requests (300 HEAD, 312 GET), 1.2 MiB in 1.43 s"
void print_resolution_summary(std::ostream& out, const resolve::Stats& stats);

// The line every run ends with: "archfit: 3 of 4 images resolved (2 from the
// lock file, 1 from the cache, 0 from registries)", or that there were none.
void print_resolved(std::ostream& out, const resolve::Stats& stats);

// Why a run whose images could not all be resolved failed, one line.
inline constexpr const char* kUnresolvedFailure =
    "archfit: images could not be resolved, and this run fails on them (resolve.onUnresolved is "
    "fail, or unset in an unattended run: see docs/configuration.md)";

}  // namespace archfit::app
