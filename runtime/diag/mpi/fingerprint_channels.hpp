// Fingerprint mode's channels over a rank's MPI world when it is asked for (docs/diagnostics.md):
// shadows of the MPI world's communicators for its own calls and, on a device path, a second set
// for the device world's, which is matched apart and so compared apart: what WatchedWorlds checks
// the worlds on, for `ordo train`, `ordo demo --mpi` and the fault job of the tests.
#pragma once

#include <memory>

#include "runtime/comm/mpi/shadow_channels.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/diag/watched_worlds.hpp"

namespace ordo::diag {

class FingerprintChannels {
 public:
  // With `on`, duplicates every communicator of `mpi`, twice with `device_world`: collective, so
  // every rank constructs it at the same point, before any collective. `mpi` must outlive this,
  // and this the worlds checked on it.
  FingerprintChannels(comm::MpiWorld& mpi, bool on, bool device_world) {
    if (!on) return;
    shadows_ = std::make_unique<comm::MpiShadowChannels>(mpi);
    if (device_world) device_shadows_ = std::make_unique<comm::MpiShadowChannels>(mpi);
  }

  // Gives `options` the channels; leaves it as it is when fingerprint mode is off.
  void give(WatchOptions& options) const {
    if (shadows_) options.channels = shadows_->channels();
    if (device_shadows_) options.step_channels = device_shadows_->channels();
  }

 private:
  std::unique_ptr<comm::MpiShadowChannels> shadows_;
  std::unique_ptr<comm::MpiShadowChannels> device_shadows_;
};

}  // namespace ordo::diag
