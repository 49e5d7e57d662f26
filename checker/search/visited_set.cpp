#include "checker/search/visited_set.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <stdexcept>

#include "checker/search/mix.hpp"

namespace ordo::checker {

namespace {

constexpr std::uint32_t chunk_bytes = 1u << 20;
constexpr std::size_t length_bytes = sizeof(std::uint32_t);
constexpr std::size_t number_bytes = sizeof(std::uint32_t);
// Each stored encoding is its length, its number (the count of encodings added before it; 0 in a
// set that is not numbered) and its bytes.
constexpr std::size_t header_bytes = length_bytes + number_bytes;
constexpr unsigned tag_shift = 56;
constexpr std::uint64_t tag_stored = 1;
constexpr std::uint64_t tag_inline = 0x80;
constexpr std::uint64_t chunks_max = (std::uint64_t{1} << 24) - 1;

std::uint64_t tag_of(std::uint64_t high) { return high >> tag_shift; }

}  // namespace

VisitedSet::VisitedSet(bool numbered) : numbered_(numbered), table_(1024) {}

VisitedSet::Slot VisitedSet::inline_slot(std::string_view encoding) {
  assert(encoding.size() <= inline_max);
  Slot slot;
  for (std::size_t i = 0; i < encoding.size(); ++i) {
    const std::uint64_t byte = static_cast<unsigned char>(encoding[i]);
    if (i < 8) {
      slot.low |= byte << (8 * i);
    } else {
      slot.high |= byte << (8 * (i - 8));
    }
  }
  slot.high |= (tag_inline | encoding.size()) << tag_shift;
  return slot;
}

// Eight bytes at a time, each word mixed in by a multiply and the whole finished with
// MurmurHash3's 64-bit finaliser: the encodings are short (a key is a few bytes, a rank's piece
// some dozens), where this costs a fraction of std::hash's byte-oriented loop, and linear probing
// needs only that the low bits spread.
std::uint64_t VisitedSet::hash_of(std::string_view encoding) {
  constexpr std::uint64_t multiplier = 0x9e3779b97f4a7c15ull;
  const char* at = encoding.data();
  std::size_t left = encoding.size();
  std::uint64_t h = 0x243f6a8885a308d3ull ^ (left * multiplier);
  for (; left >= 8; left -= 8, at += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, at, 8);
    h = (h ^ word) * multiplier;
    h ^= h >> 29;
  }
  if (left > 0) {
    std::uint64_t word = 0;
    std::memcpy(&word, at, left);
    h = (h ^ word) * multiplier;
    h ^= h >> 29;
  }
  return mix64(h);
}

std::uint64_t VisitedSet::hash_of(const Slot& slot) const {
  if (tag_of(slot.high) == tag_stored) return slot.low;
  char bytes[inline_max];
  // At most inline_max by construction; the bound tells the compiler so too.
  const std::size_t length = std::min<std::size_t>(tag_of(slot.high) & ~tag_inline, inline_max);
  for (std::size_t i = 0; i < length; ++i) {
    bytes[i] = static_cast<char>(i < 8 ? slot.low >> (8 * i) : slot.high >> (8 * (i - 8)));
  }
  return hash_of(std::string_view(bytes, length));
}

const char* VisitedSet::entry(const Slot& slot) const {
  const std::uint64_t where = slot.high & ((std::uint64_t{1} << tag_shift) - 1);
  return chunks_[(where >> 32) - 1].get() + static_cast<std::uint32_t>(where);
}

std::string_view VisitedSet::stored(const Slot& slot) const {
  const char* at = entry(slot);
  std::uint32_t length = 0;
  std::memcpy(&length, at, length_bytes);
  return std::string_view(at + header_bytes, length);
}

VisitedSet::Place VisitedSet::number(const Slot& slot) const {
  if (!numbered_) return 0;
  std::uint32_t n = 0;
  std::memcpy(&n, entry(slot) + length_bytes, number_bytes);
  return n;
}

VisitedSet::Slot VisitedSet::store(std::string_view encoding, std::uint64_t hash) {
  if (encoding.size() > UINT32_MAX - header_bytes) {
    throw std::length_error("a state encoding longer than 4 GiB");
  }
  if (numbered_ && size_ >= UINT32_MAX) {
    throw std::length_error("more than 4 G encodings in one numbered set");
  }
  const std::uint32_t need = static_cast<std::uint32_t>(header_bytes + encoding.size());
  if (chunks_.empty() || chunk_size_ - chunk_used_ < need) {
    if (chunks_.size() >= chunks_max) {
      throw std::length_error("more stored encodings than a visited set can place");
    }
    chunk_size_ = std::max(chunk_bytes, need);
    // Not zeroed: its bytes are written before they are read, and a small search then touches
    // (and faults in) only the pages it fills.
    chunks_.push_back(std::make_unique_for_overwrite<char[]>(chunk_size_));
    chunk_used_ = 0;
  }
  char* at = chunks_.back().get() + chunk_used_;
  const auto length = static_cast<std::uint32_t>(encoding.size());
  const auto n = static_cast<std::uint32_t>(numbered_ ? size_ : 0);
  std::memcpy(at, &length, length_bytes);
  std::memcpy(at + length_bytes, &n, number_bytes);
  if (!encoding.empty()) std::memcpy(at + header_bytes, encoding.data(), encoding.size());
  const std::uint64_t where = std::uint64_t{chunks_.size()} << 32 | chunk_used_;
  chunk_used_ += need;
  return Slot{hash, tag_stored << tag_shift | where};
}

VisitedSet::Found VisitedSet::find_or_insert(std::string_view encoding, std::uint64_t hash) {
  const std::size_t mask = table_.size() - 1;
  const bool in_table = !numbered_ && encoding.size() <= inline_max;
  const Slot image = in_table ? inline_slot(encoding) : Slot{};
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& slot = table_[i];
    if (slot.high == 0) {
      slot = in_table ? image : store(encoding, hash);
      const Found found{true, numbered_ ? size_ : 0};
      ++size_;
      if (2 * size_ > table_.size()) grow();
      return found;
    }
    if (in_table) {
      if (slot.low == image.low && slot.high == image.high) return Found{false, 0};
    } else if (tag_of(slot.high) == tag_stored && slot.low == hash && stored(slot) == encoding) {
      return Found{false, number(slot)};
    }
  }
}

// Keeps the load at most one half, so that a probe ends after a few slots.
void VisitedSet::grow() {
  PageArray<Slot> old(table_.size() * 2);
  old.swap(table_);
  const std::size_t mask = table_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.high == 0) continue;
    std::size_t i = hash_of(slot) & mask;
    while (table_[i].high != 0) i = (i + 1) & mask;
    table_[i] = slot;
  }
  assert(std::count_if(table_.begin(), table_.end(), [](const Slot& s) { return s.high != 0; }) ==
         static_cast<std::ptrdiff_t>(size_));
}

}  // namespace ordo::checker
