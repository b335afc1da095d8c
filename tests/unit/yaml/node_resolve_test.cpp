// NodeRef::is_string's quick answer (a plain scalar that starts like a word)
// is the answer resolution gives.
#include <string>

#include <gtest/gtest.h>

#include <archfit/yaml/node.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/scalar.hpp>

#include "support/corpus.hpp"

namespace archfit::yaml {
namespace {

// Every text the quick test lets through, of every first byte, every length
// around the longest word and many rests, reads as a string; it lets through
// each letter that starts no word, and a long text of any letter.
TEST(PlainStringAtAGlance, AgreesWithResolution) {
  const char* const rests[] = {"",    "es",   "rue",  "ULL",  "ull",  "n",         "ff",
                               "o",   "123",  ".5",   "e3",   ":x",   "<",         "~",
                               " x",  "-1",   "_b",   "0x1F", "nf",   "aN",        "Inf",
                               "es!", "alse", "ALSE", "ull0", "rue1", "2001-12-14"};
  std::size_t through = 0;
  for (int b = 0; b < 256; ++b) {
    for (const char* rest : rests) {
      const std::string text = std::string(1, static_cast<char>(b)) + rest;
      if (!plain_string_at_a_glance(text)) continue;
      ++through;
      EXPECT_EQ(resolve_plain(text).type, ScalarType::String) << text;
    }
  }
  EXPECT_GT(through, 1000u);
  for (char c : std::string("abcdeghijklmpqrsuvwxzABCDEGHIJKLMPQRSUVWXZ")) {
    EXPECT_TRUE(plain_string_at_a_glance(std::string(1, c))) << c;
  }
  for (std::string_view text : {"tolerations", "nodeSelector", "foobar", "yesyes", "offset"})
    EXPECT_TRUE(plain_string_at_a_glance(text)) << text;
  for (std::string_view text :
       {"y", "true", "False", "null", "off", "no", "~", "1", ".inf", "<<", "-x", "", "é"}) {
    EXPECT_FALSE(plain_string_at_a_glance(text)) << text;
  }
}

// Over every scalar of the corpus (keys and values, every style, tagged or
// not): is_string() says what resolve() says.
TEST(CorpusIsString, AgreesWithResolveOverTheCorpus) {
  std::size_t scalars = 0;
  testing::for_each_corpus_document([&](const auto& file, const DocumentText& doc) {
    Tree tree = parse_document(doc.text, doc.first_line, testing::as_written());
    for (NodeId id = 0; id < tree.node_count(); ++id) {
      NodeRef n(&tree, id);
      if (!n.is_scalar()) continue;
      ++scalars;
      bool resolved_string = false;
      try {
        resolved_string = n.resolve().type == ScalarType::String;
      } catch (const std::exception&) {
        continue;  // a tag the value does not satisfy: is_string() throws too
      }
      ASSERT_EQ(n.is_string(), resolved_string)
          << file << ":" << n.node().line << " " << n.scalar();
    }
  });
  EXPECT_GT(scalars, 10000u);
}

}  // namespace
}  // namespace archfit::yaml
