// The identity of the dump format, shared by the reader and the writer (docs/dag-format.md).
#pragma once

#include <cstdint>
#include <string_view>

namespace ordo::dag {

inline constexpr std::string_view dump_format_name = "ordo-dag";
// Bumped on any change that an older reader would misread; see "Versioning" in the format doc.
inline constexpr std::uint64_t dump_format_version = 1;

}  // namespace ordo::dag
