// A data file's bytes, inflated when it is gzip-compressed (as Debian ships Fashion-MNIST), with
// a cap on what is read or inflated: a hostile file that claims or inflates to more ends in a
// DataError, never in an allocation the size of its claim.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ordo::data {

// Plenty for an IDX file of a dataset that fits a training job's memory.
inline constexpr std::size_t file_bytes_max = std::size_t{1} << 32;

// The bytes of `path`; a file starting with gzip's magic is inflated (every member, as gzip -d
// does). Throws DataError naming the file when it cannot be read, is corrupt or exceeds `max`.
std::string read_file_bytes(const std::string& path, std::size_t max = file_bytes_max);

// The bytes of `path` as stored, gzip or not. Throws as read_file_bytes does.
std::string read_stored_bytes(const std::string& path, std::size_t max = file_bytes_max);

// The inflated bytes of a gzip stream; `source` names it in errors. Inflates at most one byte
// more than `max`: a stream that holds more is refused there, with `bound` as what was expected
// (by default "a data file of at most that size").
std::string gunzip(std::string_view bytes, std::string_view source,
                   std::size_t max = file_bytes_max, std::string_view bound = {});

// The first `n` inflated bytes of a gzip stream (fewer where it holds fewer), inflating no more
// than that: what a reader needs to learn from a header how much the whole must be.
std::string gunzip_prefix(std::string_view bytes, std::string_view source, std::size_t n);

bool is_gzip(std::string_view bytes);

}  // namespace ordo::data
