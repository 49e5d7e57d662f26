#include "runtime/engine/random_run.hpp"

#include <cassert>
#include <vector>

#include "runtime/random/split_mix64.hpp"

namespace ordo::engine {

RandomRun take_random_decisions(ControlledScheduler& scheduler, std::uint64_t seed,
                                std::uint64_t decisions_max) {
  random::SplitMix64 rng(seed);
  RandomRun run;
  while (run.decisions < decisions_max) {
    const std::vector<Decision> legal = scheduler.legal_decisions();
    if (legal.empty()) {
      run.quiescent = true;
      break;
    }
    scheduler.apply(legal[rng.below(legal.size())]);
    ++run.decisions;
  }
  assert(run.decisions <= decisions_max);
  return run;
}

}  // namespace ordo::engine
