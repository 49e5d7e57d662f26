#include "tests/comm/mpi_test_run.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <memory>

#include "runtime/comm/mpi/world.hpp"
#include "tests/comm/mpi_env.hpp"

namespace ordo::comm::test {
namespace {

class FailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(dag::Rank rank) : rank_(rank) {}

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
  dag::Rank rank_;
};

int run_tests(const MpiRuntime& runtime, const MpiTestRun& run) {
  if (runtime.world_size() < run.ranks_min || runtime.world_size() > run.ranks_max) {
    std::fprintf(stderr, "%s need %u to %u ranks, not %u\n", run.what, run.ranks_min,
                 run.ranks_max, runtime.world_size());
    return 1;
  }
  ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (runtime.world_rank() != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(runtime.world_rank()));
  }
  if (run.before) run.before(runtime);
  MpiWorld world(runtime, {dag::Communicator{.name = "world", .members = std::nullopt}});
  install(&runtime, &world);
  const int result = RUN_ALL_TESTS();
  install(nullptr, nullptr);
  return result == 0 ? 0 : 1;
}

}  // namespace

int run_mpi_tests(int argc, char** argv, const MpiTestRun& run) {
  std::unique_ptr<MpiRuntime> runtime;
  try {
    runtime = std::make_unique<MpiRuntime>(&argc, &argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cannot start MPI: %s\n", error.what());
    return 1;
  }
  ::testing::InitGoogleTest(&argc, argv);
  int failed = 1;
  try {
    failed = run_tests(*runtime, run);
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
    std::fprintf(stderr, "%s failed on at least one rank\n", run.what);
  }
  return failed_anywhere;
}

}  // namespace ordo::comm::test
