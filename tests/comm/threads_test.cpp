// MPI_THREAD_MULTIPLE as the engine uses it: several threads, each with collectives in flight on
// its own communicator at the same time, through a shared MpiWorld and type table. Run under
// ThreadSanitizer this also checks the backend's own data races.
//
// The f16 thread uses blocking calls only: in a blocking allreduce Open MPI runs the user-defined
// op on the calling thread, while a non-blocking one may run it on whichever thread drives
// progress, handing the buffer over through atomics TSan cannot see (see docs/comm.md).
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "mpi_env.hpp"
#include "values.hpp"

namespace ordo::comm::test {
namespace {

using dag::DType;
using dag::Reduction;

enum class Form { blocking, nonblocking, alternating };

struct Plan {
  DType dtype;
  Form form;
};

constexpr std::array<Plan, 3> plans = {Plan{DType::f16, Form::blocking},
                                       Plan{DType::f32, Form::nonblocking},
                                       Plan{DType::i32, Form::alternating}};
constexpr std::uint32_t rounds = 40;
constexpr std::uint64_t count = 1023;

bool nonblocking_in(Form form, std::uint32_t round) {
  return form == Form::nonblocking || (form == Form::alternating && round % 2 == 1);
}

void run_rounds(Communicator& comm, Plan plan, std::atomic<std::uint32_t>& mismatches) {
  const std::vector<std::byte> expected =
      reduced(plan.dtype, Reduction::sum, count, world().size());
  for (std::uint32_t round = 0; round < rounds; ++round) {
    std::vector<std::byte> buffer = contribution(plan.dtype, Reduction::sum, count, world().rank());
    if (nonblocking_in(plan.form, round)) {
      const Call call{.kind = dag::CollectiveKind::allreduce,
                      .key = round,
                      .count = count,
                      .dtype = plan.dtype,
                      .reduction = Reduction::sum,
                      .root = std::nullopt};
      comm.start(call, buffer.data())->wait();
    } else {
      comm.allreduce(buffer.data(), count, plan.dtype, Reduction::sum, round);
    }
    if (buffer != expected) ++mismatches;
  }
}

TEST(Threads, ConcurrentCollectivesOnDistinctCommunicators) {
  std::vector<dag::Communicator> table;
  for (std::size_t t = 0; t < plans.size(); ++t) {
    table.push_back(
        dag::Communicator{.name = "thread" + std::to_string(t), .members = std::nullopt});
  }
  MpiWorld threads_world(runtime(), table);
  std::atomic<std::uint32_t> mismatches{0};
  std::atomic<std::uint32_t> exceptions{0};
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < plans.size(); ++t) {
    threads.emplace_back([&, t] {
      try {
        run_rounds(threads_world.comm(static_cast<dag::CommId>(t)), plans[t], mismatches);
      } catch (...) {
        // Counted, not rethrown: an exception leaving a thread would terminate every test.
        ++exceptions;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0u);
  EXPECT_EQ(exceptions.load(), 0u);
}

}  // namespace
}  // namespace ordo::comm::test
