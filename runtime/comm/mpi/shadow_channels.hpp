// Fingerprint mode's channels over Open MPI: duplicates of each of the rank's communicators
// (MPI_Comm_dup gives a new matching context over the same group), one for the fingerprint
// exchanges and one for the single barrier of settle(), so neither can match the collectives
// they check, nor each other: after a divergence the ranks may have issued different numbers of
// exchanges, but each issues exactly one settling barrier per communicator.
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "runtime/comm/check_channel.hpp"
#include "runtime/comm/mpi/progress.hpp"
#include "runtime/comm/mpi/world.hpp"

namespace ordo::comm {

class MpiCheckChannel final : public CheckChannel {
 public:
  // Takes ownership of both communicators (freed on destruction); `progress` ends gather_then's
  // exchanges.
  MpiCheckChannel(MPI_Comm exchange, MPI_Comm settle, MpiProgress& progress);
  ~MpiCheckChannel() override;

  std::uint32_t size() const override { return size_; }
  void gather(const std::byte* mine, std::byte* all, std::size_t bytes) override;
  void gather_then(const std::byte* mine, std::byte* all, std::size_t bytes,
                   Communicator::Done done) override;
  void settle(double seconds) override;

 private:
  MPI_Comm exchange_;
  MPI_Comm settle_;
  MpiProgress& progress_;
  std::uint32_t size_ = 0;
};

class MpiShadowChannels {
 public:
  // Duplicates every communicator `world` has this rank in, in table order, on the calling
  // thread: collective over each communicator's members, so every rank constructs it at the same
  // point, before any thread issues collectives (as for MpiWorld itself). `world` must outlive it.
  explicit MpiShadowChannels(MpiWorld& world);
  ~MpiShadowChannels();
  MpiShadowChannels(const MpiShadowChannels&) = delete;
  MpiShadowChannels& operator=(const MpiShadowChannels&) = delete;

  // By communicator id, null where this rank is not a member.
  std::vector<CheckChannel*> channels();

 private:
  std::vector<std::unique_ptr<MpiCheckChannel>> channels_;
  // Declared after channels_, so destroyed first: exchanges in flight end before any is freed.
  MpiProgress progress_;
};

}  // namespace ordo::comm
