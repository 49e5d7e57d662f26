// naive: the allreduce is an ordinary engine op. Two keys' allreduces are unordered, so a comm
// pool with several threads (or one FIFO thread and different backward timings) can issue them in
// different orders on different ranks. Kept as the design the checker must refute.
#include "runtime/kvstore/designs/designs.hpp"

namespace ordo::kvstore {

namespace {

class Naive final : public Design {
 public:
  using Design::Design;
  void push(const KeyVars& k) override {
    main().push(collective_op(op_name("allreduce", k), allreduce(k, world_comm), {k.grad}, {k.buf}));
  }
  void pull(const KeyVars& k) override { push_copy(op_name("pull", k), k.buf, k.grad); }
};

}  // namespace

std::unique_ptr<Design> make_naive(const DesignConfig& config, MainThread& main) {
  return std::make_unique<Naive>(config, main);
}

}  // namespace ordo::kvstore
