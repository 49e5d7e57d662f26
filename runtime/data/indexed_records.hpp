// A .rec file read at random through its .idx, as MXNet's MXIndexedRecordIO and ImageRecordIter
// read ImageNet: record i of the set is the record at the offset on line i of the index. The
// index is read and checked against the .rec's size when the set is opened; a record is read only
// when asked for, so the .rec may be far larger than memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/data/byte_range.hpp"
#include "runtime/data/record_index.hpp"
#include "runtime/data/recordio.hpp"

namespace ordo::data {

class IndexedRecords {
 public:
  // Throws DataError naming the file and the line when either file cannot be read, the index is
  // malformed, or an offset is not a multiple of 4 or leaves no room for a record header in the
  // .rec (an index of another file, or of the file before it was cut short).
  IndexedRecords(const std::string& rec_path, const std::string& idx_path);

  std::size_t size() const { return entries_.size(); }
  const IndexEntry& entry(std::size_t i) const { return entries_.at(i); }
  const std::string& rec_path() const { return rec_.path(); }
  // Record i, read from the .rec; throws DataError naming the file and the record.
  Record read(std::size_t i) const;
  // How errors about record i name it: the .rec, the record's position and its key.
  std::string where(std::size_t i) const;

 private:
  FileRange rec_;
  std::vector<IndexEntry> entries_;
};

}  // namespace ordo::data
