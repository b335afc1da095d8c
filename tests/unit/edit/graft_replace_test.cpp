// The law behind grafting a key's empty value written out: wherever the
// editor turns `key: {}` or `key: []` into a block collection (alone, or
// with new entries beside it) and yaml::graft builds the edited tree, that
// tree is the one parsing the edited text gives; and the plain cases graft.
// Over generated documents: indentation steps of 1 to 4, sequences under
// their key or indented, keys quoted or after a dash, values last in their
// mapping, in the document, or followed by a shallower line, comments and
// trailing blanks.
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <archfit/edit/editor.hpp>
#include <archfit/edit/layout.hpp>
#include <archfit/yaml/graft.hpp>
#include <archfit/yaml/parse.hpp>
#include <archfit/yaml/value.hpp>

#include "support/corpus.hpp"

namespace archfit::edit {
namespace {

using yaml::Value;

class Generator {
 public:
  explicit Generator(std::uint32_t seed) : random_(seed) {}

  std::string document() {
    step_ = pick(1, 4);
    out_.clear();
    if (pick(0, 3) == 0) out_ += "# a comment before\n";
    mapping(0, 0);
    return out_;
  }

 private:
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(random_); }

  std::string key(int i) {
    switch (pick(0, 5)) {
      case 0:
        return "\"quoted-" + std::to_string(i) + "\"";
      case 1:
        return "'single " + std::to_string(i) + "'";
      default:
        return "key" + std::to_string(i);
    }
  }

  // A block mapping whose keys stand at `column` (the first one after
  // `lead`, which may be "- ").
  void mapping(int column, int depth, const std::string& lead = "") {
    int entries = pick(1, 4);
    for (int e = 0; e < entries; ++e) {
      out_ += e == 0 && !lead.empty()
                  ? std::string(static_cast<std::size_t>(column) - lead.size(), ' ') + lead
                  : std::string(static_cast<std::size_t>(column), ' ');
      out_ += key(e) + ":";
      int what = depth >= 3 ? pick(0, 2) : pick(0, 5);
      switch (what) {
        case 0:
          out_ += " value";
          break;
        case 1:
          out_ += " {}";
          break;
        case 2:
          out_ += " []";
          break;
        case 3:
          out_ += "\n";
          mapping(column + step_, depth + 1);
          continue;
        case 4: {
          out_ += "\n";
          int dash = column + (pick(0, 1) == 0 ? 0 : step_);
          int items = pick(1, 3);
          for (int i = 0; i < items; ++i) {
            if (pick(0, 1) == 0) {
              out_ += std::string(static_cast<std::size_t>(dash), ' ') + "- item\n";
            } else {
              mapping(dash + 2, depth + 1, "- ");
            }
          }
          continue;
        }
        default:
          out_ += " {a: 1}";
      }
      switch (pick(0, 7)) {
        case 0:
          out_ += "  ";  // trailing blanks: the value does not end its line
          break;
        case 1:
          out_ += " # a comment";
          break;
        default:
          break;
      }
      out_ += "\n";
    }
  }

