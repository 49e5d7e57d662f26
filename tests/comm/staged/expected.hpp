// What each member's buffer holds before a collective and must hold after it, for every kind,
// computed locally from tests/comm/values.hpp (small integers: exact in every dtype, whatever
// order the backend combines in), so that the staged and device backends are held bitwise to
// the same reference as the MPI backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/comm/rules/call.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::comm::test {

struct Expected {
  std::vector<std::byte> before;  // what the member passes
  std::vector<std::byte> after;   // what it must hold once the collective has ended
  // The elements of `after` that are specified: all but a reduce_scatter's other blocks.
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};

// For member `rank` of `size` members. A bcast's non-roots start from bytes no root sends, so a
// bcast that moved nothing fails.
Expected expected(const Call& call, std::uint32_t size, dag::Rank rank);

// "" when `actual` holds the specified elements of `expected`, else where it differs first.
std::string check(const std::vector<std::byte>& actual, const Expected& expected, const Call& call,
                  dag::Rank rank);

// One buffer size and chunk size for a staged collective.
struct StagedSize {
  std::uint64_t count = 0;
  std::size_t chunk_bytes = 0;
};

// Counts 0, 1, one not a multiple of any chunk, and larger ones (up to `count_max`), each with
// chunks of one element, a few elements, a size that does not divide the buffer, and one larger
// than the whole buffer; pairs needing more than `chunks_max` chunks are left out, so small
// chunks run on small buffers only. Counts above 0 are made multiples of `multiple_of` (the
// communicator's size, for the block kinds).
std::vector<StagedSize> staged_sizes(dag::DType dtype, std::uint64_t count_max,
                                     std::uint64_t chunks_max, std::uint32_t multiple_of = 1);

// "allreduce sum of 1000 x f32 in chunks of 12 bytes", for messages.
std::string label(const Call& call, std::size_t chunk_bytes);

}  // namespace ordo::comm::test
