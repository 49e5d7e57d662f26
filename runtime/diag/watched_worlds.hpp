// What a rank's collectives pass through when it is watched (docs/diagnostics.md): fingerprint
// mode, the flight recorder and the timeline, each when asked for, stacked in one order over the
// MPI world and, on a device path, over the device world that carries the step's collectives.
//
// Fingerprint mode sits next to the world, so that a call it refuses is recorded as failed; the
// timeline sits over the recorder, so that the two see the same calls in the same order. On a
// device path each world is checked on channels of its own (a device communicator and its MPI
// namesake are matched apart, so their calls are compared apart), and the recorder, the timeline
// and fingerprint mode's reports all name the device world's communicators as they are and the
// MPI world's as "host.<name>" (the recorder and the timeline also number the device world's
// first).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/comm/check_channel.hpp"
#include "runtime/comm/communicator.hpp"
#include "runtime/comm/joined_world.hpp"
#include "runtime/comm/rules/backend.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/diag/flight_recorder.hpp"
#include "runtime/diag/timeline_run.hpp"
#include "runtime/flight/checked_world.hpp"
#include "runtime/flight/recorded_world.hpp"
#include "runtime/flight/timeline_log.hpp"

namespace ordo::diag {

struct WatchOptions {
  // Fingerprint mode: one check channel per communicator of the world (by id, null where this
  // rank is not a member), and as many of their own for the step world when there is one. Empty:
  // off.
  std::vector<comm::CheckChannel*> channels;
  std::vector<comm::CheckChannel*> step_channels;
  // What carries the step world's calls: under NCCL every call is a launch, so fingerprint mode
  // does not compare their blocking forms there (comm::call_blocks).
  comm::Backend step_backend = comm::Backend::mpi;
  bool flight_recorder = false;
  std::size_t flight_ring = ring_capacity_default;
  std::string timeline_path;  // empty: no timeline
  std::size_t timeline_events = flight::timeline_events_default;
  std::int64_t timeline_key = -1;  // the key of the timeline's own calls
};

class WatchedWorlds {
 public:
  // `world` (the MPI world) and `step` (the device world, or null on the host path) are built
  // from `comms` and must outlive this, as must the channels. Issues no call (the channels'
  // owner made them collectively before). Throws std::invalid_argument for a step world or
  // channels that do not fit the world.
  WatchedWorlds(comm::World& world, comm::World* step, const std::vector<dag::Communicator>& comms,
                const WatchOptions& options);
  WatchedWorlds(const WatchedWorlds&) = delete;
  WatchedWorlds& operator=(const WatchedWorlds&) = delete;

  // The main thread's agreements go here, and on the host path the step's collectives too.
  comm::World& world() { return *world_; }
  // Where the step's collectives go on a device path; null on the host path.
  comm::World* step_world() { return step_world_; }
  FlightRecorder* recorder() { return recorder_.get(); }
  TimelineRun* timeline() { return timeline_.get(); }

 private:
  std::unique_ptr<flight::CheckedWorld> checked_;
  std::unique_ptr<flight::CheckedWorld> step_checked_;
  std::unique_ptr<comm::JoinedWorld> both_;
  std::unique_ptr<FlightRecorder> recorder_;
  std::unique_ptr<flight::RecordedWorld> recorded_;
  std::unique_ptr<flight::RecordedWorld> step_recorded_;
  std::unique_ptr<TimelineRun> timeline_;
  comm::World* world_ = nullptr;
  comm::World* step_world_ = nullptr;
};

}  // namespace ordo::diag
