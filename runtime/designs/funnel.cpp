// funnel (paper Fig. 5-7): the engine only prepares the buffer; the main thread waits for it and
// calls the allreduce itself, so every rank issues them in key order.
#include <vector>

#include "runtime/designs/makers.hpp"

namespace ordo::designs {

namespace {

class Funnel final : public Design {
 public:
  using Design::Design;
  std::vector<KeyVars> push(const KeyVars& k) override {
    // In place the main thread writes the gradient outside the engine, so every op submitted before
    // that still reads it must be done, not only its writers (all that wait_to_read covers): the
    // fence push_into_buffer puts there runs only after them, and the wait is for the fence.
    // This is MXNet's WaitToWrite; in the paper's form the copy into the buffer is that write.
    push_into_buffer(k, /*main_waits=*/true);
    main().wait_to_read(k.buf);
    main().collective(dag::CollectiveAction{allreduce(k, world_comm), k.buf});
    return {k};
  }
};

}  // namespace

std::unique_ptr<Design> make_funnel(const DesignConfig& config, dag::ProgramSink& main,
                                    dag::Rank rank) {
  return std::make_unique<Funnel>(config, main, rank);
}

}  // namespace ordo::designs
