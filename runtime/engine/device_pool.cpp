#include "runtime/engine/device_pool.hpp"

#include <exception>
#include <mutex>
#include <string>
#include <utility>

#include "runtime/engine/errors.hpp"

namespace ordo::engine {

DevicePool::DevicePool(Engine& engine, dag::PoolId pool, DeviceQueue& queue)
    : engine_(&engine), pool_(pool), queue_(&queue), order_(std::make_shared<std::mutex>()) {
  // The checker's model covers a device pool's runs only when its ops start in submission order
  // (docs/engine.md, "Device pools"); a priority pool reorders them.
  const dag::Pool& p = engine.pool(pool);
  if (p.kind != dag::PoolKind::fifo) {
    throw UsageError("pool '" + p.name + "' cannot be a device pool: it is a priority pool, and " +
                     "a device pool must start its ops in the order they were submitted (fifo)");
  }
}

OpHandle DevicePool::submit(const OpDesc& desc, std::function<void()> enqueue) {
  if (desc.pool != pool_) {
    throw UsageError("device op '" + desc.name + "' names pool " + std::to_string(desc.pool) +
                     " but was submitted to the device pool " + std::to_string(pool_));
  }
  if (desc.kind != dag::OpKind::compute && desc.kind != dag::OpKind::copy) {
    throw UsageError("device op '" + desc.name +
                     "' must be of kind compute or copy; collectives have their own ops");
  }
  if (!enqueue) throw UsageError("device op '" + desc.name + "' submitted without a function");
  DeviceQueue* queue = queue_;
  return engine_->submit_async(
      desc, [queue, order = order_, enqueue = std::move(enqueue)](const AsyncDone& done) {
        // One op's work and its marker are one stretch of the queue, even when several threads of
        // the pool enqueue at once: a failure is then reported at its own op's marker.
        const std::lock_guard<std::mutex> stretch(*order);
        std::exception_ptr failed;
        try {
          enqueue();
        } catch (...) {
          failed = std::current_exception();
        }
        // A throw from mark() leaves this function, and the engine fails the op with it. The
        // error is moved on, not copied: the queue's thread keeps no reference to an exception
        // that a waiting thread may be reading.
        queue->mark([done, failed](std::exception_ptr error) mutable {
          done.complete_once(failed != nullptr ? std::move(failed) : std::move(error));
        });
      });
}

}  // namespace ordo::engine
