#include "runtime/comm/mpi/shadow_channels.hpp"

#include <cassert>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <thread>
#include <utility>

#include "runtime/bounds/seconds.hpp"
#include "runtime/comm/mpi/error.hpp"
#include "runtime/comm/mpi/request.hpp"

namespace ordo::comm {
namespace {

int byte_count(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument("fingerprint exchange of " + std::to_string(bytes) +
                                " bytes: more than an MPI count holds");
  }
  return static_cast<int>(bytes);
}

}  // namespace

MpiCheckChannel::MpiCheckChannel(MPI_Comm exchange, MPI_Comm settle, MpiProgress& progress)
    : exchange_(exchange), settle_(settle), progress_(progress) {
  check_mpi(MPI_Comm_set_errhandler(exchange_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_set_errhandler(settle_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  int size = 0;
  check_mpi(MPI_Comm_size(exchange_, &size), "MPI_Comm_size");
  size_ = static_cast<std::uint32_t>(size);
}

MpiCheckChannel::~MpiCheckChannel() {
  MPI_Comm_free(&settle_);
  MPI_Comm_free(&exchange_);
}

void MpiCheckChannel::gather(const std::byte* mine, std::byte* all, std::size_t bytes) {
  // The non-blocking form here too: MPI never matches a blocking collective with a non-blocking
  // one, and a blocking call's exchange must match a non-blocking call's on another rank.
  const int n = byte_count(bytes);
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Iallgather(mine, n, MPI_BYTE, all, n, MPI_BYTE, exchange_, &request),
            "MPI_Iallgather");
  check_mpi(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
}

void MpiCheckChannel::gather_then(const std::byte* mine, std::byte* all, std::size_t bytes,
                                  Communicator::Done done) {
  std::unique_ptr<MpiRequest> request;
  try {
    const int n = byte_count(bytes);
    request = std::make_unique<MpiRequest>("fingerprint exchange");
    MPI_Request r = MPI_REQUEST_NULL;
    check_mpi(MPI_Iallgather(mine, n, MPI_BYTE, all, n, MPI_BYTE, exchange_, &r), "MPI_Iallgather");
    request->add(r);
  } catch (...) {
    done(std::current_exception());
    return;
  }
  progress_.watch(std::move(request), std::move(done));
}

void MpiCheckChannel::settle(double seconds) {
  MPI_Request request = MPI_REQUEST_NULL;
  if (MPI_Ibarrier(settle_, &request) != MPI_SUCCESS) return;
  const auto deadline = bounds::deadline_after(std::chrono::steady_clock::now(), seconds);
  int over = 0;
  while (MPI_Test(&request, &over, MPI_STATUS_IGNORE) == MPI_SUCCESS && over == 0) {
    if (std::chrono::steady_clock::now() >= deadline) return;  // the job ends; MPI with it
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

MpiShadowChannels::MpiShadowChannels(MpiWorld& world) {
  channels_.resize(world.comm_count());
  for (dag::CommId id = 0; id < world.comm_count(); ++id) {
    if (!world.is_member(id)) continue;
    MPI_Comm exchange = MPI_COMM_NULL;
    MPI_Comm settle = MPI_COMM_NULL;
    check_mpi(MPI_Comm_dup(world.comm(id).handle(), &exchange), "MPI_Comm_dup");
    check_mpi(MPI_Comm_dup(world.comm(id).handle(), &settle), "MPI_Comm_dup");
    channels_[id] = std::make_unique<MpiCheckChannel>(exchange, settle, progress_);
  }
}

MpiShadowChannels::~MpiShadowChannels() = default;

std::vector<CheckChannel*> MpiShadowChannels::channels() {
  std::vector<CheckChannel*> out;
  out.reserve(channels_.size());
  for (const auto& c : channels_) out.push_back(c.get());
  return out;
}

}  // namespace ordo::comm
