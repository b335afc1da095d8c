// Inputs of many MiB are read into a buffer asked for huge pages: the bytes
// come back exactly, from a file whose size is known and from a pipe whose
// buffer grows as it comes.
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

#include <archfit/base/file.hpp>

#include "support/process.hpp"

namespace archfit::testing {
namespace {

// 20 MiB that no shifted or truncated copy equals.
std::string patterned_text() {
  std::string text(std::size_t{20} << 20, '\0');
  std::uint32_t x = 28;
  for (char& c : text) {
    x = x * 1664525u + 1013904223u;
    c = static_cast<char>('a' + (x >> 24) % 26);
  }
  return text;
}

TEST(LargeReads, AFileComesBackByteForByte) {
  TempDir dir;
  const std::string text = patterned_text();
  EXPECT_TRUE(read_file(dir.write("big.yaml", text), ReadLimit{std::size_t{64} << 20, "a test"}) ==
              text);
}

TEST(LargeReads, APipeOnStandardInputComesBackByteForByte) {
  const std::string text = patterned_text();
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  const int saved = ::dup(STDIN_FILENO);
  ASSERT_GE(saved, 0);
  ASSERT_EQ(::dup2(ends[0], STDIN_FILENO), STDIN_FILENO);
  ::close(ends[0]);
  std::thread writer([&] {
    for (std::size_t done = 0; done < text.size();) {
      ssize_t n = ::write(ends[1], text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(ends[1]);
  });
  std::string got = read_stdin(ReadLimit{std::size_t{64} << 20, "a test"});
  writer.join();
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  EXPECT_EQ(got.size(), text.size());
  EXPECT_TRUE(got == text);
}

}  // namespace
}  // namespace archfit::testing
