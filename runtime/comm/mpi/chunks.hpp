// How a collective of any element count becomes MPI calls with int counts. Every rank computes the
// same chunks from the same (count, chunk size), so the k-th MPI call of one rank matches the k-th
// of every other and chunking preserves MPI's matching.
#pragma once

#include <cstdint>

namespace ordo::comm {

struct Chunk {
  std::uint64_t first = 0;  // index of the chunk's first element in the whole buffer
  int count = 0;            // elements in this chunk, at most the chunk size
};

// Number of chunks for `count` elements at most `chunk_elements_max` each (which must be in
// 1..INT_MAX; std::invalid_argument otherwise). Zero elements is still one (empty) chunk, so every
// collective issues at least one MPI call and takes part in matching like any other.
std::uint64_t chunk_count(std::uint64_t count, std::uint64_t chunk_elements_max);

// The chunk at `index` (< chunk_count): all full except possibly the last.
Chunk chunk_at(std::uint64_t count, std::uint64_t chunk_elements_max, std::uint64_t index);

}  // namespace ordo::comm
