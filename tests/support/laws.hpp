// The laws archfit's fix, lint and --remove keep, checked on one input file
// by running the command line as a user does:
//   remove(fix(x)) == remove(x) (== x when archfit never placed x), byte for byte;
//   fix(fix(x)) == fix(x);
//   after fix, lint reports nothing fix could fix;
//   `fix --check` exits 1 exactly when lint reports a finding fix would fix;
//   each fixable finding's proposed value is what fix writes.
// Used by the golden cases and by the generated ones.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <archfit/yaml/value.hpp>

#include "support/placement_data.hpp"
#include "support/process.hpp"

namespace archfit::testing {

// An input with its configuration in a scratch directory, run offline with
// a cache of its own.
class Workspace {
 public:
  Workspace(const std::string& input, const std::string& lock, const std::string& config);

  void write_input(const std::string& text) const { dir_.write("input.yaml", text); }
  std::string input() const;
  void write_lock(const std::string& lock) const { dir_.write("archfit.lock", lock); }

  // archfit <command> <common flags> <extra> input.yaml
  ProcessResult run(const std::vector<std::string>& command,
                    const std::vector<std::string>& extra = {}) const;
  // fix in place; fails the test on an exit code other than 0 or 1.
  std::string fix(const std::vector<std::string>& extra = {}) const;
  std::string remove(const std::vector<std::string>& extra = {}) const;
  std::string lint_json() const;

  const std::filesystem::path& path() const { return dir_.path(); }

 private:
  TempDir dir_;
};

// Documents of `input` whose data `fixed` changed outside the placement
// fields (each read alone, as written): fix put something somewhere else.
std::vector<std::string> changed_outside_placement(const std::string& input,
                                                   const std::string& fixed);

// Findings of lint's JSON output that are repeated, or that promise what fix
// does ("archfit fix adds ...") without being fixable.
std::vector<std::string> findings_that_disagree(const std::string& lint_json);

// Messages of every law that does not hold for `input` (empty: all hold).
std::vector<std::string> broken_laws(const Workspace& ws, const std::string& input);

// Each fixable finding of lint's JSON output whose proposed value is not
// what `fixed` (the file after fix) holds at the finding's field.
std::vector<std::string> proposals_not_written(const std::string& lint_json,
                                               const std::string& fixed);

}  // namespace archfit::testing
