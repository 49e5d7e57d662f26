// Completion of non-blocking collectives off the issuing thread. Open MPI (4.x, shared memory)
// has no progress thread of its own: a request moves only while some thread calls into MPI. So
// that start_then can return at once and still have `done` run when the collective ends, one
// thread per MpiWorld tests the requests in flight, and sleeps while there are none.
//
// The thread only tests requests (allowed from any thread under MPI_THREAD_MULTIPLE); it never
// issues a collective, so it changes no communicator's issue order.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/comm/communicator.hpp"

namespace ordo::comm {

class MpiProgress {
 public:
  MpiProgress() = default;
  // Waits for every request in flight to end (their buffers are in MPI's hands until then) and
  // runs their `done`; then stops the thread. Must run before MPI_Finalize.
  ~MpiProgress();
  MpiProgress(const MpiProgress&) = delete;
  MpiProgress& operator=(const MpiProgress&) = delete;

  // Takes over `request`; `done` runs once, on the progress thread, when it ends (with its error
  // if it failed). `done` must not throw. Starts the thread on first use.
  void watch(std::unique_ptr<Request> request, Communicator::Done done);

  // Requests in flight now; for tests.
  std::size_t in_flight() const;

 private:
  struct Watched {
    std::unique_ptr<Request> request;
    Communicator::Done done;
  };

  void loop();
  // Tests every watched request once, with the lock released; returns how many ended.
  std::size_t sweep(std::unique_lock<std::mutex>& lock);

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Watched> watched_;  // under mutex_
  std::uint64_t submitted_ = 0;   // under mutex_: requests ever watched
  bool stop_ = false;             // under mutex_
  std::thread thread_;            // started by the first watch, under mutex_
};

}  // namespace ordo::comm
