// The simulated world's private state, shared by its implementation files only.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/rules/match_state.hpp"
#include "runtime/comm/sim/sim_world.hpp"

namespace ordo::comm::sim {

// Where a posted call's data is and whom to tell when it ends. Where the call may return before
// its match, what it sends is copied at its issue (`sent`): its issuer may write the buffer again
// once it returned, as MPI allows, and the match must still see the data it sent.
struct SimWorld::Delivery {
  Call call;
  void* buffer = nullptr;
  Communicator::Done done;  // empty once the issuer returned early
  dag::Rank rank = 0;
  std::string issuer;
  std::optional<std::vector<std::byte>> sent;
  bool blocking = true;  // as the backend reads it (call_blocks)
};

struct SimWorld::CommState {
  CommState(dag::CommId comm_id, std::size_t size) : id(comm_id), match(comm_id, size) {}
  dag::CommId id;
  std::string name;
  std::vector<dag::Rank> members;                // world ranks, in communicator-rank order
  std::vector<std::int64_t> member_of;           // world rank -> communicator rank, or -1
  MatchState match;                              // the matching rule, shared with the checker
  std::map<std::uint64_t, Delivery> deliveries;  // by the tag its call was posted with
};

// The world's streams as the settling rule and the deadlock description read them.
class SimWorld::Streams final : public StreamSet {
 public:
  explicit Streams(SimWorld& world) : world_(world) {}
  const DeviceStream& stream(dag::Rank rank) const override { return world_.streams_.at(rank); }
  DeviceStream& stream_for_write(dag::Rank rank) override { return world_.streams_.at(rank); }
  const std::vector<dag::Rank>& members(dag::CommId comm) const override {
    return world_.comms_.at(comm)->members;
  }

 private:
  SimWorld& world_;
};

}  // namespace ordo::comm::sim
