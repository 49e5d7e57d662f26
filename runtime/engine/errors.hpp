// Errors of the engine and its schedulers, on top of the rules' UsageError and CapacityError.
#pragma once

#include <stdexcept>
#include <string>

#include "runtime/engine/rules/errors.hpp"

namespace ordo::engine {

// A controlled-scheduler decision that the rules do not allow at this point; the message names
// the op, the pool and the reason.
class ScheduleError : public std::logic_error {
 public:
  explicit ScheduleError(const std::string& what) : std::logic_error(what) {}
};

// Under the controlled scheduler nothing runs unless the driver decides it, so a wait or a submit
// that would have to block is refused: the driver must decide completions first.
class WouldBlock : public std::logic_error {
 public:
  explicit WouldBlock(const std::string& what) : std::logic_error(what) {}
};

// The engine was shut down: no new ops, and a wait that can no longer be satisfied ends.
class EngineStopped : public std::runtime_error {
 public:
  explicit EngineStopped(const std::string& what) : std::runtime_error(what) {}
};

// The error an async op completes with when every copy of its completion handle was destroyed
// without being invoked, so a lost handle fails the op instead of hanging its dependents.
class AsyncHandleDropped : public std::runtime_error {
 public:
  explicit AsyncHandleDropped(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace ordo::engine
