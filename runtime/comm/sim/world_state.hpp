// The simulated world's private state, shared by its implementation files only.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/sim/sim_world.hpp"

namespace ordo::comm::sim {

struct SimWorld::Posted {
  IssuedCall issued;
  void* buffer = nullptr;
  Communicator::Done done;
};

// The n-th calls of the members of one communicator, as they arrive.
struct SimWorld::Slot {
  std::vector<std::optional<Posted>> by_member;
  std::uint32_t present = 0;
};

struct SimWorld::CommState {
  std::string name;
  std::vector<dag::Rank> members;        // world ranks, in communicator-rank order
  std::vector<std::int64_t> member_of;   // world rank -> communicator rank, or -1
  std::vector<std::uint64_t> next_seq;   // per member: the sequence number of its next call
  std::map<std::uint64_t, Slot> slots;   // calls issued by some but not all members
  // Per member: the sequence numbers of its calls still in flight.
  std::vector<std::vector<std::uint64_t>> in_flight;
};

}  // namespace ordo::comm::sim
