#include "runtime/engine/rules/failures.hpp"

#include <algorithm>
#include <cassert>

namespace ordo::engine {

Poison Failures::record(std::exception_ptr error) {
  assert(error != nullptr);
  Poison poison{id_next_++, std::move(error)};
  if (listed_.size() < listed_max_) {
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
  if (it != listed_.end()) listed_.erase(it);
}

void Failures::clear() {
  listed_.clear();
  unlisted_ = 0;
  assert(!any());
}

}  // namespace ordo::engine
