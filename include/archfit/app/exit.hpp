// How a session ends, as every surface reports it: the exit codes of the
// command line (docs/architecture.md, "Failure"), which the other surfaces
// map onto their own envelopes.
#pragma once

namespace archfit::app {

enum ExitCode : int {
  kOk = 0,
  kChangesOrFindings = 1,  // changes needed (check, diff), findings at the threshold, faults
  kUsageOrInput = 2,       // usage, configuration or input error: nothing written
  kUnresolved = 3,         // images could not be resolved and the run fails on them
};

}  // namespace archfit::app
