// An async collective op on real ranks returns its pool thread as soon as the collective is
// started; the world's progress thread completes the op (runtime/comm/mpi/progress.hpp). Here
// rank 1 joins the allreduce only after rank 0 ran a second op on the same one-thread pool: if
// the first op kept the thread until the collective ended, the job would hang.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <span>
#include <vector>

#include "runtime/comm/mpi/world.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "tests/comm/mpi_env.hpp"

namespace ordo::exec {
namespace {

TEST(MpiAsyncOp, FreesItsPoolThreadWhileTheCollectiveIsInFlight) {
  const std::vector<dag::Communicator> comms = {dag::Communicator{"world", std::nullopt}};
  comm::MpiWorld world(comm::test::runtime(), comms);
  engine::EngineConfig config;
  config.pools = {dag::Pool{"comm", 1}};
  engine::Engine engine(std::move(config), std::make_unique<engine::ThreadPoolScheduler>());
  BodyOptions bodies;
  bodies.compute = [](dag::Rank rank, const dag::Op& op, Buffers&) {
    if (rank == 0 && op.name == "release") comm::test::send_token(1);
  };
  Executor executor(engine, world, comms, bodies);
  constexpr std::uint64_t count = 1 << 12;
  const dag::VarId g = executor.add_var({"g", dag::VarKind::tensor, count * 4, dag::DType::f32});
  const dag::VarId t = executor.add_var({"t", dag::VarKind::token, 0, dag::DType::u8});
  executor.buffers().fill<float>(g,
                                 std::vector<float>(count, static_cast<float>(world.rank() + 1)));

  dag::Op reduce;
  reduce.name = "allreduce";
  reduce.kind = dag::OpKind::async_collective;
  reduce.writes = {g};
  reduce.collective = dag::Collective{dag::CollectiveKind::allreduce,
                                      0,
                                      1,
                                      count,
                                      dag::DType::f32,
                                      dag::Reduction::sum,
                                      std::nullopt};
  dag::Op release;
  release.name = "release";
  release.writes = {t};

  if (world.rank() == 1) comm::test::receive_token(0);
  executor.submit(reduce);
  if (world.rank() == 0) executor.submit(release);
  executor.wait_for_all();

  const float n = static_cast<float>(world.size());
  const std::vector<float> expected(count, n * (n + 1) / 2);
  const std::span<float> got = executor.buffers().as<float>(g);
  EXPECT_TRUE(std::equal(got.begin(), got.end(), expected.begin(), expected.end()));
  executor.main_done();
}

}  // namespace
}  // namespace ordo::exec
