#include "runtime/data/indexed_records.hpp"

#include "runtime/data/data_error.hpp"

namespace ordo::data {

IndexedRecords::IndexedRecords(const std::string& rec_path, const std::string& idx_path)
    : rec_(rec_path), entries_(read_record_index(idx_path)) {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const std::uint64_t offset = entries_[i].offset;
    const bool aligned = offset % 4 == 0;
    const bool inside = offset <= rec_.size() && rec_.size() - offset >= recordio_header_bytes;
    if (aligned && inside) continue;
    throw DataError(idx_path + ": line " + std::to_string(i + 1),
                    "offset " + std::to_string(offset) +
                        (!aligned ? " is not a multiple of 4"
                                  : " is past the end of " + rec_path + " (" +
                                        std::to_string(rec_.size()) + " bytes)"),
                    "the offset of a record in " + rec_path);
  }
}

Record IndexedRecords::read(std::size_t i) const {
  return read_record_at(rec_, entry(i).offset, rec_.path(), i);
}

std::string IndexedRecords::where(std::size_t i) const {
  return rec_.path() + ": record " + std::to_string(i) + " (key " + std::to_string(entry(i).key) +
         ", byte " + std::to_string(entry(i).offset) + ")";
}

}  // namespace ordo::data
