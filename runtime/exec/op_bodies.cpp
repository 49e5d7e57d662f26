#include "runtime/exec/op_bodies.hpp"

#include <cassert>
#include <chrono>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/comm/sim/issuer.hpp"
#include "runtime/dag/collective_buffer.hpp"

namespace ordo::exec {

CollectiveBuffers collective_buffers(const dag::Op& op, const Buffers& buffers) {
  const dag::CollectiveBuffer b = dag::collective_buffer(
      op, [&buffers](dag::VarId v) { return buffers.var(v).kind != dag::VarKind::token; });
  return CollectiveBuffers{b.buffer, b.source};
}

std::span<std::byte> collective_slice(const dag::Collective& c, dag::VarId buffer,
                                      Buffers& buffers, const std::string& who) {
  const std::uint64_t element = dag::dtype_bytes(c.dtype);
  const std::span<std::byte> whole = buffers.bytes(buffer);
  // The validator refuses these; a program built in memory and run unvalidated must not write
  // past the var either.
  if (c.offset > whole.size() / element || c.count > whole.size() / element - c.offset) {
    throw std::invalid_argument(who + " moves elements " +
                                std::to_string(c.offset) + " to " +
                                std::to_string(c.offset) + " + " + std::to_string(c.count) +
                                " but its buffer '" + buffers.var(buffer).name + "' holds " +
                                std::to_string(whole.size()) + " bytes");
  }
  return whole.subspan(c.offset * element, c.count * element);
}

void run_compute(dag::Rank rank, const dag::Op& op, Buffers& buffers, const BodyOptions& options) {
  assert(op.kind == dag::OpKind::compute);
  if (options.compute && !options.compute_on_device && !buffers.host_visible()) {
    throw std::invalid_argument("compute op '" + op.name +
                                "': the compute hook reads and writes vars on the host, but this "
                                "rank's vars are in " + buffers.describe_memory() +
                                "; expected host-visible memory, no compute hook, or a hook that "
                                "computes on the device (BodyOptions::compute_on_device)");
  }
  if (options.compute) options.compute(rank, op, buffers);
  if (options.compute_time_scale > 0.0 && op.cost_us > 0.0) {
    std::this_thread::sleep_for(
        std::chrono::duration<double, std::micro>(op.cost_us * options.compute_time_scale));
  }
}

void run_copy(const dag::Op& op, Buffers& buffers, engine::DeviceQueue* queue) {
  if (op.reads.empty() || op.writes.empty() || (op.reads.size() > 1 && op.writes.size() > 1)) {
    throw std::invalid_argument("copy op '" + op.name +
                                "' must read one var and write one, pack several into one or "
                                "unpack one into several");
  }
  if (op.reads.size() == 1 && op.writes.size() == 1) {
    const std::span<const std::byte> from = std::as_const(buffers).bytes(op.reads[0]);
    const std::span<std::byte> to = buffers.bytes(op.writes[0]);
    const ByteCopy one{to.data(), from.data(), std::min(from.size(), to.size())};
    buffers.copy({&one, 1}, queue);
    return;
  }
  // Pack: the read vars end to end into the written one. Unpack: the read var cut into the
  // written ones in order. Sizes are held to each other when the program is validated; the
  // bounds here keep a program that skipped validation inside its vars.
  const bool pack = op.reads.size() > 1;
  const std::span<std::byte> whole = buffers.bytes(pack ? op.writes[0] : op.reads[0]);
  std::vector<ByteCopy> copies;
  std::size_t offset = 0;
  for (dag::VarId part : pack ? op.reads : op.writes) {
    const std::span<std::byte> piece = buffers.bytes(part);
    const std::size_t n = std::min(piece.size(), whole.size() - offset);
    if (pack) {
      copies.push_back({whole.data() + offset, piece.data(), n});
    } else {
      copies.push_back({piece.data(), whole.data() + offset, n});
    }
    offset += n;
  }
  buffers.copy(copies, queue);
}

void jitter(std::uint32_t jitter_us) {
  if (jitter_us == 0) return;
  thread_local std::minstd_rand rng(static_cast<std::uint32_t>(
      std::hash<std::thread::id>{}(std::this_thread::get_id()) ^
      static_cast<std::size_t>(std::chrono::steady_clock::now().time_since_epoch().count())));
  std::uniform_int_distribution<std::uint32_t> us(0, jitter_us);
  std::this_thread::sleep_for(std::chrono::microseconds(us(rng)));
}

void issue_collective(const dag::Op& op, Buffers& buffers, comm::Communicator& comm, bool blocking,
                      comm::Communicator::Done done) {
  assert(op.collective.has_value());
  const comm::Call call = comm::call_of(*op.collective);
  const CollectiveBuffers where = collective_buffers(op, buffers);
  void* buffer = nullptr;
  if (where.buffer) {
    const std::span<std::byte> slice = collective_slice(*op.collective, *where.buffer, buffers, "collective op '" + op.name + "'");
    buffer = slice.data();
    if (where.source) {
      // Only the slice the call moves: the rest of the buffer may belong to other calls.
      const std::span<const std::byte> from = std::as_const(buffers).bytes(*where.source);
      const std::uint64_t at = op.collective->offset * dag::dtype_bytes(call.dtype);
      if (at < from.size()) {
        const ByteCopy in{slice.data(), from.data() + at,
                          std::min<std::size_t>(from.size() - at, slice.size())};
        buffers.copy({&in, 1});
      }
    }
  }
  const comm::sim::IssuerScope issuer(op.name);
  if (blocking) {
    comm.call_then(call, buffer, std::move(done));
  } else {
    comm.start_then(call, buffer, std::move(done));
  }
}

}  // namespace ordo::exec
