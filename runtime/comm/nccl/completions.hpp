// Completion of the callback forms (call_then, start_then) off the launching thread: one thread
// per NcclWorld waits for each launch's event in turn and runs its `done`. The launches of a rank
// share one stream, which completes them in launch order, so waiting for them in that order
// (sleeping in the driver on a blocking-sync event) never holds a finished collective back
// behind an unfinished one.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "runtime/comm/communicator.hpp"

namespace ordo::comm {

class NcclCompletions {
 public:
  // `device` is made current on the thread, which the CUDA calls of a request need.
  explicit NcclCompletions(int device);
  // Waits for every collective watched and runs its `done`; then stops the thread.
  ~NcclCompletions();
  NcclCompletions(const NcclCompletions&) = delete;
  NcclCompletions& operator=(const NcclCompletions&) = delete;

  // Takes over `request`; `done` runs once, on this object's thread, when it ends, with its error
  // if any. `done` must not throw. Starts the thread on first use. Requests are waited for in the
  // order watched; two threads racing between their launch and their watch can swap that order,
  // which delays the earlier launch's `done` until the later one ends, and nothing worse.
  void watch(std::unique_ptr<Request> request, Communicator::Done done);

  // Collectives watched and not yet ended; for tests.
  std::size_t in_flight() const;

 private:
  struct Watched {
    std::unique_ptr<Request> request;
    Communicator::Done done;
  };

  void loop();

  int device_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Watched> watched_;  // under mutex_, in launch order
  bool stop_ = false;            // under mutex_
  std::thread thread_;           // under mutex_: started by the first watch
};

}  // namespace ordo::comm
