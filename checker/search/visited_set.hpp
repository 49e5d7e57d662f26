// The explicit search's set of visited state encodings. Every encoding is kept whole, never only
// a hash: two states may share a hash, and a search that took one for the other could skip a
// state and call a job safe without having seen it. An encoding of at most 15 bytes (the search's
// keys mostly are, see state_keys.hpp) is kept in its table slot itself, so a lookup compares two
// words and touches no other memory; a longer one is appended to large chunks and its slot holds
// its hash and place. An insert costs no allocation of its own.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "checker/search/page_array.hpp"

namespace ordo::checker {

class VisitedSet {
 public:
  // numbered: every encoding gets a number (Found::place), and is then always kept in the
  // chunks, where its number is; otherwise short encodings stay in the table.
  explicit VisitedSet(bool numbered = false);
  // An encoding's number in a numbered set, the count of encodings added before it: equal for
  // two encodings exactly when they are equal, so it can stand for the encoding inside a larger
  // one (the search's state keys name rank encodings so), and small, so that it takes few
  // bytes there. Always 0 in a set that is not numbered.
  using Place = std::uint64_t;
  struct Found {
    bool inserted = false;  // it was not in before
    Place place = 0;
  };
  Found find_or_insert(std::string_view encoding) { return find_or_insert(encoding, hash_of(encoding)); }
  // The same with the encoding's hash_of, made before.
  Found find_or_insert(std::string_view encoding, std::uint64_t hash);
  // Starts loading the table slot where a lookup of an encoding with this hash begins, so that a
  // lookup soon after finds it in the cache: a search that knows its next keys overlaps their
  // misses.
  void prefetch(std::uint64_t hash) const { __builtin_prefetch(&table_[hash & (table_.size() - 1)]); }
  // Adds the encoding; false when an equal one is already in.
  bool insert(std::string_view encoding) { return find_or_insert(encoding).inserted; }
  bool insert(std::string_view encoding, std::uint64_t hash) {
    return find_or_insert(encoding, hash).inserted;
  }
  static std::uint64_t hash_of(std::string_view encoding);
  std::uint64_t size() const { return size_; }

 private:
  // The top byte of `high` tells what the slot holds: 0, nothing (the whole slot is 0); 0x80 plus
  // a length up to 15, an encoding of that length, its first 8 bytes in `low` and the others in
  // the low 7 bytes of `high`; 1, a stored encoding, with its hash in `low` and (chunk index + 1)
  // << 32 | offset in `high`'s low 7 bytes.
  struct Slot {
    std::uint64_t low = 0;
    std::uint64_t high = 0;
  };
  static constexpr std::size_t inline_max = 15;

  static Slot inline_slot(std::string_view encoding);
  std::uint64_t hash_of(const Slot& slot) const;
  const char* entry(const Slot& slot) const;
  std::string_view stored(const Slot& slot) const;
  Place number(const Slot& slot) const;
  Slot store(std::string_view encoding, std::uint64_t hash);
  void grow();

  bool numbered_;
  PageArray<Slot> table_;  // open addressing, linear probing; size a power of two
  std::vector<std::unique_ptr<char[]>> chunks_;
  std::uint32_t chunk_size_ = 0;  // of the last chunk, the one being filled
  std::uint32_t chunk_used_ = 0;
  std::uint64_t size_ = 0;
};

}  // namespace ordo::checker
