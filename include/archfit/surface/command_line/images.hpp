// `archfit images`: every container image of every pod template, where it is
// written and under which canonical name archfit looks it up (the lock file's
// key). Shows what archfit reads before it resolves anything.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <archfit/app/exit.hpp>
#include <archfit/app/output.hpp>

namespace archfit::surface::command_line {

struct ImagesRequest {
  std::vector<std::string> paths;
  std::string format = "text";  // text, or lock: a lock file to fill in
};

app::ExitCode images(const ImagesRequest& request, app::Output& out, std::ostream& err);

}  // namespace archfit::surface::command_line
