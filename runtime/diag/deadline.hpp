// A bound on a stretch of a rank's work that no flight recorder sees yet: `ordo train`'s MPI
// set-up (its communicators made, its device path detected: collectives of MPI itself, before
// the worlds the recorder watches exist). When the stretch outlasts its time, `expire` runs on
// the deadline's own thread, to report and end the job, as the hang watchdog does: a call
// blocked in MPI cannot be interrupted, so another thread is the one way out.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace ordo::diag {

class Deadline {
 public:
  // Starts at once. `expire` must end the process (MpiRuntime::abort); if it returns, nothing
  // more happens. Throws std::invalid_argument for seconds that are not positive.
  Deadline(double seconds, std::function<void()> expire);
  // The stretch is over: from here `expire` is not run.
  ~Deadline();
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;  // under mutex_
  std::thread thread_;
};

}  // namespace ordo::diag
