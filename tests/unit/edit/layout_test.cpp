// detect_layout: the indentation step a document uses most (the smallest of
// equally frequent ones) and whether its sequences are indented, against a
// plain count over the document's block mappings, for generated documents
// with steps from 1 to 40.
#include <map>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <archfit/edit/layout.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::edit {
namespace {

struct Counted {
  int indent = 2;  // Layout's default when nothing says otherwise
  bool indent_sequences = false;
};

Counted count(const yaml::Tree& tree, int default_indent) {
  std::map<int, int> steps;
  int indented = 0;
  int flush = 0;
  for (yaml::NodeId id = 0; id < tree.node_count(); ++id) {
    yaml::NodeRef m(&tree, id);
    if (!m.is_mapping() || m.style() != yaml::Style::Block) continue;
    for (std::size_t i = 0; i < m.size(); ++i) {
      yaml::NodeRef key = m.key(i);
      yaml::NodeRef value = m.value(i);
      if (value.style() != yaml::Style::Block || value.line() == key.line()) continue;
      int step = static_cast<int>(value.column()) - static_cast<int>(key.column());
      if (value.is_mapping() && step > 0) ++steps[step];
      if (value.is_sequence()) (step > 0 ? indented : flush) += 1;
    }
  }
  Counted out;
  out.indent = default_indent;
  int best = 0;
  for (const auto& [step, n] : steps) {
    if (n > best) {
      best = n;
      out.indent = step;
    }
  }
  out.indent_sequences = indented > flush;
  return out;
}

// A block mapping at `column` whose nested mappings use steps drawn from a
// few, so that ties and steps wider than 32 both occur.
void mapping(std::mt19937& random, std::string& out, int column, int depth,
             const std::vector<int>& steps) {
  int entries = std::uniform_int_distribution<int>(1, 4)(random);
  for (int e = 0; e < entries; ++e) {
    out += std::string(static_cast<std::size_t>(column), ' ') + "k" + std::to_string(e) + ":";
    int what = depth >= 4 ? 0 : std::uniform_int_distribution<int>(0, 3)(random);
    if (what == 0) {
      out += " v\n";
    } else if (what == 1 || what == 2) {
      out += "\n";
      int step = steps[static_cast<std::size_t>(random() % steps.size())];
      mapping(random, out, column + step, depth + 1, steps);
    } else {
      out += "\n";
      int dash = column + (random() % 2 == 0 ? 0 : 2);
      for (int i = 0; i < 2; ++i)
        out += std::string(static_cast<std::size_t>(dash), ' ') + "- item\n";
    }
  }
}

TEST(DetectLayout, MostFrequentStepAndSequenceIndentOverGeneratedDocuments) {
  std::mt19937 random(11);
  const int default_indent = Layout().indent;
  for (int round = 0; round < 400; ++round) {
    std::vector<int> steps;
    int kinds = std::uniform_int_distribution<int>(1, 3)(random);
    for (int k = 0; k < kinds; ++k)
      steps.push_back(std::uniform_int_distribution<int>(1, 40)(random));
    std::string text;
    mapping(random, text, 0, 0, steps);
    yaml::Tree tree = yaml::parse_document(text, 0);
    Layout layout = detect_layout(tree);
    Counted want = count(tree, default_indent);
    ASSERT_EQ(layout.indent, want.indent) << text;
    ASSERT_EQ(layout.indent_sequences, want.indent_sequences) << text;
  }
}

}  // namespace
}  // namespace archfit::edit
