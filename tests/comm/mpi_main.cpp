// The MPI test program: one process per rank under mpirun, every rank running the same tests in
// the same order (their collectives must match). A failure on any rank fails every rank's exit
// status, so mpirun and ctest report it whichever rank saw it; a rank stuck in a collective its
// peers abandoned is ended by the ctest TIMEOUT.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <memory>

#include "mpi_env.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "values.hpp"

namespace {

// Ranks other than 0 print only failures, each line tagged with the rank, so a failing rank is
// visible without every rank repeating the whole gtest log.
class FailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(ordo::dag::Rank rank) : rank_(rank) {}

  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %u] %s:%d: Failure\n%s\n", rank_,
                 result.file_name() != nullptr ? result.file_name() : "?", result.line_number(),
                 result.message());
  }

  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (info.result()->Failed()) {
      std::fprintf(stderr, "[rank %u] FAILED %s.%s\n", rank_, info.test_suite_name(), info.name());
    }
  }

 private:
  ordo::dag::Rank rank_;
};

int run_tests(const ordo::comm::MpiRuntime& runtime) {
  if (runtime.world_size() < 2 || runtime.world_size() > ordo::comm::test::exact_ranks_max) {
    std::fprintf(stderr, "the MPI tests need 2 to %u ranks, not %u\n",
                 ordo::comm::test::exact_ranks_max, runtime.world_size());
    return 1;
  }
  ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (runtime.world_rank() != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(runtime.world_rank()));
  }
  ordo::comm::MpiWorld world(runtime,
                             {ordo::dag::Communicator{.name = "world", .members = std::nullopt}});
  ordo::comm::test::install(&runtime, &world);
  const int result = RUN_ALL_TESTS();
  ordo::comm::test::install(nullptr, nullptr);
  return result == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::unique_ptr<ordo::comm::MpiRuntime> runtime;
  try {
    runtime = std::make_unique<ordo::comm::MpiRuntime>(&argc, &argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cannot start MPI: %s\n", error.what());
    return 1;
  }
  ::testing::InitGoogleTest(&argc, argv);
  int failed = 1;
  try {
    failed = run_tests(*runtime);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "[rank %u] %s\n", runtime->world_rank(), error.what());
  }
  int failed_anywhere = 1;
  if (MPI_Allreduce(&failed, &failed_anywhere, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) !=
      MPI_SUCCESS) {
    std::fprintf(stderr, "[rank %u] could not collect the other ranks' results\n",
                 runtime->world_rank());
    failed_anywhere = 1;
  }
  if (runtime->world_rank() == 0 && failed_anywhere != 0) {
    std::fprintf(stderr, "the MPI tests failed on at least one rank\n");
  }
  return failed_anywhere;
}
