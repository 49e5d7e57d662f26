// Small keys: a step of communication alone (no simulated compute) over ResNet-50's keys, under
// the per-key designs and fused, against plain MPI issuing one allreduce per key and one
// allreduce of everything at once. Small allreduces are latency-bound; the effective bandwidth
// (the keys' bytes over the step's time) shows what packing them into buckets buys.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/designs/design_config.hpp"

namespace ordo::bench {

struct SmallKeysRow {
  std::string variant;
  double step_s = 0.0;           // median, slowest rank
  std::uint64_t keys_wrong = 0;  // designs only: key-steps whose sum was wrong (must be 0)
  std::uint64_t keys_checked = 0;
};

struct SmallKeysResult {
  std::string workload;
  std::uint64_t keys = 0;
  std::uint64_t bytes = 0;
  std::vector<SmallKeysRow> rows;  // raw per key, raw all at once, then the designs
};

// ResNet-50's keys below `key_bytes_max` bytes each (0: every key).
SmallKeysResult run_small_keys(const comm::MpiRuntime& runtime, std::uint64_t key_bytes_max,
                               std::uint32_t rounds);
void print_small_keys(std::FILE* out, const SmallKeysResult& r);

}  // namespace ordo::bench
