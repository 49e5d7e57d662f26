// Error paths of the MPI backend: misuse rejected before MPI is called, MPI's own failures turned
// into MpiError, and MPI's once-per-process rule.
#include <gtest/gtest.h>
#include <mpi.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_env.hpp"
#include "runtime/comm/mpi/collectives.hpp"
#include "runtime/comm/mpi/communicator.hpp"
#include "runtime/comm/mpi/error.hpp"

namespace ordo::comm::test {
namespace {

using dag::DType;
using dag::Reduction;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Errors, AllreduceWithoutAReductionIsRejected) {
  float value = 1.0f;
  try {
    world_comm().allreduce(&value, 1, DType::f32, Reduction::none, /*key=*/9);
    ADD_FAILURE() << "allreduce with reduction none was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_TRUE(contains(error.what(), "on 'world', key 9")) << error.what();
    EXPECT_TRUE(contains(error.what(), "allreduce has reduction none")) << error.what();
  }
  const Call call{.kind = dag::CollectiveKind::allreduce,
                  .key = 9,
                  .count = 1,
                  .dtype = DType::f32,
                  .reduction = Reduction::none,
                  .root = std::nullopt};
  EXPECT_THROW(world_comm().start(call, &value), std::invalid_argument);
}

TEST(Errors, BcastRootOutOfRangeIsRejected) {
  double value = 0.0;
  const dag::Rank root = world().size();
  try {
    world_comm().bcast(&value, 1, DType::f64, root);
    ADD_FAILURE() << "bcast from a root outside the communicator was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_TRUE(contains(error.what(),
                         "root " + std::to_string(root) + " is not a rank of the communicator"))
        << error.what();
  }
}

TEST(Errors, NullBufferIsRejected) {
  EXPECT_THROW(world_comm().allreduce(nullptr, 4, DType::i32, Reduction::sum),
               std::invalid_argument);
  EXPECT_THROW(world_comm().bcast(nullptr, 4, DType::i32, 0), std::invalid_argument);
}

TEST(Errors, CountsNoBufferCanHoldAreRejected) {
  std::int64_t value = 0;
  EXPECT_THROW(world_comm().allreduce(&value, std::uint64_t{1} << 62, DType::i64, Reduction::sum),
               std::invalid_argument);
}

TEST(Errors, MpiFailureBecomesMpiError) {
  // A negative count passes straight to MPI through the one-call layer; MPI rejects it on every
  // rank before communicating, and MPI_ERRORS_RETURN hands back the code.
  MpiCommunicator& comm = world_comm();
  std::int32_t value = 1;
  try {
    mpi_call::allreduce(comm.handle(), &value, -1, MPI_INT32_T, MPI_SUM);
    ADD_FAILURE() << "MPI accepted a negative count";
  } catch (const MpiError& error) {
    EXPECT_EQ(error.function(), "MPI_Allreduce");
    EXPECT_EQ(error.error_class(), MPI_ERR_COUNT);
    EXPECT_TRUE(contains(error.what(), "MPI_Allreduce failed: ")) << error.what();
    EXPECT_TRUE(contains(error.what(), mpi_error_text(error.code()))) << error.what();
  }
  try {
    mpi_call::bcast(comm.handle(), &value, 1, MPI_INT32_T, static_cast<int>(world().size()));
    ADD_FAILURE() << "MPI accepted a root outside the communicator";
  } catch (const MpiError& error) {
    EXPECT_EQ(error.function(), "MPI_Bcast");
    EXPECT_EQ(error.error_class(), MPI_ERR_ROOT);
  }
  // Nothing was communicated, so the communicator is still usable.
  comm.allreduce(&value, 1, DType::i32, Reduction::sum);
  EXPECT_EQ(value, static_cast<std::int32_t>(world().size()));
}

TEST(Errors, SecondRuntimeInOneProcessIsALogicError) {
  int argc = 0;
  char** argv = nullptr;
  try {
    MpiRuntime second(&argc, &argv);
    ADD_FAILURE() << "a second MpiRuntime was created";
  } catch (const std::logic_error& error) {
    EXPECT_TRUE(contains(error.what(), "already initialized")) << error.what();
  }
}

TEST(Errors, ThreadLevelNames) {
  EXPECT_EQ(thread_level_name(MPI_THREAD_FUNNELED), "MPI_THREAD_FUNNELED");
  EXPECT_EQ(thread_level_name(MPI_THREAD_MULTIPLE), "MPI_THREAD_MULTIPLE");
  EXPECT_EQ(thread_level_name(-7), "unknown thread level -7");
}

}  // namespace
}  // namespace ordo::comm::test
