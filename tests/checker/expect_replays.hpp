// The check every unsafe answer gets in the checker's suites: its witness, replayed transition by
// transition on the runtime's controlled run, ends in the violation the checker named.
#pragma once

#include <gtest/gtest.h>

#include <optional>

#include "checker/search/explore.hpp"
#include "tests/checker/replay.hpp"

namespace ordo::checker::testing {

inline void expect_replays(const dag::Job& job, std::uint32_t ranks, const Result& result) {
  exec::ControlledRun run(job, ranks);
  const std::optional<exec::RunOutcome> end = replay(run, result.witness);
  ASSERT_TRUE(end);
  ASSERT_EQ(end->end, exec::RunEnd::violation) << end->report;
  ASSERT_TRUE(run.violation());
  EXPECT_EQ(run.violation()->index(), result.violation->index()) << end->report;
}

}  // namespace ordo::checker::testing
