// The buffer sizes the GPU benchmarks sweep, and how many collectives each timed sample holds
// (more for small buffers, so that every sample lasts long enough to time).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ordo::bench {

// 1, 4, 16, 64 and 256 MiB.
std::vector<std::uint64_t> gpu_sizes();
std::uint32_t repeats_for(std::uint64_t bytes);
std::string size_label(std::uint64_t bytes);  // "16 MiB"

}  // namespace ordo::bench
