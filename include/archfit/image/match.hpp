// Whether an image built for one platform runs on a node of another: the policy behind
// "which cluster platforms can this pod template use". Both sides are normalized first
// (platform.hpp), so spellings never decide a match.
#pragma once

#include <archfit/image/platform.hpp>

namespace archfit::image {

// Both policies follow containerd's platforms.Only(host) for the host's own architecture:
//   arm/vN        runs arm/vN down to arm/v5 (arm alone is arm/v7)
//   arm64/v8.x    runs arm64/v8.x down to arm64/v8 (arm64 alone is arm64/v8)
//   arm64/v9.x    runs arm64/v9.x down to v9, and arm64/v8.(x+5) down to v8
//   amd64/vN      runs amd64/vN down to amd64 (v1)
//   anything else runs exactly its own variant
// Variants are compared as numbers, so "v8.0", "v8" and no variant are one level for
// arm64 (containerd compares the strings and misses "v8.0"); "v8.10" parses as minor 10
// (containerd reads minors of one digit only).
//
// They differ only in whether another architecture counts:
//   SameArchitecture  no. The default, for two reasons. Kubernetes places pods by the
//                     kubernetes.io/arch label, which has no variant and does not say a
//                     node can do more than its own architecture. And the fallbacks are
//                     not safe: many arm64 CPUs have no 32-bit mode (Graviton 4, Ampere
//                     One, Apple silicon), so an arm-only image sent to arm64 nodes fails
//                     with "exec format error", the failure archfit exists to prevent.
//   Containerd        yes, as Only() does: an arm64 host also runs arm/v8 down to arm/v5
//                     and an amd64 host also runs 386. This is what the runtime would
//                     pull; use it to explain a pull, not to place a pod.
//
// os must be equal. For windows, when both sides name a build, the build must be
// compatible as containerd decides it (same major.minor; before Windows Server 2022 the
// same build, from it on any build from 20348 up to the host's). A side without a build
// matches any.
enum class MatchPolicy {
  SameArchitecture,
  Containerd,
};

bool can_run_on(const Platform& image, const Platform& host,
                MatchPolicy policy = MatchPolicy::SameArchitecture);

// can_run_on for platforms already normalized (the members of a PlatformSet
// are), without normalizing them again.
bool can_run_on_normalized(const Platform& image, const Platform& host,
                           MatchPolicy policy = MatchPolicy::SameArchitecture);

}  // namespace archfit::image
