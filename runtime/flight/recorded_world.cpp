#include "runtime/flight/recorded_world.hpp"

#include <cassert>
#include <exception>
#include <stdexcept>
#include <utility>

#include "runtime/comm/sim/issuer.hpp"
#include "runtime/engine/core.hpp"

namespace ordo::flight {

RecordedCommunicator::RecordedCommunicator(comm::Communicator& inner, FlightRing& ring)
    : WrappedCommunicator(inner), ring_(ring) {}

// A ring is one communicator's collective order, what `ordo analyze` lines the ranks up by; a
// send or recv has no place in it (docs/semantics.md, §3b), so messages are not recorded yet
// (docs/diagnostics.md, "The flight recorder").
void RecordedCommunicator::call(const comm::Call& call, void* buffer) {
  if (dag::is_point_to_point(call.kind)) {
    inner_.call(call, buffer);
    return;
  }
  const FlightRing::Issued issued =
      ring_.issue(call, true, comm::sim::current_issuer(), engine::running_op());
  ring_.started(issued.seq);
  try {
    inner_.call(call, buffer);
  } catch (...) {
    ring_.ended(issued.seq, true);
    throw;
  }
  ring_.ended(issued.seq, false);
}

std::unique_ptr<comm::Request> RecordedCommunicator::start(const comm::Call& call, void* buffer) {
  if (dag::is_point_to_point(call.kind)) return inner_.start(call, buffer);
  const FlightRing::Issued issued =
      ring_.issue(call, false, comm::sim::current_issuer(), engine::running_op());
  std::unique_ptr<comm::Request> request;
  try {
    request = inner_.start(call, buffer);
  } catch (...) {
    ring_.ended(issued.seq, true);
    throw;
  }
  ring_.started(issued.seq);
  return std::make_unique<comm::ObservedRequest>(
      std::move(request),
      [ring = &ring_, seq = issued.seq](bool failed) { ring->ended(seq, failed); });
}

comm::Communicator::Done RecordedCommunicator::finisher(std::uint64_t seq, bool parked,
                                                        Done& done) {
  if (parked) {
    FlightRing* ring = &ring_;
    return [ring, seq](std::exception_ptr error) {
      Done parked_done = ring->ended(seq, error != nullptr);
      assert(parked_done);
      parked_done(std::move(error));
    };
  }
  // The ring had no free slot to park it in: the rare case pays for a wrapper that holds it.
  return [ring = &ring_, seq, done = std::move(done)](std::exception_ptr error) {
    ring->ended(seq, error != nullptr);
    done(std::move(error));
  };
}

void RecordedCommunicator::call_then(const comm::Call& call, void* buffer, Done done) {
  if (dag::is_point_to_point(call.kind)) {
    inner_.call_then(call, buffer, std::move(done));
    return;
  }
  const FlightRing::Issued issued =
      ring_.issue(call, true, comm::sim::current_issuer(), engine::running_op(), &done);
  Done finish = finisher(issued.seq, issued.parked, done);
  ring_.started(issued.seq);
  try {
    inner_.call_then(call, buffer, std::move(finish));
  } catch (...) {
    // The backend refused the call without completing it: the slot must not keep its callback.
    ring_.ended(issued.seq, true);
    throw;
  }
}

void RecordedCommunicator::start_then(const comm::Call& call, void* buffer, Done done) {
  if (dag::is_point_to_point(call.kind)) {
    inner_.start_then(call, buffer, std::move(done));
    return;
  }
  const FlightRing::Issued issued =
      ring_.issue(call, false, comm::sim::current_issuer(), engine::running_op(), &done);
  Done finish = finisher(issued.seq, issued.parked, done);
  try {
    inner_.start_then(call, buffer, std::move(finish));
  } catch (...) {
    ring_.ended(issued.seq, true);
    throw;
  }
  // A call may have ended before start_then returned; started() then leaves it as it is.
  ring_.started(issued.seq);
}

namespace {

comm::WrappedWorld::Wrap recording(const comm::World& inner,
                                   const std::vector<FlightRing*>& rings) {
  if (rings.size() != inner.comm_count()) {
    throw std::invalid_argument(
        "a recorded world needs one ring per communicator: " + std::to_string(rings.size()) +
        " rings for " + std::to_string(inner.comm_count()) + " communicators");
  }
  return [rings](dag::CommId id, comm::Communicator& c) -> std::unique_ptr<comm::Communicator> {
    if (rings[id] == nullptr) {
      throw std::invalid_argument("communicator " + std::to_string(id) + " has no ring");
    }
    return std::make_unique<RecordedCommunicator>(c, *rings[id]);
  };
}

}  // namespace

RecordedWorld::RecordedWorld(comm::World& inner, const std::vector<FlightRing*>& rings)
    : WrappedWorld(inner, recording(inner, rings)) {}

}  // namespace ordo::flight
