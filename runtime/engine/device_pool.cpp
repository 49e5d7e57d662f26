#include "runtime/engine/device_pool.hpp"

#include <exception>
#include <mutex>
#include <string>
#include <utility>

#include "runtime/engine/errors.hpp"

namespace ordo::engine {

DevicePool::DevicePool(Engine& engine, dag::PoolId pool, DeviceQueue& queue)
    : engine_(&engine), pool_(pool), queue_(&queue), order_(std::make_shared<std::mutex>()) {}

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
