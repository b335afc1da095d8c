// From resolve's answer for an image to placement's: the platforms found, or
// the configuration's resolve.fallbackPlatforms assumed when there are none,
// and why the image could not be resolved.
#pragma once

#include <archfit/image/reference.hpp>
#include <archfit/placement/answer.hpp>
#include <archfit/placement/config.hpp>
#include <archfit/resolve/resolution.hpp>

namespace archfit::run {

// A view of `resolution` and `config`, which must outlive it.
placement::ImageAnswer answer_of(const image::Reference& ref, const resolve::Resolution& resolution,
                                 const placement::Config& config);

}  // namespace archfit::run
