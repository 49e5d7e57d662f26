#include "runtime/comm/staged/pipeline.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <optional>
#include <vector>

namespace ordo::comm {
namespace {

// Three slots: while chunk i is reduced in its slot, chunk i+1 is copied into the next one and
// chunk i-1 out of the one before. Two would make chunk i+1's copy in wait for chunk i-1's copy
// out of the same slot, so the two would not both overlap the reduction.
constexpr std::size_t slots_max = 3;
// Slots start on this boundary: every dtype's alignment, and what copy engines move fastest.
constexpr std::size_t slot_alignment = 256;

// The copies in flight; any left when the collective fails are waited for, so that neither the
// device buffer nor the host slots are still being written once the error is thrown.
class InFlight {
 public:
  explicit InFlight(Stager& stager) : stager_(stager) {}
  ~InFlight() {
    for (const Stager::Copy copy : copies_) {
      try {
        stager_.wait(copy);
      } catch (...) {
        // The first error is the one being thrown; a copy that fails behind it changes nothing.
      }
    }
  }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;

  Stager::Copy add(Stager::Copy copy) {
    copies_.push_back(copy);
    return copy;
  }
  void wait(Stager::Copy copy) {
    const auto found = std::find(copies_.begin(), copies_.end(), copy);
    assert(found != copies_.end());
    copies_.erase(found);
    stager_.wait(copy);
  }

 private:
  Stager& stager_;
  std::vector<Stager::Copy> copies_;
};

void host_collective(Communicator& host, const Call& call, void* data, bool blocking) {
  if (blocking) {
    host.call(call, data);
  } else {
    host.start(call, data)->wait();
  }
}

std::byte* at(void* base, std::uint64_t elements, std::size_t element_bytes) {
  return static_cast<std::byte*>(base) + elements * element_bytes;
}

struct Directions {
  bool in = true;   // this rank's data matters to the collective
  bool out = true;  // the collective changes this rank's buffer
};

Directions directions(const Call& call, dag::Rank rank) {
  switch (call.kind) {
    case dag::CollectiveKind::bcast:
      return {*call.root == rank, *call.root != rank};
    case dag::CollectiveKind::reduce:
      return {true, *call.root == rank};
    default:
      return {true, true};
  }
}

void run_pipelined(Communicator& host, Stager& stager, const Call& call, void* device,
                   std::size_t chunk_bytes, bool blocking) {
  const std::size_t element = dag::dtype_bytes(call.dtype);
  const std::uint64_t per_chunk = std::max<std::uint64_t>(1, chunk_bytes / element);
  const std::uint64_t chunks = call.count == 0 ? 1 : (call.count + per_chunk - 1) / per_chunk;
  const std::uint64_t slot_elements = std::min(per_chunk, call.count);
  const std::size_t slot_bytes =
      (slot_elements * element + slot_alignment - 1) / slot_alignment * slot_alignment;
  const std::size_t slots = static_cast<std::size_t>(std::min<std::uint64_t>(chunks, slots_max));
  void* const area = stager.host(slot_bytes * slots);
  const Directions way = directions(call, host.rank());

  const auto first = [&](std::uint64_t i) { return i * per_chunk; };
  const auto count = [&](std::uint64_t i) { return std::min(per_chunk, call.count - first(i)); };
  const auto slot = [&](std::uint64_t i) { return at(area, (i % slots) * slot_bytes, 1); };

  InFlight in_flight(stager);
  // The copy out of each slot still reading it; a slot is refilled only once it has landed.
  std::array<std::optional<Stager::Copy>, slots_max> draining{};
  const auto fill = [&](std::uint64_t i) -> std::optional<Stager::Copy> {
    std::optional<Stager::Copy>& previous = draining[i % slots];
    if (previous) {
      in_flight.wait(*previous);
      previous.reset();
    }
    if (!way.in || count(i) == 0) return std::nullopt;
    return in_flight.add(
        stager.to_host(at(device, first(i), element), slot(i), count(i) * element));
  };

  std::optional<Stager::Copy> filling = fill(0);
  for (std::uint64_t i = 0; i < chunks; ++i) {
    const std::optional<Stager::Copy> next = i + 1 < chunks ? fill(i + 1) : std::nullopt;
    if (filling) in_flight.wait(*filling);
    Call part = call;
    part.count = count(i);
    host_collective(host, part, slot(i), blocking);
    if (way.out && part.count > 0) {
      draining[i % slots] = in_flight.add(
          stager.to_device(slot(i), at(device, first(i), element), part.count * element));
    }
    filling = next;
  }
  for (std::optional<Stager::Copy>& copy : draining) {
    if (copy) in_flight.wait(*copy);
  }
}

void run_whole(Communicator& host, Stager& stager, const Call& call, void* device, bool blocking) {
  const std::size_t element = dag::dtype_bytes(call.dtype);
  const std::uint64_t block = call.count / host.size();
  const std::uint64_t own = block * host.rank();
  void* const area = stager.host(call.count * element);
  const bool gather = call.kind == dag::CollectiveKind::allgather;
  const bool scatter = call.kind == dag::CollectiveKind::reduce_scatter;
  // In: every block for a reduction, this rank's own for a gather; out the other way round. The
  // rooted and all-to-all kinds move the whole buffer both ways: which blocks matter depends on
  // the role, and a block the call leaves alone goes back as it came.
  const std::uint64_t in_first = gather ? own : 0;
  const std::uint64_t in_count = gather ? block : call.count;
  const std::uint64_t out_first = scatter ? own : 0;
  const std::uint64_t out_count = scatter ? block : call.count;

  InFlight in_flight(stager);
  if (in_count > 0) {
    in_flight.wait(in_flight.add(stager.to_host(at(device, in_first, element),
                                                at(area, in_first, element), in_count * element)));
  }
  host_collective(host, call, area, blocking);
  if (out_count > 0) {
    in_flight.wait(in_flight.add(stager.to_device(
        at(area, out_first, element), at(device, out_first, element), out_count * element)));
  }
}

}  // namespace

void run_staged(Communicator& host, Stager& stager, const Call& call, void* device_buffer,
                std::size_t chunk_bytes, bool blocking) {
  assert(chunk_bytes > 0);
  switch (call.kind) {
    case dag::CollectiveKind::barrier:
      host_collective(host, call, nullptr, blocking);
      return;
    case dag::CollectiveKind::reduce_scatter:
    case dag::CollectiveKind::allgather:
    case dag::CollectiveKind::gather:
    case dag::CollectiveKind::scatter:
    case dag::CollectiveKind::alltoall:
      run_whole(host, stager, call, device_buffer, blocking);
      return;
    case dag::CollectiveKind::allreduce:
    case dag::CollectiveKind::bcast:
    case dag::CollectiveKind::reduce:
    case dag::CollectiveKind::scan:  // element by element, so chunk by chunk
    case dag::CollectiveKind::exscan:
      run_pipelined(host, stager, call, device_buffer, chunk_bytes, blocking);
      return;
    case dag::CollectiveKind::send:
    case dag::CollectiveKind::recv:
      throw std::invalid_argument(describe(call, "the staged communicator") +
                                  ": point to point does not run through device staging yet");
  }
  assert(false && "unknown collective kind");
}

}  // namespace ordo::comm
