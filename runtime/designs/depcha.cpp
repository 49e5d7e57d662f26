// depcha (paper Fig. 10-12): every allreduce op also writes one shared token var, so the engine
// runs them in submit order on every rank, whatever the pools, while the copies (if any) and the
// rest of the step overlap freely. The main thread never waits.
#include <optional>
#include <vector>

#include "runtime/designs/makers.hpp"

namespace ordo::designs {

namespace {

class DepCha final : public Design {
 public:
  using Design::Design;
  std::vector<KeyVars> push(const KeyVars& k) override {
    if (!chain_) chain_ = add_token("allreduce.chain");
    push_into_buffer(k, /*main_waits=*/false);
    main().submit(
        collective_op(op_name("allreduce", k), allreduce(k, world_comm), {}, {k.buf, *chain_}));
    return {k};
  }

 private:
  std::optional<dag::VarId> chain_;
};

}  // namespace

std::unique_ptr<Design> make_depcha(const DesignConfig& config, dag::ProgramSink& main,
                                    dag::Rank rank) {
  return std::make_unique<DepCha>(config, main, rank);
}

}  // namespace ordo::designs
