// The explicit search's set of visited state encodings. Every encoding is kept whole, never only
// a hash: two states may share a hash, and a search that took one for the other could skip a
// state and call a job safe without having seen it. Encodings are appended to large chunks and
// the table holds only their hash and place, so an insert costs no allocation of its own and a
// lookup touches one table slot and, on a hash match, one encoding.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace ordo::checker {

class VisitedSet {
 public:
  VisitedSet();
  // Where an encoding is kept: equal for two encodings exactly when they are equal, so it can
  // stand for the encoding inside a larger one (the search's state keys name rank encodings so).
  using Place = std::uint64_t;
  struct Found {
    bool inserted = false;  // it was not in before
    Place place = 0;
  };
  Found find_or_insert(std::string_view encoding);
  // Adds the encoding; false when an equal one is already in.
  bool insert(std::string_view encoding) { return find_or_insert(encoding).inserted; }
  std::uint64_t size() const { return size_; }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t chunk = 0;  // chunk index plus one; 0 marks an empty slot
    std::uint32_t offset = 0;
  };

  std::string_view stored(const Slot& slot) const;
  Slot store(std::string_view encoding, std::uint64_t hash);
  void grow();

  std::vector<Slot> table_;  // open addressing, linear probing; size a power of two
  std::vector<std::unique_ptr<char[]>> chunks_;
  std::uint32_t chunk_size_ = 0;  // of the last chunk, the one being filled
  std::uint32_t chunk_used_ = 0;
  std::uint64_t size_ = 0;
};

}  // namespace ordo::checker
