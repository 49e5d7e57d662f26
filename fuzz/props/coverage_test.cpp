// The properties are only as strong as the instances they see: a generator that drifted into
// jobs that are all safe, all unsafe or all beyond the checker's bounds would leave them passing
// and empty. Each family, sampled from fixed seeds, must give both verdicts and mostly decided
// instances.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <map>

#include "fuzz/lib/verdicts.hpp"
#include "fuzz/props/families.hpp"

namespace ordo::fuzz {
namespace {

struct Tally {
  int safe = 0;
  int unsafe = 0;
  int unknown = 0;
  std::map<checker::Property, int> broken;  // the unsafe ones by the property they break
};

Tally sample(const rc::Gen<Instance>& family, int count) {
  Tally tally;
  for (int i = 0; i < count; ++i) {
    const Instance instance = family(rc::Random(static_cast<std::uint64_t>(i) + 1), 50).value();
    const Decision decision = decide(instance);
    switch (decision.result.verdict) {
      case checker::Verdict::safe:
        ++tally.safe;
        break;
      case checker::Verdict::unsafe:
        ++tally.unsafe;
        ++tally.broken[*decision.result.property];
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

// Raw programs call collectives from the main thread on vars their ops touch, so they reach P5
// (docs/semantics.md, B3) as well as the order properties; neither may crowd the other out.
TEST(Coverage, RawProgramsGiveBothVerdicts) {
  const Tally t = sample(raw_jobs(), 200);
  expect_mixed(t, 200);
  const auto count = [&t](checker::Property p) {
    const auto at = t.broken.find(p);
    return at == t.broken.end() ? 0 : at->second;
  };
  EXPECT_GE(count(checker::Property::p5_buffers) * 20, 200) << "P5 in too few raw programs";
  EXPECT_GE((count(checker::Property::p1_order) + count(checker::Property::p2_thread_rule) +
             count(checker::Property::p3_deadlock)) *
                20,
            200)
      << "P1-P3 in too few raw programs";
}
TEST(Coverage, MessageJobsGiveBothVerdicts) { expect_mixed(sample(message_jobs(), 200), 200); }

}  // namespace
}  // namespace ordo::fuzz
