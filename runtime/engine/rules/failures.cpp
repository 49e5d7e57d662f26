#include "runtime/engine/rules/failures.hpp"

#include <algorithm>
#include <cassert>
#include <utility>

namespace ordo::engine {

Poison Failures::record(std::exception_ptr error) {
  assert(error != nullptr);
  const Poison poison{id_next_++};
  const bool listed = listed_.size() < listed_max_;
  held_.push_back(Held{poison.failure_id, std::move(error), listed ? 1u : 0u});
  if (listed) {
    listed_.push_back(poison);
  } else {
    ++unlisted_;
  }
  assert(poison.active());
  return poison;
}

void Failures::forget(std::uint64_t failure_id) {
  assert(failure_id != 0 && failure_id < id_next_);
  const auto it = std::find_if(listed_.begin(), listed_.end(), [&](const Poison& poison) {
    return poison.failure_id == failure_id;
  });
  if (it == listed_.end()) return;
  listed_.erase(it);
  release(failure_id);
}

void Failures::clear() {
  listed_.clear();
  held_.clear();
  unlisted_ = 0;
  assert(!any());
}

Failures::Held* Failures::held(std::uint64_t failure_id) {
  const auto it =
      std::lower_bound(held_.begin(), held_.end(), failure_id,
                       [](const Held& entry, std::uint64_t id) { return entry.failure_id < id; });
  return it != held_.end() && it->failure_id == failure_id ? &*it : nullptr;
}

void Failures::carried(std::uint64_t failure_id) {
  Held* entry = held(failure_id);
  assert(entry != nullptr);
  if (entry != nullptr) ++entry->holders;
}

void Failures::dropped(std::uint64_t failure_id) { release(failure_id); }

void Failures::release(std::uint64_t failure_id) {
  Held* entry = held(failure_id);
  assert(entry != nullptr && entry->holders > 0);
  if (entry != nullptr && --entry->holders == 0) held_.erase(held_.begin() + (entry - held_.data()));
}

void Failures::settle(std::uint64_t failure_id) {
  Held* entry = held(failure_id);
  if (entry != nullptr && entry->holders == 0) held_.erase(held_.begin() + (entry - held_.data()));
}

std::exception_ptr Failures::error(std::uint64_t failure_id) const {
  const auto it =
      std::lower_bound(held_.begin(), held_.end(), failure_id,
                       [](const Held& entry, std::uint64_t id) { return entry.failure_id < id; });
  assert(it != held_.end() && it->failure_id == failure_id);
  return it != held_.end() && it->failure_id == failure_id ? it->error : nullptr;
}

}  // namespace ordo::engine
