// `archfit post-render`: its flags (surface/post_render/post_render.hpp does
// the work, on standard input).
#include <iostream>
#include <memory>

#include <archfit/surface/post_render/post_render.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"

namespace archfit::cli {

void add_post_render_command(CLI::App& app, RunState& state) {
  auto o = std::make_shared<surface::post_render::PostRenderRequest>();
  CLI::App* cmd = app.add_subcommand(
      "post-render",
      "helm post-renderer: fix the rendered stream on stdin and print it on stdout (helm 3: "
      "--post-renderer archfit-post-render; helm 4: the archfit plugin); see docs/helm.md");
  cmd->add_flag("--lint", o->lint,
                "Change nothing: pass the stream through, and fail when a finding reaches "
                "--fail-on (for CI)");
  cmd->add_option("--fail-on", o->fail_on,
                  "Fail (exit 1, no output) when a finding fix leaves (--lint: any finding) has "
                  "this severity or worse: error, warning, info, never")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}))
      ->capture_default_str();
  cmd->add_option("--log", o->log,
                  "Also write failures to FILE, since helm 4 shows no stderr (default: "
                  "$ARCHFIT_POST_RENDER_LOG, else $XDG_STATE_HOME/archfit/post-render.log, else "
                  "~/.local/state/archfit/post-render.log)")
      ->type_name("FILE");
  // Not for users: argocd generate runs post-render and names itself.
  cmd->add_option("--caller", o->caller)->check(CLI::IsMember({"helm", "Argo CD"}))->group("");
  add_common_flags(cmd, o->flags);
  cmd->callback([o, &state] {
    state.exit_code =
        surface::post_render::post_render(*o, std::nullopt, app::standard_output(), std::cerr);
  });
}

}  // namespace archfit::cli
