// One rank's World and Communicators on the simulated world; every call goes to SimWorld::post.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/comm/sim/sim_world.hpp"

namespace ordo::comm::sim {

class SimCommunicator final : public Communicator {
 public:
  SimCommunicator(SimWorld& world, dag::Rank world_rank, dag::CommId id, std::string name,
                  dag::Rank rank, std::uint32_t size);
  const std::string& name() const override { return name_; }
  dag::Rank rank() const override { return rank_; }
  std::uint32_t size() const override { return size_; }
  void call(const Call& call, void* buffer) override;
  std::unique_ptr<Request> start(const Call& call, void* buffer) override;
  void call_then(const Call& call, void* buffer, Done done) override;
  void start_then(const Call& call, void* buffer, Done done) override;

 private:
  SimWorld& world_;
  dag::Rank world_rank_;
  dag::CommId id_;
  std::string name_;
  dag::Rank rank_;
  std::uint32_t size_;
};

class SimWorld::RankView final : public World {
 public:
  RankView(SimWorld& world, dag::Rank rank);
  dag::Rank rank() const override { return rank_; }
  std::uint32_t size() const override { return world_.size(); }
  std::uint32_t comm_count() const override;
  Communicator& comm(dag::CommId id) override;
  bool is_member(dag::CommId id) const override;

 private:
  SimWorld& world_;
  dag::Rank rank_;
  std::vector<std::unique_ptr<SimCommunicator>> comms_;  // null where not a member
};

}  // namespace ordo::comm::sim
