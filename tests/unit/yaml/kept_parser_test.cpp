// Each thread keeps one libyaml parser and rewinds it between documents
// (src/yaml/libyaml_parser.cpp). A rewound parser must read every document as
// a new one would: after documents that parse and after ones that stop at an
// error halfway (tokens queued, tag directives open), over and over.
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/yaml/graft.hpp>
#include <archfit/yaml/parse.hpp>

#include "yaml/libyaml.hpp"

namespace archfit::yaml {
namespace {

const std::vector<std::string> kGood = {
    "a: 1\nb: [x, y, {z: w}]\nc: &anchor\n  d: e\nf: *anchor\n",
    "%TAG !e! tag:example.com,2000:\n--- !e!thing\nkey: !!str value\nlist:\n- !e!item one\n- two\n",
    "text: |\n  line one\n  line two\nfolded: >-\n  a\n  b\n\"quoted key\": 'single'\n",
    "- [1, 2, [3, [4, [5]]]]\n- {a: {b: {c: {d: e}}}}\n- ? complex key\n  : value\n",
    "",
};

const std::vector<std::string> kBad = {
    "a: [1, 2\n",
    "%TAG !e! tag:example.com,2000:\n--- !e!thing\nkey: [!e!x {\n",
    "key: \"unterminated\n",
    "- a\n b: c\n",
    "{a: 1, b: [2, {c: \n",
    "a: *nowhere\n",
    "%YAML 1.1\n%YAML 1.1\n---\na: 1\n",
    "key: !<tag:unclosed value\n",
};

std::string error_of(const std::string& text) {
  try {
    parse_document(text);
  } catch (const Error& e) {
    return e.message() + " at " + std::to_string(e.where().line) + ":" +
           std::to_string(e.where().column);
  }
  return "";
}

TEST(KeptParser, ReadsEveryDocumentAsANewParserWouldAfterErrorsAndSuccesses) {
  std::vector<Tree> first;
  for (const std::string& g : kGood)
    first.push_back(parse_document(g));
  std::vector<std::string> errors;
  for (const std::string& b : kBad) {
    errors.push_back(error_of(b));
    EXPECT_FALSE(errors.back().empty()) << b;
  }
  for (int round = 0; round < 50; ++round) {
    for (std::size_t i = 0; i < kBad.size(); ++i) {
      const std::string& b = kBad[(i + static_cast<std::size_t>(round)) % kBad.size()];
      EXPECT_EQ(error_of(b), errors[(i + static_cast<std::size_t>(round)) % kBad.size()]);
      const std::size_t g = (i + static_cast<std::size_t>(round)) % kGood.size();
      EXPECT_EQ(tree_difference(parse_document(kGood[g]), first[g]), "") << kGood[g];
    }
  }
}

TEST(KeptParser, EachThreadHasItsOwnAndASecondParserAtOnceIsAnotherOne) {
  auto first_scalar = [](detail::Parser& p) {
    detail::Event e;
    while (e.next(p)) {
      if (e->type == YAML_SCALAR_EVENT)
        return std::string(reinterpret_cast<const char*>(e->data.scalar.value));
    }
    return std::string("(error)");
  };
  {
    detail::Parser a("outer: 1\n");
    detail::Parser b("inner: 2\n");
    EXPECT_EQ(first_scalar(b), "inner");
    EXPECT_EQ(first_scalar(a), "outer");
  }
  std::vector<std::thread> threads;
  std::vector<std::string> got(4);
  for (std::size_t t = 0; t < got.size(); ++t) {
    threads.emplace_back([t, &got] {
      for (int i = 0; i < 200; ++i) {
        const std::string text = "k" + std::to_string(t) + ": [" + std::to_string(i) + "]\n";
        Tree tree = parse_document(text);
        if (tree.root().get("k" + std::to_string(t)).item(0).scalar() != std::to_string(i)) return;
        static_cast<void>(error_of("x: [\n"));
      }
      got[t] = "ok";
    });
  }
  for (std::thread& th : threads)
    th.join();
  EXPECT_EQ(got, std::vector<std::string>(4, "ok"));
}

}  // namespace
}  // namespace archfit::yaml
