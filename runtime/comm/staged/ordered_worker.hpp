// Runs one communicator's collectives one at a time, in the order they were issued, for a backend
// whose collective is a sequence of steps ordo drives itself (staged copies and host collectives;
// blocking CUDA-aware MPI calls). The issue order is the order MPI matches by, so it must be
// kept exactly: a blocking call made while nothing is queued runs on the caller's thread (no
// hand-over cost), anything else waits its turn on the worker's thread, which starts on first use.
//
// Non-blocking collectives therefore run back to back rather than overlapping each other, and
// complete in issue order; each is still under way while its issuer goes on, which is what the
// non-blocking forms promise.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "runtime/comm/communicator.hpp"

namespace ordo::comm {

class OrderedWorker {
 public:
  // Carries out one collective. `blocking` says which form the caller used, so a backend can
  // issue the matching form underneath (MPI never matches a blocking call with a non-blocking
  // one). Errors are thrown.
  using Run = std::function<void(const Call& call, void* buffer, bool blocking)>;

  // `name` is the communicator's, for messages.
  OrderedWorker(std::string name, Run run);
  // Runs what is queued, then stops the thread.
  ~OrderedWorker();
  OrderedWorker(const OrderedWorker&) = delete;
  OrderedWorker& operator=(const OrderedWorker&) = delete;

  // Returns when the collective has ended; throws its error. Throws std::logic_error when made
  // from a `done` callback while other collectives are queued: it would wait for itself.
  void call(const Call& call, void* buffer);
  // Queues the collective and returns its request.
  std::unique_ptr<Request> start(const Call& call, void* buffer);
  // Queues the collective; `done` runs on the worker's thread when it ends. It must not throw, and
  // it may start collectives but not wait for one of this communicator (it holds the thread that
  // would carry it out).
  void then(const Call& call, void* buffer, bool blocking, Communicator::Done done);

 private:
  struct Job {
    Call call;
    void* buffer = nullptr;
    bool blocking = true;
    Communicator::Done done;
  };

  void enqueue(Job job);
  void loop();

  std::string name_;
  Run run_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queue_;  // under mutex_
  bool busy_ = false;      // under mutex_: a collective is running, on any thread
  bool stop_ = false;      // under mutex_
  std::thread thread_;     // under mutex_: started by the first job queued
};

}  // namespace ordo::comm
