#include "runtime/comm/mpi/chunks.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>

#include "runtime/comm/mpi/limits.hpp"

namespace ordo::comm {

std::uint64_t chunk_count(std::uint64_t count, std::uint64_t chunk_elements_max) {
  if (chunk_elements_max == 0 || chunk_elements_max > limits::mpi_chunk_elements_max) {
    throw std::invalid_argument("chunk size " + std::to_string(chunk_elements_max) +
                                " is outside 1.." + std::to_string(limits::mpi_chunk_elements_max));
  }
  if (count == 0) return 1;
  return count / chunk_elements_max + (count % chunk_elements_max != 0 ? 1 : 0);
}

Chunk chunk_at(std::uint64_t count, std::uint64_t chunk_elements_max, std::uint64_t index) {
  const std::uint64_t chunks = chunk_count(count, chunk_elements_max);
  if (index >= chunks) {
    throw std::out_of_range("chunk " + std::to_string(index) + " of " + std::to_string(chunks));
  }
  const std::uint64_t first = index * chunk_elements_max;
  const std::uint64_t elements = std::min(chunk_elements_max, count - first);
  assert(elements <= limits::mpi_chunk_elements_max);
  assert(count == 0 || elements > 0);
  return Chunk{.first = first, .count = static_cast<int>(elements)};
}

}  // namespace ordo::comm
