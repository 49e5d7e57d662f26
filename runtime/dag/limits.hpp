// Every table and count in a job has an explicit bound, so hostile or corrupt input ends in a
// clear error instead of an allocation failure or a runaway loop.
#pragma once

#include <cstdint>

#include "runtime/json/limits.hpp"

namespace ordo::dag::limits {

inline constexpr std::uint64_t dump_bytes_max = json::limits::text_bytes_max;
inline constexpr std::uint32_t ranks_max = 1u << 20;
inline constexpr std::uint32_t programs_max = 1u << 16;
inline constexpr std::uint32_t comms_max = 1u << 16;
inline constexpr std::uint32_t vars_max = 1u << 22;
inline constexpr std::uint32_t ops_max = 1u << 22;
inline constexpr std::uint32_t actions_max = 1u << 23;
inline constexpr std::uint32_t pools_max = 1024;
inline constexpr std::uint32_t pool_threads_max = 4096;
inline constexpr std::uint32_t op_vars_max = 1u << 16;
inline constexpr std::uint32_t name_bytes_max = 4096;

}  // namespace ordo::dag::limits
