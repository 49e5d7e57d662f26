// Errors the engine rules raise. Every one of them is a caller's mistake or a reached bound, never
// an internal state: the rules check before they mutate, so after a throw the state is unchanged.
#pragma once

#include <stdexcept>
#include <string>

namespace ordo::engine {

// The caller broke the engine contract: an unknown var or pool, a var named twice in one op, a
// stale op handle, a completion handle invoked twice.
class UsageError : public std::logic_error {
 public:
  explicit UsageError(const std::string& what) : std::logic_error(what) {}
};

// An explicit bound (ops pending, vars, recorded program size) would be exceeded.
class CapacityError : public std::runtime_error {
 public:
  explicit CapacityError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace ordo::engine
