// One rank's view of two worlds side by side: the first world's communicators, then the second's,
// their ids continued. What a flight recorder watches when a job's collectives go on two worlds
// at once: a trainer's step on its device world, its agreements on the MPI world.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "runtime/comm/communicator.hpp"

namespace ordo::comm {

class JoinedWorld final : public World {
 public:
  // Both must be of the same ranks and outlive this view. Throws std::invalid_argument otherwise.
  JoinedWorld(World& first, World& second) : first_(first), second_(second) {
    if (first.rank() != second.rank() || first.size() != second.size()) {
      throw std::invalid_argument("two worlds joined must be one rank's view of the same ranks");
    }
  }

  dag::Rank rank() const override { return first_.rank(); }
  std::uint32_t size() const override { return first_.size(); }
  std::uint32_t comm_count() const override {
    return first_.comm_count() + second_.comm_count();
  }
  Communicator& comm(dag::CommId id) override {
    return id < first_.comm_count() ? first_.comm(id) : second_.comm(id - first_.comm_count());
  }
  bool is_member(dag::CommId id) const override {
    return id < first_.comm_count() ? first_.is_member(id)
                                    : second_.is_member(id - first_.comm_count());
  }

 private:
  World& first_;
  World& second_;
};

}  // namespace ordo::comm
