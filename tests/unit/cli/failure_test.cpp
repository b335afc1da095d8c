// What a failed run says and its exit code: archfit's errors by their kind,
// memory the system refused as that (not as a bug), anything else as an
// internal error.
#include "cli/failure.hpp"

#include <new>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>

#include "cli/commands.hpp"

namespace archfit::cli {
namespace {

struct Said {
  int code = -1;
  std::string text;
};

template <class E>
Said failing_with(const E& e) {
  std::ostringstream err;
  Said said;
  try {
    throw e;
  } catch (...) {
    said.code = report_failure(err);
  }
  said.text = err.str();
  return said;
}

TEST(ReportFailure, AnErrorSaysItsMessageWithItsExitCode) {
  Said input = failing_with(Error(ErrorKind::Input, "cannot read x.yaml"));
  EXPECT_EQ(input.code, kUsageOrInput);
  EXPECT_EQ(input.text, "archfit: cannot read x.yaml\n");
  Said unresolved = failing_with(Error(ErrorKind::Resolution, "no image"));
  EXPECT_EQ(unresolved.code, kUnresolved);
  // A place in the input comes first, without the program's name.
  Said placed = failing_with(Error(ErrorKind::Syntax, "bad", Location{"a.yaml", 3, 7}));
  EXPECT_EQ(placed.code, kUsageOrInput);
  EXPECT_EQ(placed.text.rfind("a.yaml:3:7", 0), 0u) << placed.text;
}

TEST(ReportFailure, MemoryRefusedIsSaidAsSuchNotAsABug) {
  Said said = failing_with(std::bad_alloc());
  EXPECT_EQ(said.code, kUsageOrInput);
  EXPECT_NE(said.text.find("archfit: out of memory"), std::string::npos) << said.text;
  EXPECT_NE(said.text.find("ulimit -v"), std::string::npos) << said.text;
  EXPECT_EQ(said.text.find("internal error"), std::string::npos) << said.text;
}

TEST(ReportFailure, AnythingElseIsAnInternalError) {
  Said said = failing_with(std::runtime_error("an invariant"));
  EXPECT_EQ(said.code, kUsageOrInput);
  EXPECT_EQ(said.text, "archfit: internal error: an invariant\n");
}

}  // namespace
}  // namespace archfit::cli
