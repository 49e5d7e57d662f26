// Test data for collectives: what each rank contributes and what the collective must produce,
// computed locally and independently of MPI. All values are small integers, so every result is
// exact in every dtype (f16 and bf16 included) and cannot depend on the order in which MPI
// combines contributions: every rank must end with exactly these bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::comm::test {

// Results stay exact up to this many ranks (products reach at most 2^ceil(ranks/4), sums 4*ranks;
// i8 holds 127 and bf16 is exact up to 256).
inline constexpr std::uint32_t exact_ranks_max = 24;

// The buffer rank `rank` passes to an allreduce of `reduction`: varies along the buffer and
// between ranks, and includes negatives for signed dtypes.
std::vector<std::byte> contribution(dag::DType dtype, dag::Reduction reduction, std::uint64_t count,
                                    dag::Rank rank);

// The allreduce of the contributions of ranks 0..size-1.
std::vector<std::byte> reduced(dag::DType dtype, dag::Reduction reduction, std::uint64_t count,
                               std::uint32_t size);

// Index of the first element where the buffers differ, if any; for failure messages.
std::optional<std::uint64_t> first_difference(const std::vector<std::byte>& actual,
                                              const std::vector<std::byte>& expected,
                                              dag::DType dtype);

// "f16 sum of 1023 elements differs at element 17 on rank 2" or "" when equal.
std::string mismatch_report(const std::vector<std::byte>& actual,
                            const std::vector<std::byte>& expected, dag::DType dtype,
                            const std::string& what);

}  // namespace ordo::comm::test
