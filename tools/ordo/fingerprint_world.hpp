// Fingerprint mode over a rank's MPI world when it is asked for (docs/diagnostics.md): the
// shadow channels and the checked world in front of the MPI world, or the MPI world itself.
#pragma once

#include <memory>

#include "runtime/comm/mpi/shadow_channels.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/diag/checked_world.hpp"

namespace ordo::tools {

class FingerprintWorld {
 public:
  // With `on`, duplicates every communicator of `mpi` (collective: every rank constructs it at
  // the same point, before any collective). `mpi` must outlive this object.
  FingerprintWorld(comm::MpiWorld& mpi, bool on) : mpi_(mpi) {
    if (!on) return;
    shadows_ = std::make_unique<comm::MpiShadowChannels>(mpi);
    checked_ = std::make_unique<diag::CheckedWorld>(mpi, shadows_->channels());
  }

  comm::World& world() { return checked_ ? static_cast<comm::World&>(*checked_) : mpi_; }

 private:
  comm::MpiWorld& mpi_;
  std::unique_ptr<comm::MpiShadowChannels> shadows_;
  std::unique_ptr<diag::CheckedWorld> checked_;
};

}  // namespace ordo::tools
