#include "runtime/comm/mpi/communicator.hpp"

#include <cassert>
#include <cstddef>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "runtime/comm/mpi/chunks.hpp"
#include "runtime/comm/mpi/collectives.hpp"
#include "runtime/comm/mpi/error.hpp"
#include "runtime/comm/mpi/limits.hpp"
#include "runtime/comm/mpi/messages.hpp"
#include "runtime/comm/mpi/request.hpp"
#include "runtime/comm/rules/call.hpp"

namespace ordo::comm {
namespace {

// Calls issue(first element, element count) for each chunk of the call's buffer, in chunk order,
// which is the same on every rank. Offsets stay inside the buffer: every chunk lies below count,
// and MpiCommunicator::check bounded count * element size.
template <typename Issue>
void for_each_chunk_of(std::uint64_t count, std::uint64_t chunk_elements_max, void* buffer,
                       std::size_t element_bytes, Issue&& issue) {
  const std::uint64_t chunks = chunk_count(count, chunk_elements_max);
  for (std::uint64_t i = 0; i < chunks; ++i) {
    const Chunk chunk = chunk_at(count, chunk_elements_max, i);
    issue(static_cast<std::byte*>(buffer) + chunk.first * element_bytes, chunk.count);
  }
}

}  // namespace

MpiCommunicator::MpiCommunicator(MPI_Comm comm, std::string name, const MpiTypeTable& types,
                                 std::uint64_t chunk_elements_max, MpiProgress* progress)
    : comm_(comm),
      name_(std::move(name)),
      types_(types),
      chunk_elements_max_(chunk_elements_max),
      progress_(progress) {
  assert(comm_ != MPI_COMM_NULL);
  chunk_count(0, chunk_elements_max_);  // throws for a chunk size outside 1..INT_MAX
  check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  int rank = 0;
  int size = 0;
  check_mpi(MPI_Comm_rank(comm_, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm_, &size), "MPI_Comm_size");
  assert(rank >= 0 && rank < size);
  rank_ = static_cast<dag::Rank>(rank);
  size_ = static_cast<std::uint32_t>(size);
}

MpiCommunicator::~MpiCommunicator() {
  // A failure here leaves nothing to recover; MPI_Finalize reclaims the handle in any case.
  MPI_Comm_free(&comm_);
}

void MpiCommunicator::check(const Call& call, const void* buffer) const {
  check_call(call, buffer, name_, size_);
  const std::size_t bytes = types_.element_bytes(call.dtype);
  const auto elements_max =
      static_cast<std::uint64_t>(std::numeric_limits<std::ptrdiff_t>::max()) / bytes;
  if (call.count > elements_max) {
    throw std::invalid_argument(describe(call, name_) + ": no buffer can hold " +
                                std::to_string(call.count) + " elements");
  }
  // A message is one MPI call: split into chunks, a receive from any source could take chunks
  // of two senders' messages (M4), and two threads' sends of one channel could interleave (M6).
  if (dag::is_point_to_point(call.kind) && call.count > chunk_elements_max_) {
    throw std::invalid_argument(
        describe(call, name_) + ": a message of " + std::to_string(call.count) +
        " elements exceeds the largest MPI "
        "call of " +
        std::to_string(chunk_elements_max_) + " elements; a message is never split");
  }
  // A block is one MPI call's count: splitting it would interleave the members' blocks, which
  // in-place MPI_Reduce_scatter_block and MPI_Allgather cannot express.
  if (dag::splits_into_blocks(call.kind) && call.count / size_ > chunk_elements_max_) {
    throw std::invalid_argument(
        describe(call, name_) + ": each rank's block of " + std::to_string(call.count / size_) +
        " elements exceeds the largest MPI call of " + std::to_string(chunk_elements_max_) +
        " elements; a block is never split");
  }
}

void MpiCommunicator::blocks(const Call& call, void* buffer, bool blocking, MpiRequest* request) {
  const MPI_Datatype datatype = types_.datatype(call.dtype);
  const int block = static_cast<int>(call.count / size_);  // check() bounded it
  const int rank = static_cast<int>(rank_);
  switch (call.kind) {
    case dag::CollectiveKind::allgather:
      if (blocking) {
        mpi_call::allgather(comm_, buffer, block, datatype);
      } else {
        request->add(mpi_call::iallgather(comm_, buffer, block, datatype));
      }
      return;
    case dag::CollectiveKind::gather:
      if (blocking) {
        mpi_call::gather(comm_, buffer, block, datatype, static_cast<int>(*call.root), rank);
      } else {
        request->add(
            mpi_call::igather(comm_, buffer, block, datatype, static_cast<int>(*call.root), rank));
      }
      return;
    case dag::CollectiveKind::scatter:
      if (blocking) {
        mpi_call::scatter(comm_, buffer, block, datatype, static_cast<int>(*call.root), rank);
      } else {
        request->add(
            mpi_call::iscatter(comm_, buffer, block, datatype, static_cast<int>(*call.root), rank));
      }
      return;
    case dag::CollectiveKind::alltoall: {
      // What this rank sends is its buffer as issued: a copy, kept until the call has ended, so
      // that the buffer can receive (MPI_IN_PLACE for MPI_Ialltoall is not in every library).
      const std::size_t bytes =
          static_cast<std::size_t>(call.count) * types_.element_bytes(call.dtype);
      const auto* from = static_cast<const std::byte*>(buffer);
      auto send = std::make_shared<std::vector<std::byte>>(from, from + bytes);
      if (blocking) {
        mpi_call::alltoall(comm_, send->data(), buffer, block, datatype);
      } else {
        request->add(mpi_call::ialltoall(comm_, send->data(), buffer, block, datatype));
        request->then([send] {});
      }
      return;
    }
    default:
      break;
  }
  assert(call.kind == dag::CollectiveKind::reduce_scatter);
  const MPI_Op op = types_.op(call.dtype, call.reduction);
  // MPI_IN_PLACE leaves the result at the front of the buffer; ordo's convention keeps each
  // rank's block at its own offset (docs/comm.md), so it moves there once the call has ended.
  const std::size_t block_bytes =
      static_cast<std::size_t>(block) * types_.element_bytes(call.dtype);
  std::byte* const front = static_cast<std::byte*>(buffer);
  std::byte* const own = front + static_cast<std::size_t>(rank_) * block_bytes;
  const auto place = [front, own, block_bytes] {
    if (own != front && block_bytes > 0) std::memmove(own, front, block_bytes);
  };
  if (blocking) {
    mpi_call::reduce_scatter_block(comm_, buffer, block, datatype, op);
    place();
  } else {
    request->add(mpi_call::ireduce_scatter_block(comm_, buffer, block, datatype, op));
    request->then(place);
  }
}

void MpiCommunicator::message(const Call& call, void* buffer, bool blocking, MpiRequest* request) {
  const MPI_Datatype datatype = types_.datatype(call.dtype);
  const int count = static_cast<int>(call.count);  // check() bounded it
  const int peer = *call.peer == dag::any_source ? MPI_ANY_SOURCE : static_cast<int>(*call.peer);
  const int tag = static_cast<int>(call.tag);
  if (call.kind == dag::CollectiveKind::send) {
    if (blocking) {
      mpi_call::send(comm_, buffer, count, datatype, peer, tag);
    } else {
      request->add(mpi_call::isend(comm_, buffer, count, datatype, peer, tag));
    }
    return;
  }
  assert(call.kind == dag::CollectiveKind::recv);
  if (blocking) {
    mpi_call::recv(comm_, buffer, count, datatype, peer, tag);
  } else {
    request->add(mpi_call::irecv(comm_, buffer, count, datatype, peer, tag));
  }
}

void MpiCommunicator::blocking_chunk(const Call& call, std::byte* first, int count) {
  const MPI_Datatype datatype = types_.datatype(call.dtype);
  if (call.kind == dag::CollectiveKind::allreduce) {
    mpi_call::allreduce(comm_, first, count, datatype, types_.op(call.dtype, call.reduction));
    return;
  }
  if (call.kind == dag::CollectiveKind::reduce) {
    mpi_call::reduce(comm_, first, count, datatype, types_.op(call.dtype, call.reduction),
                     static_cast<int>(*call.root), *call.root == rank_);
    return;
  }
  // A scan's prefix is element by element, so chunks of it are scans of their elements.
  if (call.kind == dag::CollectiveKind::scan) {
    mpi_call::scan(comm_, first, count, datatype, types_.op(call.dtype, call.reduction));
    return;
  }
  if (call.kind == dag::CollectiveKind::exscan) {
    mpi_call::exscan(comm_, first, count, datatype, types_.op(call.dtype, call.reduction));
    return;
  }
  assert(call.kind == dag::CollectiveKind::bcast && call.root);
  mpi_call::bcast(comm_, first, count, datatype, static_cast<int>(*call.root));
}

MPI_Request MpiCommunicator::nonblocking_chunk(const Call& call, std::byte* first, int count) {
  const MPI_Datatype datatype = types_.datatype(call.dtype);
  if (call.kind == dag::CollectiveKind::allreduce) {
    return mpi_call::iallreduce(comm_, first, count, datatype,
                                types_.op(call.dtype, call.reduction));
  }
  if (call.kind == dag::CollectiveKind::reduce) {
    return mpi_call::ireduce(comm_, first, count, datatype, types_.op(call.dtype, call.reduction),
                             static_cast<int>(*call.root), *call.root == rank_);
  }
  if (call.kind == dag::CollectiveKind::scan) {
    return mpi_call::iscan(comm_, first, count, datatype, types_.op(call.dtype, call.reduction));
  }
  if (call.kind == dag::CollectiveKind::exscan) {
    return mpi_call::iexscan(comm_, first, count, datatype, types_.op(call.dtype, call.reduction));
  }
  assert(call.kind == dag::CollectiveKind::bcast && call.root);
  return mpi_call::ibcast(comm_, first, count, datatype, static_cast<int>(*call.root));
}

void MpiCommunicator::call(const Call& call, void* buffer) {
  check(call, buffer);
  try {
    if (call.kind == dag::CollectiveKind::barrier) {
      mpi_call::barrier(comm_);
      return;
    }
    if (dag::splits_into_blocks(call.kind)) {
      blocks(call, buffer, true, nullptr);
      return;
    }
    if (dag::is_point_to_point(call.kind)) {
      message(call, buffer, true, nullptr);
      return;
    }
    for_each_chunk_of(call.count, chunk_elements_max_, buffer, types_.element_bytes(call.dtype),
                      [&](std::byte* first, int count) { blocking_chunk(call, first, count); });
  } catch (const MpiError& error) {
    throw MpiError(error.function(), error.code(), describe(call, name_));
  }
}

std::unique_ptr<Request> MpiCommunicator::start(const Call& call, void* buffer) {
  check(call, buffer);
  const std::uint64_t chunks = chunk_count(call.count, chunk_elements_max_);
  if (!dag::splits_into_blocks(call.kind) && !dag::is_point_to_point(call.kind) &&
      chunks > limits::mpi_requests_per_start_max) {
    throw std::invalid_argument(describe(call, name_) +
                                ": a non-blocking collective takes at most " +
                                std::to_string(limits::mpi_requests_per_start_max) + " chunks of " +
                                std::to_string(chunk_elements_max_) + " elements, this one needs " +
                                std::to_string(chunks) + "; use the blocking form");
  }
  try {
    // If starting a later chunk fails, destroying `request` waits for the chunks already started.
    auto request = std::make_unique<MpiRequest>(describe(call, name_));
    if (call.kind == dag::CollectiveKind::barrier) {
      request->add(mpi_call::ibarrier(comm_));
      return request;
    }
    if (dag::splits_into_blocks(call.kind)) {
      blocks(call, buffer, false, request.get());
      return request;
    }
    if (dag::is_point_to_point(call.kind)) {
      message(call, buffer, false, request.get());
      return request;
    }
    for_each_chunk_of(
        call.count, chunk_elements_max_, buffer, types_.element_bytes(call.dtype),
        [&](std::byte* first, int count) { request->add(nonblocking_chunk(call, first, count)); });
    return request;
  } catch (const MpiError& error) {
    throw MpiError(error.function(), error.code(), describe(call, name_));
  }
}

void MpiCommunicator::start_then(const Call& call, void* buffer, Done done) {
  if (progress_ == nullptr) {
    Communicator::start_then(call, buffer, std::move(done));
    return;
  }
  std::unique_ptr<Request> request;
  try {
    request = start(call, buffer);
  } catch (...) {
    done(std::current_exception());
    return;
  }
  progress_->watch(std::move(request), std::move(done));
}

}  // namespace ordo::comm
