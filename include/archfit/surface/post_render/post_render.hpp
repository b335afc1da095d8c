// helm's post-renderer: the rendered stream in, the fixed stream out (or,
// with lint, the same stream checked and passed through). helm 3 runs
// `archfit post-render` as --post-renderer, helm 4 as the plugin in
// helm-plugin/, and `archfit argocd generate` calls this function on what it
// rendered. Never prints empty output with a success (helm 4 refuses empty
// output, and an empty release deletes everything); a failure is said on
// `err` and, because helm 4 shows no stderr, in a log file too.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include <archfit/app/exit.hpp>
#include <archfit/app/output.hpp>
#include <archfit/config/loader.hpp>

namespace archfit::surface::post_render {

struct PostRenderRequest {
  config::CommonFlags flags;
  bool lint = false;
  std::string fail_on = "error";  // error, warning, info or never
  std::string log;                // --log FILE
  // Who stops when post-render fails: "helm", or "Argo CD".
  std::string caller = "helm";
  // Where ARCHFIT_*, the log's place (ARCHFIT_POST_RENDER_LOG,
  // XDG_STATE_HOME, HOME) and the plugin's executable
  // (ARCHFIT_PLUGIN_EXECUTABLE) are read.
  config::Environment env = config::process_environment();
};

// `rendered` is the stream, or standard input when there is none (read by
// the session, so that what cannot be read is an `unreadable-file` finding as
// in any file); the fixed stream goes to `out` only when the run succeeded.
app::ExitCode post_render(const PostRenderRequest& request, std::optional<std::string> rendered,
                          app::Output& out, std::ostream& err);

}  // namespace archfit::surface::post_render
