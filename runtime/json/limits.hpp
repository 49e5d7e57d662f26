// The bounds every JSON input is read under, so that hostile or corrupt text ends in a clear
// error instead of an allocation failure or a stack overflow. A reader may set a lower size.
#pragma once

#include <cstdint>

namespace ordo::json::limits {

inline constexpr std::uint64_t text_bytes_max = 512ull << 20;
inline constexpr std::uint32_t depth_max = 64;

}  // namespace ordo::json::limits
