// The bounds of one engine instance. Each one is checked where the quantity grows, and reaching it
// is a reported outcome (CapacityError or back-pressure, see docs/engine.md), never an accident.
#pragma once

#include <cstdint>

#include "runtime/dag/limits.hpp"

namespace ordo::engine {

struct Limits {
  // Ops submitted and not yet retired (queued, ready, running or in flight). Op slots are recycled,
  // so this also bounds the memory the engine holds for ops.
  std::uint32_t ops_pending_max = 1u << 16;
  std::uint32_t vars_max = dag::limits::vars_max;
  // Failures waiting to be surfaced by wait_for_all; later ones still poison their vars.
  std::uint32_t failures_listed_max = 1024;
};

}  // namespace ordo::engine
