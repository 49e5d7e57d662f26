// Device ops on an engine pool, in MXNet's GPU model: a device op's function enqueues its work
// on the pool's DeviceQueue (a CUDA stream, or the host stand-in) and returns at once, giving its
// pool thread back; the op completes, and its vars are released, when the queue reaches the
// marker recorded after that work. So a pool of one thread keeps any number of device ops in
// flight, and nothing waits for the device on a core: the queue reports the marker from its own
// thread (docs/engine.md, "Device pools").
//
// Built on the engine's async ops (submit_async and AsyncDone): the engine learns nothing new,
// and the same op runs under the thread-pool and the controlled scheduler alike.
#pragma once

#include <functional>
#include <memory>
#include <mutex>

#include "runtime/dag/program.hpp"
#include "runtime/engine/device_queue.hpp"
#include "runtime/engine/engine.hpp"

namespace ordo::engine {

class DevicePool {
 public:
  // `pool` is a FIFO pool of `engine` that runs only this queue's device ops, so that its ops
  // complete in the order they were marked; docs/engine.md says why the checker's model of the
  // recorded program then covers every run. `engine` and `queue` must outlive the submissions; a
  // queue destroyed first still reaches its markers. Throws UsageError for a pool the engine does
  // not have or one that is not FIFO.
  DevicePool(Engine& engine, dag::PoolId pool, DeviceQueue& queue);

  // Submits a device op: `desc.pool` is this pool and `desc.kind` compute or copy (the
  // recorded program says what the op does; its thread is given back regardless). When the op
  // starts, `enqueue` runs on a thread of the pool; it must put the op's work on the queue and
  // return without waiting for it. Then a marker is recorded, and the op completes when the
  // queue reaches it, failed if the work failed. If `enqueue` throws, the marker is still
  // recorded, so that the work it did enqueue has drained before the op's vars are released,
  // and the op completes with what it threw: its writes are poisoned (docs/engine.md,
  // "Exceptions"). Throws UsageError for a desc of another pool or kind, or no function.
  OpHandle submit(const OpDesc& desc, std::function<void()> enqueue);

  dag::PoolId pool() const { return pool_; }
  DeviceQueue& queue() const { return *queue_; }

 private:
  Engine* engine_;
  dag::PoolId pool_;
  DeviceQueue* queue_;
  // Held by an op's function while it enqueues and marks; shared with the functions, which may
  // run after this object is gone.
  std::shared_ptr<std::mutex> order_;
};

}  // namespace ordo::engine
