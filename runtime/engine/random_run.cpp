#include "runtime/engine/random_run.hpp"

#include <cassert>
#include <vector>

namespace ordo::engine {
namespace {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, bound): draws past the largest multiple of bound are rejected.
  std::uint64_t below(std::uint64_t bound) {
    assert(bound > 0);
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t draw = next();
    while (draw >= limit) draw = next();
    return draw % bound;
  }

 private:
  std::uint64_t state_;
};

}  // namespace

RandomRun take_random_decisions(ControlledScheduler& scheduler, std::uint64_t seed,
                                std::uint64_t decisions_max) {
  SplitMix64 random(seed);
  RandomRun run;
  while (run.decisions < decisions_max) {
    const std::vector<Decision> legal = scheduler.legal_decisions();
    if (legal.empty()) {
      run.quiescent = true;
      break;
    }
    scheduler.apply(legal[random.below(legal.size())]);
    ++run.decisions;
  }
  assert(run.decisions <= decisions_max);
  return run;
}

}  // namespace ordo::engine
