// Trees built on arrays that earlier trees of the thread gave back are the
// trees a thread with none builds: nothing of the earlier ones stays.
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/yaml/graft.hpp>
#include <archfit/yaml/parse.hpp>

namespace archfit::yaml {
namespace {

// Documents of very different sizes, so that a later tree takes an array
// that held more nodes than it has.
std::vector<std::string> documents() {
  std::vector<std::string> out;
  for (int n : {1, 400, 3, 90, 2000, 7, 1, 650, 20}) {
    std::string text = "kind: List\nitems:\n";
    for (int i = 0; i < n; ++i)
      text += "- {name: item-" + std::to_string(i) + ", values: [a, b]}\n";
    out.push_back(std::move(text));
  }
  return out;
}

TEST(TreeStorage, TreesOnGivenBackArraysAreFreshTrees) {
  std::vector<std::string> texts = documents();
  for (int round = 0; round < 3; ++round) {
    for (const std::string& text : texts) {
      Tree reused = parse_document(text, 0);  // on arrays of the trees before it
      std::string difference;
      std::size_t fresh_nodes = 0;
      std::thread([&] {
        Tree fresh = parse_document(text, 0);
        difference = tree_difference(reused, fresh);
        fresh_nodes = fresh.node_count();
      }).join();
      ASSERT_EQ(difference, "") << text.size() << " bytes, round " << round;
      ASSERT_EQ(reused.node_count(), fresh_nodes) << text.size() << " bytes, round " << round;
    }
  }
}

}  // namespace
}  // namespace archfit::yaml
