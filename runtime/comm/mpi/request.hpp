// A non-blocking collective in flight over MPI: one MPI_Request per chunk (see chunks.hpp),
// completed in issue order.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "runtime/comm/communicator.hpp"

namespace ordo::comm {

// Owned by one thread at a time (MPI requests are not meant to be completed concurrently).
// After the collective ends, test() keeps returning true and wait() returns at once.
//
// Destroying a request still in flight waits for it: the buffer stays in use by MPI until the
// collective completes, and freeing the request instead would leave the caller no way to know
// when the buffer is safe. A failure during that wait cannot be thrown from a destructor; it is
// written to stderr and the process terminates, since the buffer's state is then unknown.
class MpiRequest final : public Request {
 public:
  // `context` describes the collective, for messages.
  explicit MpiRequest(std::string context);
  ~MpiRequest() override;
  MpiRequest(const MpiRequest&) = delete;
  MpiRequest& operator=(const MpiRequest&) = delete;

  // Appends the request of the next chunk; chunks must be added in the order they were started.
  void add(MPI_Request request);
  // Runs `finish` once, on the thread that sees the last chunk complete, before test() returns
  // true or wait() returns: the backend's own step after MPI is done with the buffer (e.g.
  // moving a reduce_scatter's block into place). It must not throw.
  void then(std::function<void()> finish);

  bool test() override;
  void wait() override;

 private:
  [[noreturn]] void fail(const char* function, int code);
  void run_finish();

  std::string context_;
  std::vector<MPI_Request> requests_;
  std::size_t completed_ = 0;  // requests_[0, completed_) are done (MPI_REQUEST_NULL)
  std::function<void()> finish_;
};

}  // namespace ordo::comm
