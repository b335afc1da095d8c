// Where a rendered document came from, so that findings can point at the
// chart's template rather than at a stream that is not in the repository:
// helm 3 writes `# Source: <chart>/templates/<file>.yaml` at the top of each
// document it renders; helm 4 hands post-renderers documents annotated
// `postrenderer.helm.sh/postrender-filename: <chart>/templates/<file>.yaml`.
#pragma once

#include <string>
#include <string_view>

#include <archfit/manifest/workload.hpp>

namespace archfit::manifest {

inline constexpr std::string_view kPostrenderFilename = "postrenderer.helm.sh/postrender-filename";

// The path of a `# Source: ` comment before the document's content; "" when
// there is none.
std::string source_comment(std::string_view document_text);

// The workload's postrender-filename annotation; "" when it has none.
std::string source_annotation(const Workload& workload);

}  // namespace archfit::manifest
