#include "runtime/comm/mpi/request.hpp"

#include <cassert>
#include <cstdio>
#include <exception>
#include <utility>

#include "runtime/comm/mpi/error.hpp"
#include "runtime/comm/mpi/limits.hpp"

namespace ordo::comm {

MpiRequest::MpiRequest(std::string context) : context_(std::move(context)) {}

MpiRequest::~MpiRequest() {
  if (completed_ == requests_.size()) return;
  try {
    wait();
  } catch (const std::exception& error) {
    std::fprintf(stderr,
                 "ordo::comm: a non-blocking collective destroyed while in flight failed while "
                 "being waited for: %s\n",
                 error.what());
    std::terminate();
  }
}

void MpiRequest::add(MPI_Request request) {
  assert(request != MPI_REQUEST_NULL);
  assert(requests_.size() < limits::mpi_requests_per_start_max);
  requests_.push_back(request);
}

void MpiRequest::then(std::function<void()> finish) { finish_ = std::move(finish); }

void MpiRequest::fail(const char* function, int code) {
  // The failed chunk has ended. MPI may leave its handle allocated (Open MPI does, to keep the
  // error), so it is freed here and counted as done: the error surfaces once, and neither a later
  // wait nor the destructor waits on it again. A failure to free changes nothing for the caller.
  MPI_Request& failed = requests_[completed_];
  if (failed != MPI_REQUEST_NULL) MPI_Request_free(&failed);
  ++completed_;
  finish_ = nullptr;  // the buffer's state is unknown: nothing more is done to it
  throw MpiError(function, code, context_);
}

bool MpiRequest::test() {
  while (completed_ < requests_.size()) {
    int done = 0;
    const int code = MPI_Test(&requests_[completed_], &done, MPI_STATUS_IGNORE);
    if (code != MPI_SUCCESS) fail("MPI_Test", code);
    if (done == 0) return false;
    assert(requests_[completed_] == MPI_REQUEST_NULL);
    ++completed_;
  }
  run_finish();
  return true;
}

void MpiRequest::wait() {
  while (completed_ < requests_.size()) {
    const int code = MPI_Wait(&requests_[completed_], MPI_STATUS_IGNORE);
    if (code != MPI_SUCCESS) fail("MPI_Wait", code);
    assert(requests_[completed_] == MPI_REQUEST_NULL);
    ++completed_;
  }
  run_finish();
}

void MpiRequest::run_finish() {
  // A failed chunk throws before this, so the finish step never runs on a buffer MPI may have
  // left half written.
  if (finish_) std::exchange(finish_, nullptr)();
}

}  // namespace ordo::comm
