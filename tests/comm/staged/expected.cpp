#include "expected.hpp"

#include <algorithm>
#include <cstring>

#include "runtime/dag/names.hpp"
#include "tests/comm/values.hpp"

namespace ordo::comm::test {
namespace {

constexpr std::byte stale_byte{0xA5};

std::vector<std::byte> sent_by(const Call& call, dag::Rank rank) {
  const dag::Reduction pattern =
      call.reduction == dag::Reduction::none ? dag::Reduction::sum : call.reduction;
  return contribution(call.dtype, pattern, call.count, rank);
}

}  // namespace

Expected expected(const Call& call, std::uint32_t size, dag::Rank rank) {
  Expected e;
  e.count = call.count;
  const std::size_t element = dag::dtype_bytes(call.dtype);
  const std::uint64_t block = call.count / size;
  switch (call.kind) {
    case dag::CollectiveKind::allreduce:
      e.before = sent_by(call, rank);
      e.after = reduced(call.dtype, call.reduction, call.count, size);
      break;
    case dag::CollectiveKind::bcast: {
      // Rank r + 1's pattern, so that root 0 does not send what rank 0 would hold anyway.
      const std::vector<std::byte> sent = sent_by(call, *call.root + 1);
      e.before = rank == *call.root ? sent : std::vector<std::byte>(sent.size(), stale_byte);
      e.after = sent;
      break;
    }
    case dag::CollectiveKind::reduce:
      e.before = sent_by(call, rank);
      e.after =
          rank == *call.root ? reduced(call.dtype, call.reduction, call.count, size) : e.before;
      break;
    case dag::CollectiveKind::reduce_scatter:
      e.before = sent_by(call, rank);
      e.after = reduced(call.dtype, call.reduction, call.count, size);
      e.first = block * rank;
      e.count = block;
      break;
    case dag::CollectiveKind::allgather: {
      e.before = std::vector<std::byte>(call.count * element, stale_byte);
      e.after = e.before;
      for (dag::Rank r = 0; r < size && block > 0; ++r) {
        const std::vector<std::byte> theirs = sent_by(call, r);
        const std::size_t offset = block * r * element;
        std::memcpy(e.after.data() + offset, theirs.data() + offset, block * element);
        if (r == rank) {
          std::memcpy(e.before.data() + offset, theirs.data() + offset, block * element);
        }
      }
      break;
    }
    case dag::CollectiveKind::gather: {
      e.before = sent_by(call, rank);
      e.after = e.before;
      for (dag::Rank r = 0; rank == *call.root && r < size && block > 0; ++r) {
        const std::size_t offset = block * r * element;
        std::memcpy(e.after.data() + offset, sent_by(call, r).data() + offset, block * element);
      }
      break;
    }
    case dag::CollectiveKind::scatter: {
      e.before = sent_by(call, rank);
      e.after = e.before;
      const std::size_t offset = block * rank * element;
      if (block > 0) {
        std::memcpy(e.after.data() + offset, sent_by(call, *call.root).data() + offset,
                    block * element);
      }
      break;
    }
    case dag::CollectiveKind::alltoall: {
      e.before = sent_by(call, rank);
      e.after = e.before;
      for (dag::Rank r = 0; r < size && block > 0; ++r) {
        std::memcpy(e.after.data() + block * r * element,
                    sent_by(call, r).data() + block * rank * element, block * element);
      }
      break;
    }
    case dag::CollectiveKind::scan:
      e.before = sent_by(call, rank);
      e.after = reduced(call.dtype, call.reduction, call.count, rank + 1);
      break;
    case dag::CollectiveKind::exscan:
      e.before = sent_by(call, rank);
      if (rank == 0) {
        e.count = 0;  // undefined in MPI after the call
        e.after = e.before;
      } else {
        e.after = reduced(call.dtype, call.reduction, call.count, rank);
      }
      break;
    case dag::CollectiveKind::barrier:
    case dag::CollectiveKind::send:  // not staged: refused before any data moves
    case dag::CollectiveKind::recv:
      e.count = 0;
      break;
  }
  return e;
}

std::string check(const std::vector<std::byte>& actual, const Expected& expected, const Call& call,
                  dag::Rank rank) {
  if (expected.count == 0) return "";
  const std::size_t element = dag::dtype_bytes(call.dtype);
  const auto part = [&](const std::vector<std::byte>& all) {
    const auto from = all.begin() + static_cast<std::ptrdiff_t>(expected.first * element);
    return std::vector<std::byte>(from,
                                  from + static_cast<std::ptrdiff_t>(expected.count * element));
  };
  if (actual.size() != expected.after.size()) return "buffer sizes differ";
  return mismatch_report(part(actual), part(expected.after), call.dtype,
                         describe(call, "") + " on rank " + std::to_string(rank));
}

std::vector<StagedSize> staged_sizes(dag::DType dtype, std::uint64_t count_max,
                                     std::uint64_t chunks_max, std::uint32_t multiple_of) {
  const std::size_t element = dag::dtype_bytes(dtype);
  std::vector<std::uint64_t> counts = {0, 1, 7, 1000, 4097, count_max};
  for (std::uint64_t& count : counts) {
    if (count > 0) count = std::max<std::uint64_t>(multiple_of, count / multiple_of * multiple_of);
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  std::vector<StagedSize> sizes;
  for (const std::uint64_t count : counts) {
    if (count > count_max) continue;
    // One element, a chunk that is not a whole number of elements (12 bytes is 1.5 f64), 3 KiB,
    // and chunks larger than the buffer.
    for (const std::size_t chunk :
         {element, std::size_t{12}, std::size_t{3} << 10, std::size_t{4} << 20}) {
      const std::uint64_t per_chunk = std::max<std::uint64_t>(1, chunk / element);
      if ((count + per_chunk - 1) / per_chunk > chunks_max) continue;
      sizes.push_back(StagedSize{count, chunk});
    }
  }
  return sizes;
}

std::string label(const Call& call, std::size_t chunk_bytes) {
  return describe(call, "test") + " in chunks of " + std::to_string(chunk_bytes) + " bytes";
}

}  // namespace ordo::comm::test
