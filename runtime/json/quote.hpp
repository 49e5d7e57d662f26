// Quoting untrusted text (names, field names, references) into diagnostics. A dump may hold any
// bytes in a string; messages must stay one printable line of bounded length.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ordo::json {

inline constexpr std::size_t quoted_bytes_max = 64;
// How much of a file's path an error message shows (escaped): plenty for any real path.
inline constexpr std::size_t path_display_bytes_max = 1024;

// `text` with control characters and invalid UTF-8 bytes escaped (\n, \xNN), cut after
// `bytes_max` bytes of input with "...".
std::string escaped(std::string_view text, std::size_t bytes_max);

// `text` escaped as above plus quotes and backslashes (\', \\), cut after quoted_bytes_max
// bytes, in single quotes: how messages show a name or a field.
std::string quote(std::string_view text);

}  // namespace ordo::json
