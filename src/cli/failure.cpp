#include "cli/failure.hpp"

#include <exception>
#include <new>

#include <archfit/base/error.hpp>

#include "cli/commands.hpp"
#include "cli/shown.hpp"

namespace archfit::cli {

int report_failure(std::ostream& err) {
  try {
    throw;
  } catch (const Error& e) {
    err << (e.where().line > 0 || !e.where().file.empty() ? "" : "archfit: ") << shown(e.what())
        << '\n';
    return e.kind() == ErrorKind::Resolution ? kUnresolved : kUsageOrInput;
  } catch (const std::bad_alloc&) {
    // A limit on memory (ulimit -v, a container's) or a system out of it:
    // not a bug, and the user can act on it.
    err << "archfit: out of memory: the system gives archfit no more (a limit such as ulimit -v, "
           "or the container's); raise the limit, or run archfit on fewer files at a time\n";
    return kUsageOrInput;
  } catch (const std::exception& e) {
    err << "archfit: internal error: " << shown(e.what()) << '\n';
    return kUsageOrInput;
  }
}

}  // namespace archfit::cli
