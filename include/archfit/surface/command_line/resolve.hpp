// `archfit resolve IMAGE...`: the digest and platforms of images, from the
// lock file, the cache or their registries, as a person or a script wants them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <archfit/app/exit.hpp>
#include <archfit/app/output.hpp>
#include <archfit/config/loader.hpp>

namespace archfit::surface::command_line {

struct ResolveRequest {
  std::vector<std::string> images;
  config::CommonFlags flags;
  std::string format = "text";  // text or json
  bool verbose = false;
};

app::ExitCode resolve(const ResolveRequest& request, app::Output& out, std::ostream& err);

}  // namespace archfit::surface::command_line
