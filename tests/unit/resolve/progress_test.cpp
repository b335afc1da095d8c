// The progress of a long resolution: redrawn in place on a terminal, whole
// lines at an interval in a log, also while nothing finishes (a registry
// that does not answer).
#include "resolve/progress.hpp"

#include <chrono>
#include <sstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace archfit::resolve {
namespace {

using namespace std::chrono_literals;

TEST(ProgressLine, ALogGetsWholeLinesWhileNothingFinishes) {
  std::ostringstream out;
  {
    ProgressLine line(&out, 3, 0ms, /*log_lines=*/true, 40ms);
    line.step();
    std::this_thread::sleep_for(150ms);
  }
  std::string text = out.str();
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;  // no redrawing in a log
  EXPECT_EQ(text.rfind("archfit: resolving images: 1 of 3 done after ", 0), 0u) << text;
  std::size_t lines = 0;
  for (char c : text)
    lines += c == '\n' ? 1 : 0;
  EXPECT_GE(lines, 2u) << text;
}

TEST(ProgressLine, NothingBeforeTheIntervalAndNothingWithoutAStream) {
  std::ostringstream out;
  {
    ProgressLine line(&out, 3, 0ms, true, 10s);
    line.step();
  }
  EXPECT_EQ(out.str(), "");
  ProgressLine none(nullptr, 3, 0ms, true, 1ms);
  none.step();  // no stream: nothing to do, no thread
}

TEST(ProgressLine, ATerminalLineIsRedrawnAndErased) {
  std::ostringstream out;
  {
    ProgressLine line(&out, 2, 0ms);
    line.step();
    line.step();
  }
  std::string text = out.str();
  EXPECT_NE(text.find("\r\033[Kresolving images: 2/2"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("\r\033[K")) << text;
}

}  // namespace
}  // namespace archfit::resolve
