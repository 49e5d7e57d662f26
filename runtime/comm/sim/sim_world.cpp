#include "runtime/comm/sim/sim_world.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "runtime/comm/rules/call.hpp"
#include "runtime/comm/rules/completion.hpp"
#include "runtime/comm/sim/data_moves.hpp"
#include "runtime/comm/sim/issuer.hpp"
#include "runtime/comm/sim/rank_view.hpp"
#include "runtime/comm/sim/world_state.hpp"

namespace ordo::comm::sim {

namespace {

constexpr std::uint32_t ranks_max = 4096;

}  // namespace

SimWorld::SimWorld(std::uint32_t ranks, std::vector<dag::Communicator> comms, Backend backend,
                   ReturnPolicy returns)
    : ranks_(ranks), backend_(backend), returns_(returns) {
  if (ranks == 0 || ranks > ranks_max) {
    throw std::invalid_argument("simulated world needs 1 to " + std::to_string(ranks_max) +
                                " ranks, not " + std::to_string(ranks));
  }
  for (std::size_t c = 0; c < comms.size(); ++c) {
    comms_.push_back(make_comm(static_cast<dag::CommId>(c), comms[c], ranks));
  }
  probes_.resize(ranks);
  if (stream_ordered(backend_)) streams_.resize(ranks);
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

bool SimWorld::has_unmatched_calls() const {
  std::lock_guard lock(mutex_);
  return std::any_of(comms_.begin(), comms_.end(), [](const auto& comm) {
    return !comm->match.slots().empty() || !comm->match.peers().empty();
  });
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
  if (member < 0)
    throw std::logic_error("rank " + std::to_string(rank) + " is not a member of '" + comm.name +
                           "'");
  check_call(call, buffer, comm.name, static_cast<std::uint32_t>(comm.members.size()));
  Deliveries deliveries;
  {
    std::lock_guard lock(mutex_);
    if (violation_) {
      deliveries.emplace_back(std::move(done),
                              std::make_exception_ptr(ViolationError(*violation_)));
    } else {
      Delivery delivery{call,
                        buffer,
                        std::move(done),
                        rank,
                        current_issuer(),
                        std::nullopt,
                        call_blocks(backend_, blocking)};
      if (dag::is_point_to_point(call.kind)) {
        post_message_locked(comm, static_cast<std::size_t>(member), std::move(delivery),
                            next_tag_++, deliveries);
      } else {
        issue_locked(comm, static_cast<std::size_t>(member), std::move(delivery), next_tag_++,
                     deliveries);
      }
    }
    deliveries_pending_ += deliveries.size();
  }
  deliver(deliveries);
}

void SimWorld::issue_locked(CommState& comm, std::size_t member, Delivery delivery,
                            std::uint64_t tag, Deliveries& deliveries) {
  const Call& call = delivery.call;
  IssueResult result = comm.match.issue(
      member, IssuedCall{Issuer{delivery.rank, delivery.issuer}, call, delivery.blocking}, tag,
      comm.name);
  if (auto* violation = std::get_if<Violation>(&result)) {
    deliveries.emplace_back(std::move(delivery.done), nullptr);
    abort_locked(*violation, deliveries);
    return;
  }
  const std::uint64_t bytes = call.count * dag::dtype_bytes(call.dtype);
  // Only a call that may return before its match can see its buffer written again before the
  // match reads it; one that needs every member (an allreduce) cannot.
  const bool may_leave_early = returns_.when != Returns::at_match && may_complete_early(backend_) &&
                               completion_needs(call, member) != CompletionNeeds::all;
  if (may_leave_early && delivery.buffer != nullptr && bytes > 0) {
    const auto* from = static_cast<const std::byte*>(delivery.buffer);
    delivery.sent.emplace(from, from + bytes);
  }
  const dag::Rank rank = delivery.rank;
  const std::string issuer = delivery.issuer;
  comm.deliveries.emplace(tag, std::move(delivery));
  const auto* matched = std::get_if<Matched>(&result);
  if (stream_ordered(backend_)) {
    launched_by_.emplace(tag, issuer);
    launch_locked(rank, comm.id, matched != nullptr ? matched->seq : std::get<Pending>(result).seq,
                  tag);
    if (matched != nullptr) settle_locked(comm, *matched, deliveries);
  } else if (matched != nullptr) {
    complete_locked(comm, *matched, deliveries);
  } else {
    offer_returns_locked(comm, std::get<Pending>(result), deliveries);
  }
}

void SimWorld::complete_locked(CommState& comm, const Matched& matched, Deliveries& out) {
  std::vector<Delivery> by_member;
  for (std::uint64_t tag : matched.tags) {
    auto node = comm.deliveries.extract(tag);
    assert(!node.empty());
    by_member.push_back(std::move(node.mapped()));
  }
  std::erase_if(held_returns_, [&](const Held& h) {
    return h.comm == comm.id &&
           std::find(matched.tags.begin(), matched.tags.end(), h.tag) != matched.tags.end();
  });
  // Matched calls agree on every field (C2), so member 0's call is everyone's. A member that
  // returned early has what it receives already (or receives nothing, C4), and its buffer is its
  // own again: nothing is written there now.
  const auto receives = [&](std::size_t m) { return !matched.returned[m]; };
  std::vector<MemberData> data;
  for (std::size_t m = 0; m < by_member.size(); ++m) {
    Delivery& d = by_member[m];
    data.push_back(MemberData{d.sent ? d.sent->data() : static_cast<const std::byte*>(d.buffer),
                              receives(m) ? static_cast<std::byte*>(d.buffer) : nullptr});
  }
  move_at_match(by_member[0].call, data);
  for (std::size_t m = 0; m < by_member.size(); ++m) {
    if (receives(m)) out.emplace_back(std::move(by_member[m].done), nullptr);
  }
}

void SimWorld::abort_locked(const Violation& violation, Deliveries& out) {
  assert(!violation_);
  violation_ = violation;
  const auto error = std::make_exception_ptr(ViolationError(violation));
  for (auto& d : out) d.second = error;
  held_returns_.clear();
  for (auto& comm : comms_) {
    for (auto& [tag, d] : comm->deliveries) {
      if (d.done) out.emplace_back(std::move(d.done), error);
    }
    comm->deliveries.clear();
    comm->match.clear();
  }
  for (auto& [tag, done] : held_) out.emplace_back(std::move(done), error);
  held_.clear();
  launched_by_.clear();
  for (DeviceStream& s : streams_) s.clear();
  watchdog_wake_.notify_all();
}

void SimWorld::deliver(Deliveries& deliveries) {
  for (auto& [done, error] : deliveries) done(error);
  if (deliveries.empty()) return;
  std::lock_guard lock(mutex_);
  deliveries_pending_ -= deliveries.size();
}

std::unique_ptr<SimWorld::CommState> SimWorld::make_comm(dag::CommId id,
                                                         const dag::Communicator& desc,
                                                         std::uint32_t ranks) {
  std::vector<dag::Rank> members;
  if (desc.members) {
    members = *desc.members;
  } else {
    for (dag::Rank r = 0; r < ranks; ++r) members.push_back(r);
  }
  if (members.empty()) {
    throw std::invalid_argument("communicator '" + desc.name + "' has no members");
  }
  auto comm = std::make_unique<SimWorld::CommState>(id, members.size());
  comm->name = desc.name;
  comm->members = std::move(members);
  comm->member_of.assign(ranks, -1);
  for (std::size_t m = 0; m < comm->members.size(); ++m) {
    const dag::Rank r = comm->members[m];
    if (r >= ranks || comm->member_of[r] >= 0) {
      throw std::invalid_argument("communicator '" + desc.name + "': member " + std::to_string(r) +
                                  " out of range or repeated");
    }
    comm->member_of[r] = static_cast<std::int64_t>(m);
  }
  return comm;
}

}  // namespace ordo::comm::sim
