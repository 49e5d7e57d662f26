// The properties are only as strong as the instances they see: a generator that drifted into
// jobs that are all safe, all unsafe or all beyond the checker's bounds would leave them passing
// and empty. Each family, sampled from fixed seeds, must give both verdicts and mostly decided
// instances.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "fuzz/lib/verdicts.hpp"
#include "fuzz/props/families.hpp"

namespace ordo::fuzz {
namespace {

struct Tally {
  int safe = 0;
  int unsafe = 0;
  int unknown = 0;
};

Tally sample(const rc::Gen<Instance>& family, int count) {
  Tally tally;
  for (int i = 0; i < count; ++i) {
    const Instance instance = family(rc::Random(static_cast<std::uint64_t>(i) + 1), 50).value();
    switch (decide(instance).result.verdict) {
      case checker::Verdict::safe:
        ++tally.safe;
        break;
      case checker::Verdict::unsafe:
        ++tally.unsafe;
        break;
      case checker::Verdict::unknown:
        ++tally.unknown;
        break;
    }
  }
  return tally;
}

// At least a tenth of each verdict, and at most a third undecided.
void expect_mixed(const Tally& t, int count) {
  EXPECT_GE(t.safe * 10, count) << t.safe << " safe of " << count;
  EXPECT_GE(t.unsafe * 10, count) << t.unsafe << " unsafe of " << count;
  EXPECT_LE(t.unknown * 3, count) << t.unknown << " unknown of " << count;
}

TEST(Coverage, DesignJobsGiveBothVerdicts) { expect_mixed(sample(design_jobs(), 24), 24); }

TEST(Coverage, HeterogeneousJobsGiveBothVerdicts) {
  expect_mixed(sample(heterogeneous_jobs(), 24), 24);
}

TEST(Coverage, RawProgramsGiveBothVerdicts) { expect_mixed(sample(raw_jobs(), 200), 200); }
TEST(Coverage, MessageJobsGiveBothVerdicts) { expect_mixed(sample(message_jobs(), 200), 200); }

}  // namespace
}  // namespace ordo::fuzz
