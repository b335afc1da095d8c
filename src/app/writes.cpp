#include <memory>
#include <string>
#include <vector>

#include <archfit/app/writes.hpp>
#include <archfit/base/atomic_write.hpp>
#include <archfit/base/error.hpp>
#include <archfit/base/untrusted.hpp>

namespace archfit::app {

ExitCode write_all_or_nothing(const run::RunResult& run, Output& out, std::ostream& err,
                              bool quiet) {
  auto shown = [](std::string_view text) { return for_terminal(Untrusted(text)); };
  std::size_t changed = 0;
  for (const run::FileResult& file : run.files)
    changed += !file.input.is_stdin && file.changed() ? 1 : 0;
  std::vector<std::unique_ptr<PendingWrite>> pending;
  std::vector<std::string> failed;
  for (const run::FileResult& file : run.files) {
    if (file.input.is_stdin || !file.changed()) continue;
    try {
      pending.push_back(
          std::make_unique<PendingWrite>(file.input.path, file.output_parts(), &file.identity));
    } catch (const Error& e) {
      err << "archfit: " << shown(e.what()) << '\n';
      failed.push_back(file.input.name);
    }
  }
  if (!failed.empty()) {
    err << "archfit: " << failed.size() << " of " << changed
        << " changed files cannot be written, so no file was written:";
    for (const std::string& name : failed)
      err << ' ' << shown(name);
    err << '\n';
    return kUsageOrInput;
  }
  // Once more right before renaming: the files may have changed while the
  // replacements were written.
  for (const auto& write : pending) {
    try {
      write->check_unchanged();
    } catch (const Error& e) {
      err << "archfit: " << shown(e.what()) << '\n' << "archfit: no file was written\n";
      return kUsageOrInput;
    }
  }
  // A stream that could not be read is not passed on.
  for (const run::FileResult& file : run.files) {
    if (file.input.is_stdin && !file.stopped) out.write(file.output_parts());
  }
  std::size_t i = 0;
  for (const run::FileResult& file : run.files) {
    if (file.input.is_stdin || !file.changed()) continue;
    pending[i++]->commit();
    if (!quiet) err << "fixed " << shown(file.input.name) << '\n';
  }
  return kOk;
}

}  // namespace archfit::app
