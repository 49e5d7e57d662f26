// The bounds of the MPI backend, in one place.
#pragma once

#include <climits>
#include <cstdint>

namespace ordo::comm::limits {

// MPI-3 counts are int: one MPI call moves at most INT_MAX elements, so larger collectives are
// issued as several calls of at most this many elements.
inline constexpr std::uint64_t mpi_chunk_elements_max = INT_MAX;

// A non-blocking collective holds one MPI_Request per chunk; this bounds that array. With
// full-size chunks it allows 64 * INT_MAX elements, far beyond any buffer a step reduces.
inline constexpr std::uint64_t mpi_requests_per_start_max = 64;

}  // namespace ordo::comm::limits
