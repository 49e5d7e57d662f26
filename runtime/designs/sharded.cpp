// sharded (ZeRO stage 1/2, FSDP's sharded gradients): each rank updates only its block of a key's
// weight. A key whose count splits into `shards` blocks is summed by a reduce_scatter, which leaves
// every rank the sum of its own block only (half an allreduce's traffic); the rank's update op
// steps that block of the weight; an allgather then fills every rank's weight from each block's
// owner (the other half). The update's work, and the momentum it reads, are the rank's block only.
//
// A key's reduce_scatter is submitted at its push, and its update and allgather at the next push
// (or the end of the step), behind the next key's reduce_scatter: the allgathers go out while
// backward computes, each one key behind. Every one of those collectives writes the chain token,
// so the engine issues them in submit order on every rank (as depcha orders its allreduces):
// rs(k1), rs(k2), ag(k1), rs(k3), ag(k2), ... A key that does not split (a bias of 10 on 4 ranks)
// is summed by a chained allreduce and updated whole by the step, as depcha would.
//
// Without the order guard the allgathers leave the chain out: each is ready when its update ends,
// the updates run side by side on the compute pool and end in a different order on each rank, and
// a comm pool of several threads then issues allgathers (and the reduce_scatters still in the
// chain) in a different order on each rank.
#include <optional>
#include <vector>

#include "runtime/designs/makers.hpp"

namespace ordo::designs {

namespace {

class Sharded final : public Design {
 public:
  using Design::Design;

  std::vector<KeyVars> push(const KeyVars& k) override {
    push_into_buffer(k, /*main_waits=*/false);
    if (!splits_into_shards(config(), k.count)) {
      main().submit(
          collective_op(op_name("allreduce", k), allreduce(k, world_comm), {}, {k.buf, chain()}));
      return {k};
    }
    dag::Collective scatter = allreduce(k, world_comm);
    scatter.kind = dag::CollectiveKind::reduce_scatter;
    main().submit(collective_op(op_name("reduce_scatter", k), scatter, {}, {k.buf, chain()}));
    // The key before goes on: its allgather follows this key's reduce_scatter in the chain.
    flush();
    held_ = k;
    return {};
  }

  // The held key's update and allgather: nothing is left for the step to pull or update.
  std::vector<KeyVars> flush() override {
    if (held_) {
      const KeyVars& k = *held_;
      Design::pull(k);
      dag::Op update;
      update.name = op_name("update_shard", k);
      update.kind = dag::OpKind::compute;
      update.pool = compute_pool;
      update.reads = {k.grad};
      update.writes = {k.weight};
      update.cost_us = update_cost_us(k) / static_cast<double>(config().shards);
      main().submit(update);
      dag::Collective gather = allreduce(k, world_comm);
      gather.kind = dag::CollectiveKind::allgather;
      gather.reduction = dag::Reduction::none;
      std::vector<dag::VarId> writes{k.weight};
      if (config().order_guard) writes.push_back(chain());
      main().submit(collective_op(op_name("allgather", k), gather, {}, writes));
      held_.reset();
    }
    return {};
  }

 private:
  dag::VarId chain() {
    if (!chain_) chain_ = add_token("collective.chain");
    return *chain_;
  }

  std::optional<KeyVars> held_;  // the key pushed and reduce_scattered last, not yet updated
  std::optional<dag::VarId> chain_;
};

}  // namespace

std::unique_ptr<Design> make_sharded(const DesignConfig& config, dag::ProgramSink& main,
                                     dag::Rank rank) {
  return std::make_unique<Sharded>(config, main, rank);
}

}  // namespace ordo::designs
