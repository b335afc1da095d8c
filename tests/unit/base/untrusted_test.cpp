// The encoders of the output sinks: what comes from input stays data.
#include <gtest/gtest.h>

#include <archfit/base/untrusted.hpp>

namespace archfit {
namespace {

TEST(ForTerminal, EscapesWhatATerminalActsOn) {
  struct Case {
    const char* in;
    const char* out;
  } cases[] = {
      {"plain text, unchanged: grüße 日本 🚀", "plain text, unchanged: grüße 日本 🚀"},
      {"\x1b]0;owned\x07\x1b[2J", "\\x1b]0;owned\\x07\\x1b[2J"},
      {"a\nb\rc\td\x7f", "a\\nb\\rc\\td\\x7f"},
      {"c1 \xc2\x9b"
       "31m \xc2\x85",
       "c1 \\xc2\\x9b31m \\xc2\\x85"},
      {"\xe2\x80\xae"
       "evil\xe2\x81\xa6",
       "\\u202eevil\\u2066"},  // bidi override, isolate
      {"zero\xe2\x80\x8bwidth\xef\xbb\xbf", "zero\\u200bwidth\\ufeff"},
      {"caf\xe9 \xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80",
       "caf\\xe9 \\xed\\xa0\\x80 \\xc0\\xaf \\xf4\\x90\\x80\\x80"},
      {"back\\slash", "back\\slash"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(for_terminal(Untrusted(c.in)), c.out) << c.in;
    // Encoded once, it reads the same encoded again.
    EXPECT_EQ(for_terminal(Untrusted(c.out)), c.out);
  }
}

TEST(ForMarkdown, LeavesNoMarkupOrLink) {
  EXPECT_EQ(for_markdown(Untrusted("[x](https://evil.example/y) ![](p.png) **b** `c`")),
            "\\[x\\]\\(https\\:\\/\\/evil\\.example\\/y\\) \\!\\[\\]\\(p\\.png\\) \\*\\*b\\*\\* "
            "\\`c\\`");
  EXPECT_EQ(for_markdown(Untrusted("a|b <i>&amp;")), "a\\|b \\<i\\>\\&amp\\;");
  EXPECT_EQ(for_markdown(Untrusted("line\nbreak\x1b")), "line\\\\nbreak\\\\x1b");
  EXPECT_EQ(for_markdown(Untrusted("www.evil.example")), "www\\.evil\\.example");
}

TEST(ForWorkflow, KeepsACommandOneCommand) {
  EXPECT_EQ(for_workflow_message(Untrusted("50% done\n::error::x")), "50%25 done\\n::error::x");
  EXPECT_EQ(for_workflow_property(Untrusted("a,b:c%")), "a%2Cb%3Ac%25");
}

TEST(ForXml, IsWellFormedText) {
  EXPECT_EQ(for_xml(Untrusted("<a href='x'>\"&\"</a>]]>")),
            "&lt;a href=&apos;x&apos;&gt;&quot;&amp;&quot;&lt;/a&gt;]]&gt;");
  EXPECT_EQ(for_xml(Untrusted("caf\xe9\x01")), "caf\\xe9\\x01");
}

TEST(ForJson, IsUtf8AndElseTheSame) {
  EXPECT_EQ(for_json(Untrusted("caf\xe9.yaml")), "caf\\xe9.yaml");
  EXPECT_EQ(for_json(Untrusted("\x1b keeps its data \xc3\xa9")), "\x1b keeps its data \xc3\xa9");
  EXPECT_TRUE(is_utf8("grüße"));
  EXPECT_FALSE(is_utf8("caf\xe9"));
}

TEST(ForHtml, EscapesMarkupAndControls) {
  EXPECT_EQ(for_html(Untrusted("<script>alert('x')</script>\x1b")),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;\\x1b");
}

TEST(ForCodeBlock, KeepsLinesAndTabs) {
  EXPECT_EQ(for_code_block(Untrusted("a\tb\r\nc\x1b\xe2\x80\xae\n")), "a\tb\r\nc\\x1b\\u202e\n");
}

}  // namespace
}  // namespace archfit
