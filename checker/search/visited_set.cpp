#include "checker/search/visited_set.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <functional>
#include <stdexcept>

namespace ordo::checker {

namespace {

constexpr std::uint32_t chunk_bytes = 1u << 20;
constexpr std::size_t length_bytes = sizeof(std::uint32_t);

}  // namespace

VisitedSet::VisitedSet() : table_(1024) {}

std::string_view VisitedSet::stored(const Slot& slot) const {
  const char* at = chunks_[slot.chunk - 1].get() + slot.offset;
  std::uint32_t length = 0;
  std::memcpy(&length, at, length_bytes);
  return std::string_view(at + length_bytes, length);
}

VisitedSet::Slot VisitedSet::store(std::string_view encoding, std::uint64_t hash) {
  if (encoding.size() > UINT32_MAX - length_bytes) {
    throw std::length_error("a state encoding longer than 4 GiB");
  }
  const std::uint32_t need = static_cast<std::uint32_t>(length_bytes + encoding.size());
  if (chunks_.empty() || chunk_size_ - chunk_used_ < need) {
    chunk_size_ = std::max(chunk_bytes, need);
    chunks_.push_back(std::make_unique<char[]>(chunk_size_));
    chunk_used_ = 0;
  }
  char* at = chunks_.back().get() + chunk_used_;
  const auto length = static_cast<std::uint32_t>(encoding.size());
  std::memcpy(at, &length, length_bytes);
  std::memcpy(at + length_bytes, encoding.data(), encoding.size());
  const Slot slot{hash, static_cast<std::uint32_t>(chunks_.size()), chunk_used_};
  chunk_used_ += need;
  return slot;
}

VisitedSet::Found VisitedSet::find_or_insert(std::string_view encoding) {
  const std::uint64_t hash = std::hash<std::string_view>{}(encoding);
  const std::size_t mask = table_.size() - 1;
  const auto place = [](const Slot& slot) { return Place{slot.chunk} << 32 | slot.offset; };
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& slot = table_[i];
    if (slot.chunk == 0) {
      slot = store(encoding, hash);
      const Found found{true, place(slot)};
      ++size_;
      if (2 * size_ > table_.size()) grow();
      return found;
    }
    if (slot.hash == hash && stored(slot) == encoding) return Found{false, place(slot)};
  }
}

// Keeps the load at most one half, so that a probe ends after a few slots.
void VisitedSet::grow() {
  std::vector<Slot> old(table_.size() * 2);
  old.swap(table_);
  const std::size_t mask = table_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.chunk == 0) continue;
    std::size_t i = slot.hash & mask;
    while (table_[i].chunk != 0) i = (i + 1) & mask;
    table_[i] = slot;
  }
  assert(std::count_if(table_.begin(), table_.end(), [](const Slot& s) { return s.chunk != 0; }) ==
         static_cast<std::ptrdiff_t>(size_));
}

}  // namespace ordo::checker
