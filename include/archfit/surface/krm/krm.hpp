// archfit as a KRM function (kustomize's exec functions, kpt): a ResourceList
// in, the same ResourceList out with its items fixed in place (byte for byte
// elsewhere, as fix edits files) and a result for every finding. The
// functionConfig (kind ArchFit, or a ConfigMap's data) is read by the config
// module like a configuration file; without one the nearest .archfit.yaml
// applies. In the shape of kyaml's framework: the envelope is read and
// written here, the session does the work.
#pragma once

#include <ostream>
#include <string>

#include <archfit/app/exit.hpp>
#include <archfit/app/output.hpp>
#include <archfit/config/loader.hpp>

namespace archfit::surface::krm {

struct KrmRequest {
  config::CommonFlags flags;
  std::string mode = "fix";  // fix, or lint: leave the items, report everything
  config::Environment env = config::process_environment();
};

// `list` is the ResourceList's text (read with manifest::read_input). Exit 1
// when a result is an error.
app::ExitCode krm(const KrmRequest& request, std::string list, app::Output& out, std::ostream& err);

}  // namespace archfit::surface::krm
