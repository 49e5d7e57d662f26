// naive: the allreduce is an ordinary engine op. Two keys' allreduces are unordered, so a comm
// pool with several threads (or one FIFO thread and different backward timings) can issue them in
// different orders on different ranks. Kept as the design the checker must refute.
#include <vector>

#include "runtime/designs/makers.hpp"

namespace ordo::designs {

namespace {

class Naive final : public Design {
 public:
  using Design::Design;
  std::vector<KeyVars> push(const KeyVars& k) override {
    // Out of place from the gradient into the buffer, or in place on the gradient.
    std::vector<dag::VarId> reads;
    if (!in_place(k)) reads.push_back(k.grad);
    main().submit(collective_op(op_name("allreduce", k), allreduce(k, world_comm), std::move(reads),
                                {k.buf}));
    return {k};
  }
};

}  // namespace

std::unique_ptr<Design> make_naive(const DesignConfig& config, dag::ProgramSink& main,
                                   dag::Rank rank) {
  return std::make_unique<Naive>(config, main, rank);
}

}  // namespace ordo::designs
