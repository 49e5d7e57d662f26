// Names of a folder's entries: one name, or a numbered family read off the function that names
// its members.
#include "runtime/paths/name_pattern.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace ordo::paths {
namespace {

TEST(NamePattern, ExactMatchesItsNameAlone) {
  const NamePattern p = NamePattern::exact("program.json");
  EXPECT_TRUE(p.matches("program.json"));
  EXPECT_FALSE(p.matches("program.json.tmp"));
  EXPECT_EQ(p.words(), "program.json");
}

TEST(NamePattern, NumberedIsReadOffTheNamesOfZeroAndOne) {
  const NamePattern p = NamePattern::numbered_as(
      [](std::uint64_t k) { return "t.json.rank-" + std::to_string(k) + ".json"; });
  EXPECT_EQ(p.words(), "t.json.rank-K.json");
  EXPECT_TRUE(p.matches("t.json.rank-0.json"));
  EXPECT_TRUE(p.matches("t.json.rank-1234.json"));
  EXPECT_FALSE(p.matches("t.json.rank-.json"));
  EXPECT_FALSE(p.matches("t.json.rank-x.json"));
  EXPECT_FALSE(p.matches("t.json"));
  const NamePattern step =
      NamePattern::numbered_as([](std::uint64_t k) { return "step-" + std::to_string(k); });
  EXPECT_TRUE(step.matches("step-12"));
  EXPECT_FALSE(step.matches("step-12.tmp"));
}

TEST(NamePattern, NamesThatDifferInMoreThanANumberAreRefused) {
  EXPECT_THROW(NamePattern::numbered_as([](std::uint64_t k) { return k == 0 ? "a" : "b"; }),
               std::logic_error);
}

TEST(NamePattern, OverlapIsSomeNameOfBoth) {
  const NamePattern dumps = NamePattern::numbered("rank-", ".json");
  EXPECT_TRUE(overlap(dumps, NamePattern::exact("rank-3.json")));
  EXPECT_FALSE(overlap(dumps, NamePattern::exact("program.json")));
  EXPECT_TRUE(overlap(dumps, NamePattern::numbered("rank-", ".json")));
  EXPECT_FALSE(overlap(dumps, NamePattern::numbered("t.rank-", ".json")));
  EXPECT_TRUE(overlap(NamePattern::numbered("rank-1", ".json"), dumps));
}

}  // namespace
}  // namespace ordo::paths
