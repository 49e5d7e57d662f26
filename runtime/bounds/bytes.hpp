// A byte count as a user gives it (`--memory-max 512M`, `--bucket 25MiB`), read once for every
// option: a whole number with an optional unit, each unit a power of 1024 ("kb" is 1024 bytes, as
// DDP and Horovod read their sizes). Counts past 2^64 - 1 are refused rather than wrapped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ordo::bounds {

struct BytesRead {
  std::uint64_t bytes = 0;
  std::optional<std::string> problem;  // set when the text is no byte count
};

// Digits, optional blanks, then an optional unit, case-insensitive: b; k, kb, kib; m, mb, mib; g,
// gb, gib; t, tb, tib; p, pb, pib.
BytesRead read_bytes(std::string_view text);

}  // namespace ordo::bounds
