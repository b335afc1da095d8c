// What the command line says of a run that failed, and its exit code.
#pragma once

#include <ostream>

namespace archfit::cli {

// Writes the message of the exception being handled to `err` and returns
// the exit code: an archfit::Error by its kind (docs/architecture.md,
// "Failure"), memory the system refused as what it is, anything else as an
// internal error (a bug). Call it only inside a catch block.
int report_failure(std::ostream& err);

}  // namespace archfit::cli
