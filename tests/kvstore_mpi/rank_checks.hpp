// What a rank's memory must hold after init and after a step, computed locally from the same
// deterministic values every rank uses, and a collective check that all ranks hold the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::kvstore::mpi_test {

// The sum over ranks 0..ranks-1 of gradient_value for every element of `key` in `step`, added in
// rank order. The values are small integers, so this is the exact sum whatever order MPI adds
// them in.
std::vector<float> expected_sum(std::uint32_t ranks, std::int64_t key, std::uint64_t count,
                                std::uint32_t step);

// The initial weight bytes of `key` on `rank`: 32-bit patterns spread over the whole f32 space
// (NaNs with payloads, infinities, subnormals, negative zero), different on every rank, so that
// only a bit-for-bit copy of rank 0's memory matches rank 0's pattern.
std::vector<std::byte> weight_pattern(dag::Rank rank, std::int64_t key, std::uint64_t count);

// "" when the bytes are equal; otherwise which f32 element differs first and both bit patterns,
// prefixed with `what`.
std::string f32_difference(std::span<const std::byte> got, std::span<const std::byte> want,
                           const std::string& what);

// 64-bit hash of the bytes and their length.
std::uint64_t hash_bytes(std::span<const std::byte> bytes);

// Collective over MPI_COMM_WORLD (every rank must call it, in the same order): true on every
// rank when every rank's bytes hash alike, false on every rank otherwise.
bool same_on_every_rank(std::span<const std::byte> bytes);

template <class T>
std::span<const std::byte> bytes_of(const std::vector<T>& values) {
  return std::as_bytes(std::span<const T>(values));
}

}  // namespace ordo::kvstore::mpi_test