  std::mt19937 random_;
  int step_ = 2;
  std::string out_;
};

Value written_out(bool mapping, int n) {
  if (mapping) {
    Value inner = Value::mapping();
    inner.set("requiredDuringSchedulingIgnoredDuringExecution",
              Value::sequence({Value::string("amd64"), Value::integer(n)}));
    Value v = Value::mapping();
    v.set("nodeAffinity", std::move(inner));
    if (n % 2 == 0) v.set("second", Value::string("x"));
    return v;
  }
  Value item = Value::mapping();
  item.set("key", Value::string("kubernetes.io/arch"));
  item.set("operator", Value::string("Exists"));
  if (n % 2 == 0) return Value::sequence({std::move(item), Value::string("plain")});
  return Value::sequence({std::move(item)});
}

TEST(GraftReplace, WrittenOutValuesGraftAsTheyParse) {
  Generator generate(20261127);
  std::size_t edits = 0;
  std::size_t grafted = 0;
  std::size_t plain = 0;          // `key: {}` or `key: []` then the line's end
  std::size_t plain_grafted = 0;  // of those, grafted
  for (int round = 0; round < 1500; ++round) {
    std::string text = generate.document();
    yaml::Tree tree = yaml::parse_document(text, 0, archfit::testing::as_written());
    Layout layout = detect_layout(tree);
    for (yaml::NodeId id = 0; id < tree.node_count(); ++id) {
      yaml::NodeRef m(&tree, id);
      if (!m.is_mapping() || m.style() != yaml::Style::Block) continue;
      for (std::size_t i = 0; i < m.size(); ++i) {
        yaml::NodeRef value = m.value(i);
        if (value.style() != yaml::Style::Flow || value.size() != 0) continue;
        std::string name(m.key(i).scalar());
        DocumentEditor editor(tree, layout);
        if (!editor.try_set(m, {name}, written_out(value.is_mapping(), round))) continue;
        // Now and then a new entry beside it as well.
        if (round % 3 == 0) editor.try_set(m, {"added-too"}, Value::string("y"));
        std::vector<yaml::Insertion> insertions = editor.insertions();
        if (insertions.empty()) continue;
        ++edits;
        std::string edited = editor.apply();
        std::uint32_t end = value.span().end;
        bool is_plain = end < text.size() && text[end] == '\n';
        plain += is_plain;
        std::optional<yaml::Tree> graft =
            yaml::graft(tree, edited, insertions, archfit::testing::as_written());
        if (!graft) continue;
        ++grafted;
        plain_grafted += is_plain;
        yaml::Tree parsed = yaml::parse_document(edited, 0, archfit::testing::as_written());
        ASSERT_EQ(yaml::tree_difference(*graft, parsed), "") << text << "----\n" << edited;
      }
    }
  }
  std::cout << "[ graft    ] " << grafted << " of " << edits << " written-out values grafted ("
            << plain_grafted << " of the " << plain << " that end their line)\n";
  EXPECT_GT(edits, 1000u);
  // Every plain one grafts, apart from those a limit or a neighbour keeps
  // out; none of the others.
  EXPECT_GT(plain_grafted * 10, plain * 9);
}

// Lines given to graft by hand, as no editor writes them: where they would
// read as something else in place, graft declines; where they read as the
// value, its tree is the parsed one.
TEST(GraftReplace, LinesThatWouldReadOtherwiseAreDeclined) {
  struct Case {
    std::string value;  // `{}` or `[]`
    std::string lines;  // the replacement, from after "k:"
    bool grafts;
  };
  const Case cases[] = {
      {"{}", "\n    x: 1", true},          // deeper than the key: k's mapping
      {"{}", "\n  x: 1", false},           // at the key's column: a new key of `a`
      {"{}", "\n   x: 1\n  y: 2", false},  // the second line is `a`'s again
      {"[]", "\n  - x", true},             // a sequence may stand at its key's column
      {"[]", "\n    - x\n    - y", true},
      {"[]", "\n - x", false},                  // shallower than the key
      {"{}", "\n    - x", false},               // a sequence for a mapping
      {"[]", "\n    x: 1", false},              // a mapping for a sequence
      {"{}", "\n    x: |\n      text", false},  // ends in a block scalar
  };
  for (const Case& c : cases) {
    std::string text = "a:\n  k: " + c.value + "\n  z: 1\n";
    yaml::Tree tree = yaml::parse_document(text, 0);
    yaml::NodeRef k = tree.root().get("a").get("k");
    ASSERT_TRUE(k);
    std::uint32_t at = static_cast<std::uint32_t>(text.find(": " + c.value)) + 1;
    std::string edited = text.substr(0, at) + c.lines + text.substr(k.span().end);
    yaml::Insertion in{k.id(), 0, at, c.lines, k.span().end};
    std::optional<yaml::Tree> graft = yaml::graft(tree, edited, {&in, 1});
    EXPECT_EQ(graft.has_value(), c.grafts) << edited;
    if (graft) {
      EXPECT_EQ(yaml::tree_difference(*graft, yaml::parse_document(edited, 0)), "") << edited;
    }
  }
}

}  // namespace
}  // namespace archfit::edit
