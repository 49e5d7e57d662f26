#include "runtime/flight/recorded_world.hpp"

#include <cassert>
#include <exception>
#include <stdexcept>
#include <utility>

#include "runtime/comm/sim/issuer.hpp"
#include "runtime/engine/core.hpp"

namespace ordo::flight {

RecordedCommunicator::RecordedCommunicator(comm::Communicator& inner, CommRings& rings)
    : WrappedCommunicator(inner), rings_(rings) {}

// A ring is one communicator's collective order, what `ordo analyze` lines the ranks up by; a
// send or recv has no place in it (docs/semantics.md, §3b), so messages go to the communicator's
// ring of messages (docs/diagnostics.md, "The flight recorder").
void RecordedCommunicator::call(const comm::Call& call, void* buffer) {
  FlightRing& ring = rings_.ring_of(call);
  const FlightRing::Issued issued =
      ring.issue(call, true, comm::sim::current_issuer(), engine::running_op());
  ring.started(issued.seq);
  try {
    inner_.call(call, buffer);
  } catch (...) {
    ring.ended(issued.seq, true);
    throw;
  }
  ring.ended(issued.seq, false);
}

std::unique_ptr<comm::Request> RecordedCommunicator::start(const comm::Call& call, void* buffer) {
  FlightRing& ring = rings_.ring_of(call);
  const FlightRing::Issued issued =
      ring.issue(call, false, comm::sim::current_issuer(), engine::running_op());
  std::unique_ptr<comm::Request> request;
  try {
    request = inner_.start(call, buffer);
  } catch (...) {
    ring.ended(issued.seq, true);
    throw;
  }
  ring.started(issued.seq);
  return std::make_unique<comm::ObservedRequest>(
      std::move(request),
      [log = &ring, seq = issued.seq](bool failed) { log->ended(seq, failed); });
}

comm::Communicator::Done RecordedCommunicator::finisher(FlightRing& ring_of_call, std::uint64_t seq,
                                                        bool parked, Done& done) {
  if (parked) {
    FlightRing* ring = &ring_of_call;
    return [ring, seq](std::exception_ptr error) {
      Done parked_done = ring->ended(seq, error != nullptr);
      assert(parked_done);
      parked_done(std::move(error));
    };
  }
  // The ring had no free slot to park it in: the rare case pays for a wrapper that holds it.
  return [ring = &ring_of_call, seq, done = std::move(done)](std::exception_ptr error) {
    ring->ended(seq, error != nullptr);
    done(std::move(error));
  };
}

void RecordedCommunicator::call_then(const comm::Call& call, void* buffer, Done done) {
  FlightRing& ring = rings_.ring_of(call);
  const FlightRing::Issued issued =
      ring.issue(call, true, comm::sim::current_issuer(), engine::running_op(), &done);
  Done finish = finisher(ring, issued.seq, issued.parked, done);
  ring.started(issued.seq);
  try {
    inner_.call_then(call, buffer, std::move(finish));
  } catch (...) {
    // The backend refused the call without completing it: the slot must not keep its callback.
    ring.ended(issued.seq, true);
    throw;
  }
}

void RecordedCommunicator::start_then(const comm::Call& call, void* buffer, Done done) {
  FlightRing& ring = rings_.ring_of(call);
  const FlightRing::Issued issued =
      ring.issue(call, false, comm::sim::current_issuer(), engine::running_op(), &done);
  Done finish = finisher(ring, issued.seq, issued.parked, done);
  try {
    inner_.start_then(call, buffer, std::move(finish));
  } catch (...) {
    ring.ended(issued.seq, true);
    throw;
  }
  // A call may have ended before start_then returned; started() then leaves it as it is.
  ring.started(issued.seq);
}

namespace {

comm::WrappedWorld::Wrap recording(const comm::World& inner, const std::vector<CommRings*>& rings) {
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

RecordedWorld::RecordedWorld(comm::World& inner, const std::vector<CommRings*>& rings)
    : WrappedWorld(inner, recording(inner, rings)) {}

}  // namespace ordo::flight
