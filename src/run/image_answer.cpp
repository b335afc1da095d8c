#include <archfit/run/image_answer.hpp>

namespace archfit::run {

placement::ImageAnswer answer_of(const image::Reference& ref, const resolve::Resolution& resolution,
                                 const placement::Config& config) {
  placement::ImageAnswer answer;
  if (resolution.ok) {
    answer.platforms = &resolution.platforms;
    answer.digest = resolution.digest;
    return answer;
  }
  answer.why = resolution.cause(ref);
  if (!config.fallback_platforms.empty()) {
    answer.platforms = &config.fallback_platforms;
    answer.assumed = true;
  }
  return answer;
}

}  // namespace archfit::run
