#include "bench/gpu/sizes.hpp"

namespace ordo::bench {

std::vector<std::uint64_t> gpu_sizes() {
  return {1u << 20, 4u << 20, 16u << 20, 64u << 20, 256u << 20};
}

std::uint32_t repeats_for(std::uint64_t bytes) {
  if (bytes <= (1u << 20)) return 20;
  if (bytes <= (16u << 20)) return 5;
  return 1;
}

std::string size_label(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace ordo::bench
