// A world of one rank whose collectives do nothing: an allreduce or a broadcast over a single
// rank leaves its buffer as it is, so doing nothing is the exact result. A step run on it is the
// step without communication (compute, copies, updates, engine), and unlike the simulated world
// it stages no copy of the buffers, which would add host work a real step does not have.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::bench {

class AloneWorld final : public comm::World {
 public:
  // One communicator per entry of `comms`; member lists are ignored (this rank is in all).
  explicit AloneWorld(const std::vector<dag::Communicator>& comms);
  ~AloneWorld() override;

  dag::Rank rank() const override { return 0; }
  std::uint32_t size() const override { return 1; }
  std::uint32_t comm_count() const override;
  comm::Communicator& comm(dag::CommId id) override;
  bool is_member(dag::CommId id) const override { return id < comm_count(); }

 private:
  class Comm;
  std::vector<std::unique_ptr<Comm>> comms_;
};

}  // namespace ordo::bench
