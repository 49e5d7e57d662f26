// The .idx file beside a .rec file, as MXNet's MXIndexedRecordIO writes it: one line per record,
// its key and the byte offset of its first part, separated by a tab. im2rec's key is the image's
// index in its .lst list; the lines come in the order the records were written, which after a
// shuffle is not key order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ordo::data {

struct IndexEntry {
  std::uint64_t key = 0;
  std::uint64_t offset = 0;
};

// Throws DataError naming `source` and the line for anything but lines of two decimal numbers
// separated by one tab (a '\r' before the newline and a missing final newline are accepted), or
// a key that appears twice. An empty file is an empty index.
std::vector<IndexEntry> parse_record_index(std::string_view text, std::string_view source);

// Reads and parses a file, refusing one over `max` bytes.
std::vector<IndexEntry> read_record_index(const std::string& path,
                                          std::size_t max = std::size_t{1} << 30);

// The text of an index, one "key\toffset\n" line per entry.
std::string write_record_index(const std::vector<IndexEntry>& entries);

}  // namespace ordo::data
