// RecordIO, the container of MXNet's .rec files, as dmlc-core writes it (dmlc/recordio.h) and
// im2rec fills it. A file is a sequence of records, each 4-byte aligned:
//
//   magic 0xced7230a | lrec | data | zero padding to a multiple of 4
//
// both words little-endian. lrec holds a continuation flag in its upper 3 bits and the data's
// length in the lower 29. A payload is stored whole (flag 0) unless one of its 4-byte-aligned
// words equals the magic: then it is cut at each such word, which is dropped, and written as parts
// flagged 1 (first), 2 (middle) and 3 (last); a reader puts a magic back between parts. So the
// magic never appears at an aligned position inside data, and a reader that lost its place could
// find the next record by scanning for it. The magic's top 3 bits (6) are no valid flag, so an lrec
// can never be mistaken for a magic either.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "runtime/data/byte_range.hpp"

namespace ordo::data {

inline constexpr std::uint32_t recordio_magic = 0xced7230a;
inline constexpr std::uint32_t recordio_length_bits = 29;
inline constexpr std::uint32_t recordio_length_max = (1u << recordio_length_bits) - 1;
inline constexpr std::uint32_t recordio_header_bytes = 8;

enum class RecordPart : std::uint32_t { whole = 0, first = 1, middle = 2, last = 3 };

inline std::uint32_t recordio_lrec(RecordPart part, std::uint32_t length) {
  return static_cast<std::uint32_t>(part) << recordio_length_bits | length;
}

// The bytes a record of `payload` occupies in a .rec file, parts and padding included. Throws
// DataError for a payload longer than recordio_length_max, which dmlc-core refuses too.
std::string encode_record(std::string_view payload);

// Appends records to a sink (a file, or a string in tests) and says where each one starts, the
// offset an .idx file records for it.
class RecordWriter {
 public:
  using Sink = std::function<void(std::string_view)>;
  explicit RecordWriter(Sink sink) : sink_(std::move(sink)) {}
  // Writes one record; returns its offset from the start of the file.
  std::uint64_t append(std::string_view payload);
  std::uint64_t bytes_written() const { return offset_; }
  std::uint64_t records_written() const { return records_; }

 private:
  Sink sink_;
  std::uint64_t offset_ = 0;
  std::uint64_t records_ = 0;
};

struct Record {
  std::uint64_t offset = 0;  // of its first part's magic
  std::uint64_t end = 0;     // just past its last part's padding: where the next record starts
  std::string payload;       // parts joined, magics restored
};

// The record that starts at `offset`. Errors name `source` and the record as `record` (its index
// in the .idx or in a scan) with the byte of the part at fault: an offset that is not a multiple
// of 4 or leaves no room for a header, a wrong magic, an unknown flag, a part that starts a
// record in the middle or a record that stops before its last part, a length past the end of
// the file. The payload is allocated part by part, each only after its length was checked
// against the bytes there are, so it never exceeds the file's size.
Record read_record_at(const ByteRange& bytes, std::uint64_t offset, std::string_view source,
                      std::uint64_t record);

// Reads a .rec file from the start, record after record, as MXNet's sequential iterator does.
class RecordScanner {
 public:
  // `bytes` must outlive the scanner; `source` names it in errors.
  RecordScanner(const ByteRange& bytes, std::string source)
      : bytes_(bytes), source_(std::move(source)) {}
  // The next record into `out`; false, leaving `out` alone, at the end of the file. Bytes after
  // the last record that are no whole record are a DataError, not an end.
  bool next(Record& out);
  std::uint64_t records_read() const { return records_; }

 private:
  const ByteRange& bytes_;
  std::string source_;
  std::uint64_t offset_ = 0;
  std::uint64_t records_ = 0;
};

}  // namespace ordo::data
