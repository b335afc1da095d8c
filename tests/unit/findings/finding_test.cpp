// A finding left to a person: not fixable, and its promise of what fix does
// turned into what to do by hand.
#include <string>

#include <gtest/gtest.h>

#include <archfit/findings/finding.hpp>

namespace archfit::findings {
namespace {

std::string left(const std::string& message) {
  Finding f;
  f.fixable = true;
  f.message = message;
  leave_to_a_person(f);
  EXPECT_FALSE(f.fixable);
  return f.message;
}

TEST(LeaveToAPerson, FixsPromiseBecomesWhatToDoByHand) {
  EXPECT_EQ(left("the pods do not tolerate it; archfit fix adds the tolerations"),
            "the pods do not tolerate it; archfit cannot edit this template, so by hand: add the "
            "tolerations");
  EXPECT_EQ(left("(respectExisting is false): archfit fix replaces them"),
            "(respectExisting is false): archfit cannot edit this template, so by hand: replace "
            "them");
  EXPECT_EQ(left("stale; archfit fix updates it"),
            "stale; archfit cannot edit this template, so by hand: update it");
  EXPECT_EQ(left("archfit fix would change this template's placement"),
            "archfit cannot edit this template; fix would change this template's placement");
  EXPECT_EQ(left("nothing to promise"), "nothing to promise");
  // Twice in one message, each turned.
  EXPECT_EQ(left("a; archfit fix adds x; archfit fix narrows y"),
            "a; archfit cannot edit this template, so by hand: add x; archfit cannot edit this "
            "template, so by hand: narrow y");
}

}  // namespace
}  // namespace archfit::findings
