// The simulated world under a stream-ordered backend (docs/semantics.md, D1-D3): the same
// settling rule as the checker's (comm::settle_streams), over the world's streams, under its lock.
#include <cassert>
#include <string>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/comm/sim/world_state.hpp"

namespace ordo::comm::sim {

void SimWorld::launch_locked(dag::Rank rank, dag::CommId comm, std::uint64_t seq,
                             std::uint64_t tag) {
  streams_.at(rank).launch(comm, seq, tag);
}

void SimWorld::settle_locked(CommState& comm, const Matched& matched, Deliveries& out) {
  // The data moves at the match, as on MPI (C4): each member's buffer is a var its op holds
  // until the op completes, so no party sees it earlier either way. Only the issuers' news waits.
  Deliveries dones;
  complete_locked(comm, matched, dones);
  assert(dones.size() == matched.tags.size());
  for (std::size_t m = 0; m < dones.size(); ++m) {
    held_.emplace(matched.tags[m], std::move(dones[m].first));
  }
  Streams streams(*this);
  const dag::CommId id = comm.id;
  for (const StreamDone& done : settle_streams(streams, id, matched.seq)) {
    auto node = held_.extract(done.tag);
    assert(!node.empty());
    out.emplace_back(std::move(node.mapped()), nullptr);
    launched_by_.erase(done.tag);
  }
}

}  // namespace ordo::comm::sim
