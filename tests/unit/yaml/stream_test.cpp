#include <string>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/yaml/stream.hpp>

namespace archfit::yaml {
namespace {

std::string join(const std::vector<DocumentText>& docs) {
  std::string out;
  for (const auto& d : docs)
    out += d.text;
  return out;
}

struct SplitCase {
  const char* name;
  std::string input;
  std::vector<std::string> pieces;
};

class SplitStream : public ::testing::TestWithParam<SplitCase> {};

TEST_P(SplitStream, PiecesAndRoundTrip) {
  const SplitCase& c = GetParam();
  auto docs = split_stream(c.input);
  ASSERT_EQ(docs.size(), c.pieces.size());
  for (std::size_t i = 0; i < docs.size(); ++i) {
    EXPECT_EQ(std::string(docs[i].text), c.pieces[i]) << "piece " << i;
  }
  EXPECT_EQ(join(docs), c.input);
}

bool same(const DocumentText& a, const DocumentText& b) {
  return a.text.data() == b.text.data() && a.text.size() == b.text.size() && a.offset == b.offset &&
         a.first_line == b.first_line && a.explicit_start == b.explicit_start &&
         a.has_content == b.has_content;
}

// Started at any document, the splitter yields that document and the rest,
// exactly as the whole split did.
TEST_P(SplitStream, ResumingAtAnyDocumentGivesTheSameRest) {
  const SplitCase& c = GetParam();
  std::vector<DocumentText> docs = split_stream(c.input);
  for (std::size_t from = 0; from < docs.size(); ++from) {
    StreamSplitter split(c.input, docs[from].offset, docs[from].first_line);
    for (std::size_t i = from; i < docs.size(); ++i) {
      std::optional<DocumentText> doc = split.next();
      ASSERT_TRUE(doc) << "from " << from << ": document " << i << " missing";
      EXPECT_TRUE(same(*doc, docs[i])) << "from " << from << ": document " << i;
    }
    EXPECT_FALSE(split.next()) << "from " << from;
    EXPECT_FALSE(split.next()) << "from " << from << ", asked again";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SplitStream,
    ::testing::Values(
        SplitCase{"single_implicit", "a: 1\n", {"a: 1\n"}},
        SplitCase{"two_explicit", "---\na: 1\n---\nb: 2\n", {"---\na: 1\n", "---\nb: 2\n"}},
        SplitCase{"leading_comment_joins_first", "# head\n---\na: 1\n", {"# head\n---\na: 1\n"}},
        SplitCase{"implicit_then_explicit", "a: 1\n---\nb: 2", {"a: 1\n", "---\nb: 2"}},
        SplitCase{"marker_with_comment",
                  "--- # one\na: 1\n--- # two\nb: 2\n",
                  {"--- # one\na: 1\n", "--- # two\nb: 2\n"}},
        SplitCase{"end_marker_then_bare", "a: 1\n...\nb: 2\n", {"a: 1\n...\n", "b: 2\n"}},
        SplitCase{"end_marker_comment_then_doc",
                  "a: 1\n...\n# c\n---\nb: 2\n",
                  {"a: 1\n...\n", "# c\n---\nb: 2\n"}},
        SplitCase{"trailing_comment_after_end", "a: 1\n...\n# tail\n", {"a: 1\n...\n# tail\n"}},
        SplitCase{"empty_documents", "---\n---\n---\n", {"---\n", "---\n", "---\n"}},
        SplitCase{"crlf", "---\r\na: 1\r\n---\r\nb: 2\r\n", {"---\r\na: 1\r\n", "---\r\nb: 2\r\n"}},
        SplitCase{"lone_cr", "a: 1\r---\rb: 2", {"a: 1\r", "---\rb: 2"}},
        SplitCase{"bom",
                  "\xEF\xBB\xBF---\na: 1\n---\nb: 2\n",
                  {"\xEF\xBB\xBF---\na: 1\n", "---\nb: 2\n"}},
        SplitCase{"not_markers", "a: ---\n----\n--- x\n", {"a: ---\n----\n", "--- x\n"}},
        SplitCase{"indented_dashes_stay", "a: |\n  ---\n  text\n", {"a: |\n  ---\n  text\n"}},
        SplitCase{"directive", "%YAML 1.1\n---\na: 1\n", {"%YAML 1.1\n---\na: 1\n"}},
        SplitCase{"only_comments", "# just a comment\n", {"# just a comment\n"}},
        SplitCase{"tab_after_marker", "---\ta: 1\n---\tb\n", {"---\ta: 1\n", "---\tb\n"}}),
    [](const auto& test) { return test.param.name; });

TEST(SplitStream, EmptyInputHasNoDocuments) {
  EXPECT_TRUE(split_stream("").empty());
}

TEST(SplitStream, LinesAndOffsets) {
  std::string in = "# c\n---\na: 1\n\n---\r\nb: 2\r\n...\nc: 3\n";
  auto docs = split_stream(in);
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[0].first_line, 0u);
  EXPECT_EQ(docs[1].first_line, 4u);
  EXPECT_EQ(docs[1].offset, in.find("---\r\n"));
  EXPECT_EQ(docs[2].first_line, 7u);
  EXPECT_TRUE(docs[0].explicit_start);
  EXPECT_TRUE(docs[0].has_content);
  EXPECT_FALSE(docs[2].explicit_start);
  EXPECT_TRUE(docs[2].has_content);
}

TEST(SplitStream, ContentFlags) {
  auto docs = split_stream("---\n# only a comment\n---\n---\nx: 1\n");
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_FALSE(docs[0].has_content);
  EXPECT_FALSE(docs[1].has_content);
  EXPECT_TRUE(docs[2].has_content);
}

// check_stream_bytes looks at sixteen bytes at a time: every byte YAML never
// allows is refused wherever it falls in a block, at its line and column and
// from any starting point, and every other byte value passes.
TEST(StreamBytes, EveryRefusedByteIsFoundAtItsPlaceAndNoOtherIs) {
  std::string clean;
  for (int i = 0; clean.size() < 200; ++i)
    clean += "key" + std::to_string(i) + ": caf\xc3\xa9\t\r\n";
  std::string every_other;
  for (int c = 0; c < 256; ++c) {
    bool refused = (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F;
    if (!refused) every_other += static_cast<char>(c);
  }
  EXPECT_NO_THROW(check_stream_bytes(clean + every_other + every_other + clean, 0));
  for (int c : {0x00, 0x01, 0x08, 0x0B, 0x0C, 0x1B, 0x1F, 0x7F}) {
    for (std::size_t at = 0; at < 70; ++at) {
      std::string text = clean;
      text[at] = static_cast<char>(c);
      std::uint32_t line = 1;
      std::size_t line_start = 0;
      for (std::size_t i = 0; i < at; ++i) {
        if (text[i] == '\n') {
          ++line;
          line_start = i + 1;
        }
      }
      for (std::size_t from : {std::size_t{0}, at / 2, at}) {
        try {
          check_stream_bytes(text, from);
          ADD_FAILURE() << "byte " << c << " at " << at << " from " << from << " passed";
        } catch (const Error& e) {
          EXPECT_EQ(e.where().line, line) << c << " at " << at;
          EXPECT_EQ(e.where().column, at - line_start + 1) << c << " at " << at;
        }
      }
      // Before `from`, the check has already been made.
      EXPECT_NO_THROW(check_stream_bytes(text, at + 1)) << c << " at " << at;
    }
  }
}

}  // namespace
}  // namespace archfit::yaml
