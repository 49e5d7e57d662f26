// The failures not yet surfaced, in the order they happened. A failure is born when an op's
// function throws; ops skipped because of it carry the same failure id onward (MXNet shares one
// exception record the same way), so surfacing it once, at any var or at wait_for_all, clears it
// everywhere.
#pragma once

#include <cstdint>
#include <exception>
#include <vector>

#include "runtime/engine/rules/var_state.hpp"

namespace ordo::engine {

class Failures {
 public:
  explicit Failures(std::uint32_t listed_max) : listed_max_(listed_max) {}

  // A new failure. Past listed_max it still poisons the vars it reaches but wait_for_all learns of
  // it only through them.
  Poison record(std::exception_ptr error);
  // The failure was surfaced at a var; it leaves the list.
  void forget(std::uint64_t failure_id);
  // The earliest listed failure, if any.
  const Poison* first() const { return listed_.empty() ? nullptr : &listed_.front(); }
  // Whether anything was recorded since the last clear().
  bool any() const { return !listed_.empty() || unlisted_ > 0; }
  void clear();

  // A failure's error is kept while the list or a var names it: vars carry only its id, and the
  // rules report each var that takes or loses it here. settle() drops a new failure that nothing
  // took (a failed op with no writes, past the list bound).
  void carried(std::uint64_t failure_id);
  void dropped(std::uint64_t failure_id);
  void settle(std::uint64_t failure_id);
  // The error of a failure the list or a var still names.
  std::exception_ptr error(std::uint64_t failure_id) const;

 private:
  struct Held {
    std::uint64_t failure_id = 0;
    std::exception_ptr error;
    std::uint64_t holders = 0;  // vars carrying it, plus one while it is listed
  };
  Held* held(std::uint64_t failure_id);
  void release(std::uint64_t failure_id);

  std::uint32_t listed_max_;
  std::vector<Poison> listed_;
  std::vector<Held> held_;  // in id order
  std::uint64_t unlisted_ = 0;
  std::uint64_t id_next_ = 1;
};

}  // namespace ordo::engine
