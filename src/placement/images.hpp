// What a pod template's images say about where it can run: the platform set
// of each image archfit knows (resolved, or assumed from
// resolve.fallbackPlatforms), and the findings about the others.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <archfit/image/platform_set.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/placement/plan.hpp>

#include "placement/reporter.hpp"

namespace archfit::placement::detail {

struct ImageFacts {
  std::vector<const image::PlatformSet*> sets;  // owned by the lookup or the config
  // For messages: each known image and whether its platforms are only assumed.
  std::vector<std::pair<std::string_view, bool>> images;
  // Nothing can be decided: an image reference is not valid, no image is
  // known, or one is unresolved and resolve.onUnresolved is fail.
  bool leave_alone = false;

  // Where every known image runs, within the cluster.
  image::PlatformSet common(const image::PlatformSet& cluster) const;
  // "image" supports ...; "image" is assumed to support ... (each image once)
  std::string described() const;
  // The images that run on no platform of the cluster (a windows exporter on
  // a linux cluster), each once.
  std::vector<std::string_view> foreign(const image::PlatformSet& cluster) const;
};

ImageFacts look_up_images(const manifest::PodTemplate& t, const Config& config,
                          const Lookup& lookup, Reporter& report);

}  // namespace archfit::placement::detail
