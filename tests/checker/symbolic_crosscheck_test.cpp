// The symbolic checker against explicit search, on every small instance both can decide: the
// hand-written jobs with known verdicts and the designs on small networks at 2 and 3 ranks. Where
// both decide they must give the same verdict and the same property; the symbolic side may only
// be undecided where its reason says why, and never contradict the search.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "checker/search/explore.hpp"
#include "checker/symbolic/decide.hpp"
#include "runtime/networks/network.hpp"
#include "tests/checker/jobs.hpp"
#include "tests/checker/replay.hpp"

namespace ordo::checker::testing {
namespace {

using designs::DesignKind;
using Outcome = symbolic::SymbolicResult::Outcome;

struct Instance {
  std::string name;
  dag::Job job;
  std::uint32_t ranks;
};

struct Tally {
  int compared = 0;
  int symbolic_undecided = 0;
  int explicit_unknown = 0;
};

std::string property_name(const Result& r) {
  return r.property ? std::string(to_string(*r.property)) : "-";
}

void cross_check(const Instance& instance, Tally& tally) {
  SCOPED_TRACE(instance.name + " at " + std::to_string(instance.ranks) + " ranks");
  const System model(instance.job, instance.ranks);
  const symbolic::SymbolicResult s = symbolic::decide(model, {});
  const Result e = explore(model, {500'000, 60.0});
  std::printf("  %-44s %u ranks: symbolic %-9s %-26s explicit %-7s %s\n", instance.name.c_str(),
              instance.ranks, std::string(symbolic::to_string(s.outcome)).c_str(),
              property_name(s.result).c_str(), std::string(to_string(e.verdict)).c_str(),
              property_name(e).c_str());
  if (s.outcome == Outcome::undecided) {
    ++tally.symbolic_undecided;
    EXPECT_FALSE(s.undecided_reason.empty());
    return;
  }
  if (s.outcome == Outcome::unsafe) {
    // A symbolic witness is a real schedule whatever the search says.
    exec::ControlledRun run(instance.job, instance.ranks);
    const std::optional<exec::RunOutcome> end = replay(run, s.result.witness);
    ASSERT_TRUE(end);
    EXPECT_NE(end->end, exec::RunEnd::finished) << end->report;
  }
  if (e.verdict == Verdict::unknown) {
    ++tally.explicit_unknown;
    return;
  }
  ++tally.compared;
  EXPECT_EQ(s.result.verdict, e.verdict) << symbolic::report(model, s) << report(model, e);
  EXPECT_EQ(s.result.property, e.property) << symbolic::report(model, s) << report(model, e);
}

designs::DesignConfig design(DesignKind kind, std::uint32_t comm_threads, std::uint32_t ncomm = 2,
                             std::uint32_t outstanding = 2) {
  designs::DesignConfig c = config(kind, comm_threads);
  c.ncomm = ncomm;
  c.outstanding = outstanding;
  return c;
}

TEST(SymbolicCrossCheck, HandWrittenJobs) {
  Tally tally;
  cross_check({"allreduce counts 2 and 1", allreduce_counts(2, 1), 2}, tally);
  cross_check({"allreduce counts 2 and 2", allreduce_counts(2, 2), 2}, tally);
  cross_check({"barrier cycle", barrier_cycle(), 3}, tally);
  cross_check({"barrier chain", barrier_chain(), 3}, tally);
  EXPECT_EQ(tally.compared, 4);
}

TEST(SymbolicCrossCheck, DesignsOnSmallNetworks) {
  const std::vector<std::pair<std::string, networks::Network>> networks{
      {"one key", one_key()}, {"branches", branches()}, {"mlp 1x2", networks::mlp(1, 2, 1.0)}};
  const std::vector<std::pair<std::string, designs::DesignConfig>> designs{
      {"naive 1 thread", design(DesignKind::naive, 1)},
      {"naive 2 threads", design(DesignKind::naive, 2)},
      {"funnel", design(DesignKind::funnel, 2)},
      {"depcha 1 thread", design(DesignKind::depcha, 1)},
      {"depcha 2 threads", design(DesignKind::depcha, 2)},
      {"concom 2/2 2 threads", design(DesignKind::concom, 2, 2, 2)},
      {"concom 1/2 2 threads", design(DesignKind::concom, 2, 1, 2)},
      {"concom 2/2 1 thread", design(DesignKind::concom, 1, 2, 2)},
      {"concom 1/1 1 thread", design(DesignKind::concom, 1, 1, 1)},
  };
  Tally tally;
  for (const auto& [net_name, network] : networks) {
    for (const auto& [design_name, c] : designs) {
      const dag::Job job = step_job(network, c);
      for (std::uint32_t ranks : {2u, 3u}) {
        cross_check({net_name + ", " + design_name, job, ranks}, tally);
      }
    }
  }
  std::printf("  compared %d, symbolic undecided %d, explicit unknown %d\n", tally.compared,
              tally.symbolic_undecided, tally.explicit_unknown);
  EXPECT_GE(tally.compared, 30);
}

}  // namespace
}  // namespace ordo::checker::testing
