// An op's function as the engine stores it until a thread runs it.
#pragma once

#include <functional>

#include "runtime/engine/async_done.hpp"

namespace ordo::engine {

using SyncFn = std::function<void()>;
// Receives the op's completion handle; the op stays in flight after the function returns until
// the handle is invoked (or its last copy destroyed).
using AsyncFn = std::function<void(AsyncDone)>;

// Exactly one of the two is set for a submitted op; both are empty once it ran or was discarded.
struct Task {
  SyncFn sync;
  AsyncFn async;
  bool empty() const { return !sync && !async; }
};

}  // namespace ordo::engine
