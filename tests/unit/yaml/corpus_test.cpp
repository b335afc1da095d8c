// Every corpus file through the stream reader and the parser: byte-identical
// round trips, and spans that point at the text they claim.
#include "support/corpus.hpp"

#include <gtest/gtest.h>

#include <archfit/base/error.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/stream.hpp>

namespace archfit::yaml {
namespace {

// Checks the span of every node against the source text and returns how many
// nodes were checked.
std::size_t check_spans(const Tree& tree, const std::string& file) {
  std::size_t checked = 0;
  for (NodeId id = 0; id < tree.node_count(); ++id) {
    NodeRef n(&tree, id);
    std::string_view text = n.text();
    bool props = !n.anchor().empty() || !n.tag().empty();
    ++checked;
    switch (n.kind()) {
      case Kind::Scalar:
        if (props) break;
        if (n.style() == Style::Plain) {
          // A plain scalar on one line is its own text; a multi-line one folds.
          if (text.find_first_of("\r\n") == std::string_view::npos) {
            EXPECT_EQ(text, n.scalar()) << file << ":" << n.line();
          } else {
            EXPECT_NE(text, n.scalar()) << file << ":" << n.line();
          }
        } else if (n.style() == Style::SingleQuoted) {
          EXPECT_TRUE(text.size() >= 2 && text.front() == '\'' && text.back() == '\'')
              << file << ":" << n.line() << " " << text;
        } else if (n.style() == Style::DoubleQuoted) {
          EXPECT_TRUE(text.size() >= 2 && text.front() == '"' && text.back() == '"')
              << file << ":" << n.line() << " " << text;
        } else if (n.style() == Style::Literal || n.style() == Style::Folded) {
          EXPECT_TRUE(!text.empty() && (text.front() == '|' || text.front() == '>'))
              << file << ":" << n.line() << " " << text;
        }
        break;
      case Kind::Mapping:
      case Kind::Sequence:
        if (props) break;
        if (n.style() == Style::Flow) {
          char open = n.kind() == Kind::Mapping ? '{' : '[';
          char close = n.kind() == Kind::Mapping ? '}' : ']';
          EXPECT_TRUE(text.size() >= 2 && text.front() == open && text.back() == close)
              << file << ":" << n.line() << " " << text.substr(0, 40);
        } else if (n.kind() == Kind::Mapping && n.size() > 0) {
          // A block mapping starts at its first key and ends at its last value.
          EXPECT_EQ(n.span().begin, n.key(0).span().begin) << file << ":" << n.line();
          EXPECT_EQ(n.span().end, n.value(n.size() - 1).span().end) << file << ":" << n.line();
        } else if (n.kind() == Kind::Sequence && n.size() > 0) {
          EXPECT_EQ(text.front(), '-') << file << ":" << n.line();
        }
        break;
      case Kind::Alias:
        EXPECT_EQ(text.front(), '*');
        break;
    }
  }
  return checked;
}

TEST(Corpus, EveryFileRoundTripsAndParses) {
  auto files = archfit::testing::corpus_files();
  ASSERT_FALSE(files.empty());
  std::size_t documents = 0;
  std::size_t nodes = 0;
  std::size_t refused = 0;
  for (const auto& path : files) {
    std::string file = path.filename().string();
    std::string data = archfit::testing::read(path);
    auto docs = split_stream(data);
    std::string joined;
    for (const auto& d : docs)
      joined += d.text;
    ASSERT_EQ(joined, data) << file << " does not round-trip through the stream reader";
    for (const auto& d : docs) {
      try {
        Tree tree = parse_document(d.text, d.first_line, archfit::testing::as_written());
        nodes += check_spans(tree, file);
        ++documents;
      } catch (const Error& e) {
        ADD_FAILURE() << e.in_file(file).what();
      }
      // archfit's own reading refuses exactly the known keys given twice.
      std::uint32_t refused_at = 0;
      try {
        parse_document(d.text, d.first_line);
      } catch (const Error& e) {
        refused_at = e.where().line;
        EXPECT_NE(e.message().find("duplicate key"), std::string::npos) << e.in_file(file).what();
      }
      bool known = false;
      for (const auto& dup : archfit::testing::corpus_duplicate_keys()) {
        known = known || (file == dup.file && refused_at == dup.line);
      }
      EXPECT_TRUE(refused_at == 0 || known) << file << ":" << refused_at << " refused";
      if (refused_at != 0) ++refused;
    }
  }
  EXPECT_EQ(refused, archfit::testing::corpus_duplicate_keys().size());
  EXPECT_GT(documents, 900u);
  EXPECT_GT(nodes, 100000u);
}

// The kyverno files use CRLF and have no final newline; kube-prometheus has a
// bare `- =` enum entry that some YAML loaders reject.
TEST(Corpus, SpecialFilesParse) {
  auto dir = archfit::testing::corpus_dir();
  for (const char* name :
       {"kyverno__kyverno__test_cli_test_images_verify-signature_resources.yaml",
        "kyverno__kyverno__test_cli_test-mutate_foreach_replaceRegistry_resources.yaml"}) {
    std::string data = archfit::testing::read(dir / name);
    ASSERT_NE(data.find("\r\n"), std::string::npos) << name;
    ASSERT_NE(data.back(), '\n') << name;
    std::size_t pods = 0;
    for (const auto& d : split_stream(data)) {
      Tree tree = parse_document(d.text, d.first_line);
      if (tree.root().get("kind").scalar() == "Pod") {
        ++pods;
        EXPECT_FALSE(
            tree.root().get("spec").get("containers").item(0).get("image").scalar().empty());
      }
    }
    EXPECT_GT(pods, 0u) << name;
  }

  std::string prom =
      archfit::testing::read(dir / "prometheus-operator__kube-prometheus__manifests_concat.yaml");
  std::size_t pos = prom.find("- =\n");
  ASSERT_NE(pos, std::string::npos);
  bool found = false;
  for (const auto& d : split_stream(prom)) {
    if (pos < d.offset || pos >= d.offset + d.text.size()) continue;
    Tree tree = parse_document(d.text, d.first_line);
    for (NodeId id = 0; id < tree.node_count(); ++id) {
      NodeRef n(&tree, id);
      if (n.is_scalar() && n.scalar() == "=" && n.span().begin == pos - d.offset + 2) found = true;
    }
  }
  EXPECT_TRUE(found) << "the bare '=' enum entry was not read as the scalar \"=\"";
}

}  // namespace
}  // namespace archfit::yaml
