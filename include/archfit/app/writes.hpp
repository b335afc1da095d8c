// What fix writes: every changed file in place, all of them or none. Each
// replacement is prepared beside its file first and put in place only when
// every one of them could be and no file changed since it was read; standard
// input's new text goes to the output.
#pragma once

#include <ostream>

#include <archfit/app/exit.hpp>
#include <archfit/app/output.hpp>
#include <archfit/run/run.hpp>

namespace archfit::app {

// kOk when every changed file was written ("fixed NAME" on `err` for each,
// unless `quiet`); kUsageOrInput, with why on `err`, when none was.
ExitCode write_all_or_nothing(const run::RunResult& run, Output& out, std::ostream& err,
                              bool quiet);

}  // namespace archfit::app
