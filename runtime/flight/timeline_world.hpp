// The timeline's hook into the collectives: a World whose communicators log every call from its
// issue to its end, with the op that issued it, before handing it to the world it wraps (which may
// itself be a RecordedWorld; the two stack either way). Built only when a timeline is asked for.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/wrapped_world.hpp"
#include "runtime/flight/timeline_log.hpp"

namespace ordo::flight {

class TracedCommunicator final : public comm::WrappedCommunicator {
 public:
  TracedCommunicator(comm::Communicator& inner, dag::CommId id, TimelineLog& log);

  void call(const comm::Call& call, void* buffer) override;
  std::unique_ptr<comm::Request> start(const comm::Call& call, void* buffer) override;
  void call_then(const comm::Call& call, void* buffer, Done done) override;
  void start_then(const comm::Call& call, void* buffer, Done done) override;

 private:
  // Wraps `done` so the call's end is logged first. (One allocation per call: the cost of a
  // timeline, which is off unless asked for.)
  Done ender(std::int64_t token, Done done);

  dag::CommId id_;
  TimelineLog& log_;
};

// Wraps `inner`, which must outlive it, and names its communicators in `log`. Two worlds may log
// into one timeline (a trainer's device world and its MPI world): the second's communicators
// then take the ids after the first's (`first_id`) and names of their own (`name_prefix`).
class TimelineWorld final : public comm::WrappedWorld {
 public:
  TimelineWorld(comm::World& inner, TimelineLog& log, dag::CommId first_id = 0,
                std::string_view name_prefix = {});
};

}  // namespace ordo::flight
