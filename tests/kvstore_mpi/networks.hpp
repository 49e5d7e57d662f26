// Networks for the MPI tests of the KVStore designs: keys of chosen sizes in a chain, and a
// network with parallel branches whose gradients become ready in a different order on each rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/networks/network.hpp"

namespace ordo::kvstore::mpi_test {

// f32 element counts from one element up to 1 MiB: a single element, an odd count that fits no
// vector width, 4 KiB and 1 MiB.
inline const std::vector<std::uint64_t> small_key_counts = {1, 1023, 1024, 256 * 1024};
// 64 MiB of f32: the largest key, used by one test only (every rank holds three copies of it).
inline constexpr std::uint64_t largest_key_count = std::uint64_t{16} << 20;

// A chain of layers with one f32 parameter of each count, no compute cost.
networks::Network keys_network(const std::string& name, const std::vector<std::uint64_t>& counts);

// A stem, three parallel branches of two layers each, a join and a head; every layer has a
// weight and a bias of different sizes (18 keys). With two compute threads the branches'
// backward ops finish in an order that differs between ranks and runs, which is what the safe
// designs must make harmless.
networks::Network branching_network();

}  // namespace ordo::kvstore::mpi_test
