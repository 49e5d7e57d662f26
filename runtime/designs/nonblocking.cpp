// nonblocking (MPI-3): each key's allreduce is a non-blocking call, issued by an async engine op on
// a comm pool of one thread, which is free again as soon as the call is issued; the op completes
// when the call does, in whatever order the calls finish. Many allreduces are then outstanding on
// one communicator without a thread each. The main thread waits for each key's gradient before it
// submits the key's op, so every op is ready when it is submitted: ready order is submit order,
// and the one thread issues the calls in key order on every rank. Without the order guard (no
// wait) an op is ready when backward writes its gradient, and backward ops that run side by side
// on the compute pool may finish in a different order on each rank.
#include <vector>

#include "runtime/designs/makers.hpp"

namespace ordo::designs {

namespace {

class NonBlocking final : public Design {
 public:
  using Design::Design;
  std::vector<KeyVars> push(const KeyVars& k) override {
    push_into_buffer(k, /*main_waits=*/config().order_guard);
    if (config().order_guard) main().wait_to_read(k.buf);
    dag::Op op = collective_op(op_name("iallreduce", k), allreduce(k, world_comm), {}, {k.buf});
    op.kind = dag::OpKind::async_collective;
    main().submit(op);
    return {k};
  }
};

}  // namespace

std::unique_ptr<Design> make_nonblocking(const DesignConfig& config, dag::ProgramSink& main,
                                         dag::Rank rank) {
  return std::make_unique<NonBlocking>(config, main, rank);
}

}  // namespace ordo::designs
