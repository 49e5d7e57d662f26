// Drives a controlled scheduler by uniformly random legal decisions, for systematic tests of
// properties that must hold in every execution. The generator is specified here (SplitMix64 with
// rejection sampling), not borrowed from the standard library, so a seed replays identically on
// every platform and toolchain.
#pragma once

#include <cstdint>

#include "runtime/engine/controlled_scheduler.hpp"

namespace ordo::engine {

struct RandomRun {
  std::uint64_t decisions = 0;
  bool quiescent = false;  // stopped because no decision was legal (all done, or stuck)
};

RandomRun take_random_decisions(ControlledScheduler& scheduler, std::uint64_t seed,
                                std::uint64_t decisions_max);

}  // namespace ordo::engine
