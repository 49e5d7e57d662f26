#include "runtime/comm/sim/sim_world.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <stdexcept>

#include "runtime/comm/call_check.hpp"
#include "runtime/comm/reduce.hpp"
#include "runtime/comm/sim/issuer.hpp"
#include "runtime/comm/sim/rank_view.hpp"
#include "runtime/comm/sim/world_state.hpp"

namespace ordo::comm::sim {

namespace {

constexpr std::uint32_t ranks_max = 4096;

}  // namespace

SimWorld::SimWorld(std::uint32_t ranks, std::vector<dag::Communicator> comms) : ranks_(ranks) {
  if (ranks == 0 || ranks > ranks_max) {
    throw std::invalid_argument("simulated world needs 1 to " + std::to_string(ranks_max) +
                                " ranks, not " + std::to_string(ranks));
  }
  for (const dag::Communicator& c : comms) comms_.push_back(make_comm(c, ranks));
  probes_.resize(ranks);
  for (dag::Rank r = 0; r < ranks; ++r) views_.push_back(std::make_unique<RankView>(*this, r));
}

SimWorld::~SimWorld() {
  {
    std::lock_guard lock(mutex_);
    watchdog_stop_ = true;
  }
  watchdog_wake_.notify_all();
  if (watchdog_.joinable()) watchdog_.join();
}

World& SimWorld::rank(dag::Rank rank) {
  if (rank >= ranks_) throw std::out_of_range("no rank " + std::to_string(rank) + " in the world");
  return *views_[rank];
}

std::optional<Violation> SimWorld::violation() const {
  std::lock_guard lock(mutex_);
  return violation_;
}

bool SimWorld::aborted() const {
  std::lock_guard lock(mutex_);
  return violation_.has_value();
}

void SimWorld::post(dag::Rank rank, dag::CommId comm_id, const Call& call, void* buffer,
                    bool blocking, Communicator::Done done) {
  assert(comm_id < comms_.size() && rank < ranks_ && done);
  CommState& comm = *comms_[comm_id];
  const std::int64_t member = comm.member_of[rank];
  if (member < 0) throw std::logic_error("rank " + std::to_string(rank) + " is not a member of '" +
                                         comm.name + "'");
  check_call(call, buffer, comm.name, static_cast<std::uint32_t>(comm.members.size()));
  const auto m = static_cast<std::size_t>(member);
  Deliveries deliveries;
  {
    std::lock_guard lock(mutex_);
    IssuedCall issued{rank, call, blocking, current_issuer()};
    if (violation_) {
      deliveries.emplace_back(std::move(done), std::make_exception_ptr(ViolationError(*violation_)));
    } else {
      const std::uint64_t seq = comm.next_seq[m]++;
      for (std::uint64_t other : comm.in_flight[m]) {
        const Posted& first = *comm.slots.at(other).by_member[m];
        if (first.issued.blocking || blocking) {
          deliveries.emplace_back(std::move(done), nullptr);
          abort_locked(ThreadRuleBreak{comm.name, first.issued, issued}, deliveries);
          break;
        }
      }
      if (!violation_) {
        Slot& slot = comm.slots[seq];
        if (slot.by_member.empty()) slot.by_member.resize(comm.members.size());
        const Posted* first = nullptr;
        for (const auto& p : slot.by_member) {
          if (p) {
            first = &*p;
            break;
          }
        }
        if (first != nullptr && !(first->issued.call == call)) {
          Mismatch mismatch{comm.name, seq, {}};
          for (const auto& p : slot.by_member) {
            if (p) mismatch.calls.push_back(p->issued);
          }
          mismatch.calls.push_back(issued);
          deliveries.emplace_back(std::move(done), nullptr);
          abort_locked(mismatch, deliveries);
        } else {
          slot.by_member[m] = Posted{std::move(issued), buffer, std::move(done)};
          ++slot.present;
          comm.in_flight[m].push_back(seq);
          if (slot.present == comm.members.size()) complete_slot_locked(comm, seq, deliveries);
        }
      }
    }
    deliveries_pending_ += deliveries.size();
  }
  deliver(deliveries);
}

void SimWorld::complete_slot_locked(CommState& comm, std::uint64_t seq, Deliveries& out) {
  Slot& slot = comm.slots.at(seq);
  const Call& call = slot.by_member[0]->issued.call;
  const std::uint64_t bytes = call.count * dag::dtype_bytes(call.dtype);
  if (call.kind == dag::CollectiveKind::allreduce && bytes > 0) {
    // Reduce in communicator-rank order, so the result is one fixed sum whatever the timing.
    std::vector<std::byte> sum(bytes);
    std::memcpy(sum.data(), slot.by_member[0]->buffer, bytes);
    for (std::size_t m = 1; m < slot.by_member.size(); ++m) {
      reduce_into(sum.data(), slot.by_member[m]->buffer, call.count, call.dtype, call.reduction);
    }
    for (auto& p : slot.by_member) std::memcpy(p->buffer, sum.data(), bytes);
  } else if (call.kind == dag::CollectiveKind::bcast && bytes > 0) {
    const void* root = slot.by_member[*call.root]->buffer;
    for (auto& p : slot.by_member) {
      if (p->buffer != root) std::memcpy(p->buffer, root, bytes);
    }
  }
  for (std::size_t m = 0; m < slot.by_member.size(); ++m) {
    auto& flight = comm.in_flight[m];
    flight.erase(std::find(flight.begin(), flight.end(), seq));
    out.emplace_back(std::move(slot.by_member[m]->done), nullptr);
  }
  comm.slots.erase(seq);
}

void SimWorld::abort_locked(const Violation& violation, Deliveries& out) {
  assert(!violation_);
  violation_ = violation;
  const auto error = std::make_exception_ptr(ViolationError(violation));
  for (auto& d : out) d.second = error;
  for (auto& comm : comms_) {
    for (auto& [seq, slot] : comm->slots) {
      for (auto& p : slot.by_member) {
        if (p) out.emplace_back(std::move(p->done), error);
      }
    }
    comm->slots.clear();
    for (auto& flight : comm->in_flight) flight.clear();
  }
  watchdog_wake_.notify_all();
}

void SimWorld::deliver(Deliveries& deliveries) {
  for (auto& [done, error] : deliveries) done(error);
  if (deliveries.empty()) return;
  std::lock_guard lock(mutex_);
  deliveries_pending_ -= deliveries.size();
}

std::unique_ptr<SimWorld::CommState> SimWorld::make_comm(const dag::Communicator& desc,
                                                         std::uint32_t ranks) {
  auto comm = std::make_unique<SimWorld::CommState>();
  comm->name = desc.name;
  if (desc.members) {
    comm->members = *desc.members;
  } else {
    for (dag::Rank r = 0; r < ranks; ++r) comm->members.push_back(r);
  }
  if (comm->members.empty()) {
    throw std::invalid_argument("communicator '" + desc.name + "' has no members");
  }
  comm->member_of.assign(ranks, -1);
  for (std::size_t m = 0; m < comm->members.size(); ++m) {
    const dag::Rank r = comm->members[m];
    if (r >= ranks || comm->member_of[r] >= 0) {
      throw std::invalid_argument("communicator '" + desc.name + "': member " +
                                  std::to_string(r) + " out of range or repeated");
    }
    comm->member_of[r] = static_cast<std::int64_t>(m);
  }
  comm->next_seq.assign(comm->members.size(), 0);
  comm->in_flight.resize(comm->members.size());
  return comm;
}

}  // namespace ordo::comm::sim
