#include "rank_checks.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <iomanip>
#include <sstream>

#include "runtime/comm/mpi/error.hpp"
#include "runtime/kvstore/step_run.hpp"

namespace ordo::kvstore::mpi_test {

namespace {

// SplitMix64's finaliser: every input bit affects every output bit.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint32_t f32_bits(std::span<const std::byte> bytes, std::size_t element) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, bytes.data() + element * sizeof bits, sizeof bits);
  return bits;
}

}  // namespace

std::vector<float> expected_sum(std::uint32_t ranks, std::int64_t key, std::uint64_t count,
                                std::uint32_t step) {
  std::vector<float> sum(count, 0.0f);
  for (dag::Rank r = 0; r < ranks; ++r) {
    for (std::uint64_t i = 0; i < count; ++i) sum[i] += gradient_value(r, key, i, step);
  }
  return sum;
}

std::vector<std::byte> weight_pattern(dag::Rank rank, std::int64_t key, std::uint64_t count) {
  std::vector<std::byte> bytes(count * sizeof(std::uint32_t));
  const std::uint64_t seed = mix(static_cast<std::uint64_t>(key) * 0x100000001b3ULL + rank);
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto bits = static_cast<std::uint32_t>(mix(seed + i) >> 32);
    std::memcpy(bytes.data() + i * sizeof bits, &bits, sizeof bits);
  }
  return bytes;
}

std::string f32_difference(std::span<const std::byte> got, std::span<const std::byte> want,
                           const std::string& what) {
  std::ostringstream out;
  if (got.size() != want.size()) {
    out << what << ": " << got.size() << " bytes, expected " << want.size();
    return out.str();
  }
  if (std::memcmp(got.data(), want.data(), got.size()) == 0) return {};
  const auto at = static_cast<std::size_t>(
      std::mismatch(got.begin(), got.end(), want.begin()).first - got.begin());
  const std::size_t element = at / sizeof(std::uint32_t);
  out << what << ": element " << element << " of " << got.size() / sizeof(std::uint32_t) << " is "
      << std::bit_cast<float>(f32_bits(got, element)) << " (0x" << std::hex
      << f32_bits(got, element) << "), expected " << std::bit_cast<float>(f32_bits(want, element))
      << " (0x" << f32_bits(want, element) << ")";
  return out.str();
}

std::uint64_t hash_bytes(std::span<const std::byte> bytes) {
  std::uint64_t h = mix(bytes.size());
  std::size_t i = 0;
  for (; i + sizeof(std::uint64_t) <= bytes.size(); i += sizeof(std::uint64_t)) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + i, sizeof word);
    h = mix(h ^ word);
  }
  std::uint64_t tail = 0;
  if (i < bytes.size()) std::memcpy(&tail, bytes.data() + i, bytes.size() - i);
  return mix(h ^ tail);
}

bool same_on_every_rank(std::span<const std::byte> bytes) {
  // The minimum of h and of ~h in one call: min(~h) is ~max(h), so every rank learns both the
  // smallest and the largest hash and they are equal exactly when all hashes are.
  const std::uint64_t h = hash_bytes(bytes);
  std::array<std::uint64_t, 2> local{h, ~h};
  std::array<std::uint64_t, 2> lowest{};
  comm::check_mpi(
      MPI_Allreduce(local.data(), lowest.data(), 2, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD),
      "MPI_Allreduce");
  return lowest[0] == ~lowest[1];
}

}  // namespace ordo::kvstore::mpi_test
