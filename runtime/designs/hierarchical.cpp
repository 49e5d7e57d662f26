// hierarchical (the paper's phases, as Horovod's hierarchical allreduce): a key's gradient is
// summed first within its node, by a reduce to the node's leader on the node's communicator; then
// among the nodes, by an allreduce on the leaders' communicator that only the leaders join; then
// brought back into the node, by a bcast from the leader. Each phase is its own engine op, so the
// leaders' traffic between nodes overlaps the next keys' reduces within the node.
//
// The reduces are submitted at each push, and the leaders' allreduces with them; the bcasts at the
// end of the step, in push order. (A bcast one key behind, between the next key's reduces, left
// the leaders' link idle while each bcast waited for its allreduce: 1.43x depcha on the emulated
// 2x2 cluster against 1.22x this way, docs/benchmarks.md.) The ops on a node's communicator (its
// reduces, then its bcasts) all write one token, and the leaders' allreduces another: each
// communicator's calls issue in submit order on every rank of it, and calls on the two
// communicators may be in flight at once (different communicators: MPI matches each on its own).
// A bcast also waits for its key's allreduce through the buffer both write.
//
// Without the order guard the bcasts leave the node's chain: on a rank that is no leader a key's
// bcast is ready as soon as its reduce is done, while the leader's waits for the allreduce, so two
// comm threads may put the bcast beside the next key's reduce on one rank and not on another.
#include <optional>
#include <vector>

#include "runtime/designs/makers.hpp"

namespace ordo::designs {

namespace {

class Hierarchical final : public Design {
 public:
  using Design::Design;

  std::vector<KeyVars> push(const KeyVars& k) override {
    push_into_buffer(k, /*main_waits=*/false);
    dag::Collective reduce = allreduce(k, node());
    reduce.kind = dag::CollectiveKind::reduce;
    reduce.root = dag::Rank{0};
    main().submit(
        collective_op(op_name("reduce", k), reduce, {}, {k.buf, chain(node_chain_, "node")}));
    if (leader()) {
      main().submit(collective_op(op_name("allreduce", k), allreduce(k, leaders_comm(config())), {},
                                  {k.buf, chain(leaders_chain_, "leaders")}));
    }
    held_.push_back(k);
    return {};
  }

  // The held keys' bcasts; then they are summed on every rank, for the step to pull and update.
  std::vector<KeyVars> flush() override {
    for (const KeyVars& k : held_) {
      dag::Collective bcast = allreduce(k, node());
      bcast.kind = dag::CollectiveKind::bcast;
      bcast.reduction = dag::Reduction::none;
      bcast.root = dag::Rank{0};
      std::vector<dag::VarId> writes{k.buf};
      if (config().order_guard) writes.push_back(chain(node_chain_, "node"));
      main().submit(collective_op(op_name("bcast", k), bcast, {}, writes));
    }
    std::vector<KeyVars> summed = std::move(held_);
    held_.clear();
    return summed;
  }

 private:
  dag::CommId node() const { return node_comm(rank() / config().node_ranks); }
  bool leader() const { return rank() % config().node_ranks == 0; }

  dag::VarId chain(std::optional<dag::VarId>& token, const char* comm) {
    if (!token) token = add_token(std::string(comm) + ".chain");
    return *token;
  }

  std::vector<KeyVars> held_;  // reduced (and, on a leader, allreduced), not yet broadcast
  std::optional<dag::VarId> node_chain_;
  std::optional<dag::VarId> leaders_chain_;
};

}  // namespace

std::unique_ptr<Design> make_hierarchical(const DesignConfig& config, dag::ProgramSink& main,
                                          dag::Rank rank) {
  if (rank >= config.nodes * config.node_ranks) {
    throw std::invalid_argument("design hierarchical: rank " + std::to_string(rank) +
                                " is outside its " + std::to_string(config.nodes) + " x " +
                                std::to_string(config.node_ranks) + " ranks");
  }
  return std::make_unique<Hierarchical>(config, main, rank);
}

}  // namespace ordo::designs
