// The worlds a rank of `ordo train` trains on, made collectively before any collective of the
// job: the design fitted to the world, the MPI world of the step program's communicators, where
// the gradients live and what carries them (device_gradients.hpp), fingerprint mode's channels,
// and the watched worlds stacked over them (diag::WatchedWorlds: fingerprint mode, the flight
// recorder, the timeline). Calls of MPI itself, which no recorder sees yet: the job bounds them
// with a deadline of its own (diag/deadline.hpp).
#pragma once

#include <c10/core/Device.h>

#include <optional>
#include <string>

#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/comm/rules/backend.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/diag/mpi/fingerprint_channels.hpp"
#include "runtime/diag/watched_worlds.hpp"
#include "runtime/train/device/device_gradients.hpp"
#include "runtime/train/job/job_options.hpp"

namespace ordo::train {

// Fits a design written for its rank count to the world it runs on: its size, and the node layout
// MPI reports where the design needs one (designs::fit_to_ranks refuses a --shards, --nodes or
// --node-ranks that is not the world's). Collective. Returns why it does not fit, alike on every
// rank, or nullopt.
std::optional<std::string> fit_to_world(const comm::MpiRuntime& runtime,
                                        designs::DesignConfig& config);

class JobWorlds {
 public:
  // Collective: every rank constructs it at the same point. Throws std::invalid_argument, alike
  // on every rank, for a device path the job cannot take; a rank that cannot set up the path it
  // may take (a CUDA or NCCL error of its own) says so and ends the job (MpiRuntime::abort).
  JobWorlds(const comm::MpiRuntime& runtime, const designs::DesignConfig& config,
            const JobOptions& o, const c10::Device& device, bool check_collectives);
  JobWorlds(const JobWorlds&) = delete;
  JobWorlds& operator=(const JobWorlds&) = delete;

  // The main thread's agreements go here, and on the host path the step's collectives too.
  comm::World& world() { return watched_.world(); }
  // Where the step's collectives go on a device path; null on the host path.
  comm::World* step_world() { return watched_.step_world(); }
  diag::FlightRecorder* recorder() { return watched_.recorder(); }
  diag::TimelineRun* timeline() { return watched_.timeline(); }
  const DeviceGradients& gradients() const { return gradients_; }
  // The semantics the step's collectives run under: NCCL's where they go over NCCL
  // (docs/semantics.md, §3a).
  comm::Backend backend() const {
    return gradients_.path == comm::DevicePath::nccl ? comm::Backend::nccl : comm::Backend::mpi;
  }

 private:
  comm::MpiWorld mpi_;
  DeviceGradients gradients_;
  diag::FingerprintChannels fingerprints_;
  diag::WatchedWorlds watched_;
};

}  // namespace ordo::train
