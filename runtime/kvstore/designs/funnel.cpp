// funnel (paper Fig. 5-7): the engine only copies the gradient into the buffer; the main thread
// waits for the copy and calls the allreduce itself, so every rank issues them in key order.
#include "runtime/kvstore/designs/designs.hpp"

namespace ordo::kvstore {

namespace {

class Funnel final : public Design {
 public:
  using Design::Design;
  void push(const KeyVars& k) override {
    push_copy(op_name("push", k), k.grad, k.buf);
    main().wait_to_read(k.buf);
    main().collective(dag::CollectiveAction{allreduce(k, world_comm), k.buf});
  }
  void pull(const KeyVars& k) override { push_copy(op_name("pull", k), k.buf, k.grad); }
};

}  // namespace

std::unique_ptr<Design> make_funnel(const DesignConfig& config, MainThread& main) {
  return std::make_unique<Funnel>(config, main);
}

}  // namespace ordo::kvstore
