// One rank's handle on one communicator, whatever carries the data: Open MPI, or the in-process
// simulated world. Every collective goes through `call`/`start` with a Call that says exactly
// what MPI would match, so the simulated world can check matched calls against each other.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "runtime/comm/rules/call.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::comm {

// A non-blocking collective in flight. Exactly one of test() returning true or wait() returning
// ends it; errors surface from either as exceptions.
class Request {
 public:
  virtual ~Request() = default;
  virtual bool test() = 0;
  virtual void wait() = 0;
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual const std::string& name() const = 0;
  virtual dag::Rank rank() const = 0;  // this process's rank within the communicator
  virtual std::uint32_t size() const = 0;

  // Blocking collective on `buffer`, always in place and always the whole `count` elements:
  // allreduce sums into it; bcast fills it from the root; reduce sums into the root's and only
  // reads the others'; reduce_scatter sums every member's block i into member i's block i
  // (block i at element i * count / size) and leaves its other blocks unspecified; allgather
  // fills every block from its member's block; barrier ignores it and may be given nullptr.
  virtual void call(const Call& call, void* buffer) = 0;
  // Non-blocking form; `buffer` must stay valid until the request ends.
  virtual std::unique_ptr<Request> start(const Call& call, void* buffer) = 0;

  // Completion-callback form of `call`: `done` runs exactly once when the collective completes,
  // with its error if any. The default blocks in call() and then runs `done` on the caller's
  // thread, which suits a caller that holds its thread for the whole collective anyway. The
  // simulated world returns at once instead, so one thread can drive every rank of a controlled
  // schedule.
  using Done = std::function<void(std::exception_ptr)>;
  virtual void call_then(const Call& call, void* buffer, Done done) {
    std::exception_ptr error;
    try {
      this->call(call, buffer);
    } catch (...) {
      error = std::current_exception();
    }
    done(error);
  }
  // Completion-callback form of `start`: the caller does not hold its thread for the collective.
  // The default waits for the request on the caller's thread (a backend without a progress
  // engine of its own has no better place to drive it); the simulated world returns at once.
  virtual void start_then(const Call& call, void* buffer, Done done) {
    std::exception_ptr error;
    try {
      start(call, buffer)->wait();
    } catch (...) {
      error = std::current_exception();
    }
    done(error);
  }

  void allreduce(void* buffer, std::uint64_t count, dag::DType dtype, dag::Reduction reduction,
                 std::int64_t key = 0);
  void bcast(void* buffer, std::uint64_t count, dag::DType dtype, dag::Rank root,
             std::int64_t key = 0);
  void barrier(std::int64_t key = 0);
  void reduce(void* buffer, std::uint64_t count, dag::DType dtype, dag::Reduction reduction,
              dag::Rank root, std::int64_t key = 0);
  void reduce_scatter(void* buffer, std::uint64_t count, dag::DType dtype, dag::Reduction reduction,
                      std::int64_t key = 0);
  void allgather(void* buffer, std::uint64_t count, dag::DType dtype, std::int64_t key = 0);
};

// Runs a collective's `done` on a thread of the backend's own (a progress or completion thread),
// where nobody is left to hear what it throws and the collective's owner would wait forever: a
// throw ends the process, after naming `what` completed ("an NCCL collective").
void complete_or_terminate(const Communicator::Done& done, std::exception_ptr error,
                           const char* what);

// One rank's view of the job: its rank, the world size, and the job's communicators, all created
// before any collective runs (creating communicators concurrently can deadlock in MPI).
class World {
 public:
  virtual ~World() = default;
  virtual dag::Rank rank() const = 0;
  virtual std::uint32_t size() const = 0;
  virtual std::uint32_t comm_count() const = 0;
  // The communicator with this id (its index in the job's comm table). Throws std::out_of_range
  // for an unknown id and std::logic_error if this rank is not a member.
  virtual Communicator& comm(dag::CommId id) = 0;
  virtual bool is_member(dag::CommId id) const = 0;
};

}  // namespace ordo::comm
