// The flight recorder's hook into the collectives: a World whose communicators record every call
// in their ring before handing it to the real backend (Open MPI or the simulated world), and its
// end when it ends. Every collective of a rank must go through it, since a ring's sequence numbers
// are positions in the communicator's call order only if no call bypasses the ring.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/wrapped_world.hpp"
#include "runtime/flight/flight_ring.hpp"

namespace ordo::flight {

class RecordedCommunicator final : public comm::WrappedCommunicator {
 public:
  RecordedCommunicator(comm::Communicator& inner, CommRings& rings);

  void call(const comm::Call& call, void* buffer) override;
  std::unique_ptr<comm::Request> start(const comm::Call& call, void* buffer) override;
  void call_then(const comm::Call& call, void* buffer, Done done) override;
  void start_then(const comm::Call& call, void* buffer, Done done) override;

 private:
  // The backend's completion wrapper: two words, so std::function stores it inline.
  Done finisher(FlightRing& ring, std::uint64_t seq, bool parked, Done& done);

  CommRings& rings_;
};

// Wraps `inner`, which must outlive it; one pair of rings per communicator of `rings` (null where
// this rank is not a member), by communicator id.
class RecordedWorld final : public comm::WrappedWorld {
 public:
  RecordedWorld(comm::World& inner, const std::vector<CommRings*>& rings);
};

}  // namespace ordo::flight
