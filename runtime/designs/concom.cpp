// concom (paper Fig. 8-9): the main thread waits for each key's copy and submits its allreduce as
// an engine op on the next communicator of its barrier group (the i-th key pushed since the last
// barrier on communicator i mod ncomm); every `outstanding` keys it waits until none is in flight
// and calls a barrier. Whether that is safe depends on ncomm, outstanding and the comm pool's
// threads: the checker decides.
//
// The rotation follows the push order, not the key's number: keys are pushed in the order their
// gradients are produced, which in an imported model is not the keys' order (a layer's keys are
// pushed together, its layers backwards), and two keys of one group on one communicator may then
// be in flight at once on two comm threads (docs/kvstore.md).
#include <vector>

#include "runtime/designs/makers.hpp"

namespace ordo::designs {

namespace {

class ConCom final : public Design {
 public:
  using Design::Design;
  std::vector<KeyVars> push(const KeyVars& k) override {
    push_into_buffer(k, /*main_waits=*/true);
    main().wait_to_read(k.buf);
    const auto rotation = static_cast<dag::CommId>(in_flight_.size() % config().ncomm);
    main().submit(collective_op(op_name("allreduce", k), allreduce(k, 1 + rotation), {}, {k.buf}));
    in_flight_.push_back(k.buf);
    if (in_flight_.size() == config().outstanding) {
      for (dag::VarId buf : in_flight_) main().wait_to_read(buf);
      in_flight_.clear();
      barrier();
    }
    return {k};
  }
  // The step's wait_for_all completes what is in flight; a group carried into the next step would
  // shift which keys share a barrier there, and the next step would not be the one verified.
  std::vector<KeyVars> end_step() override {
    in_flight_.clear();
    return {};
  }

 private:
  std::vector<dag::VarId> in_flight_;  // buffers of allreduces submitted since the last barrier
};

}  // namespace

std::unique_ptr<Design> make_concom(const DesignConfig& config, dag::ProgramSink& main,
                                    dag::Rank rank) {
  return std::make_unique<ConCom>(config, main, rank);
}

}  // namespace ordo::designs
