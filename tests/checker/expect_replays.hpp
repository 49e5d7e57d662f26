// The check every unsafe answer gets in the checker's suites: its witness, replayed transition by
// transition on the runtime's controlled run (replay::replay), ends in the violation the checker
// named: the same property and the same violation, field by field.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "checker/search/explore.hpp"
#include "replay/replay.hpp"

namespace ordo::checker::testing {

inline void expect_replays(const dag::Job& job, std::uint32_t ranks, const Result& result) {
  exec::ControlledRun run(job, ranks);
  const replay::Replay r = replay::replay(run, result.witness);
  const std::optional<std::string> problem = replay::problem(r, result);
  EXPECT_FALSE(problem) << *problem;
}

}  // namespace ordo::checker::testing
