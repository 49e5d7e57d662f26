// A wait that helps may run a blocking collective op on the waiting thread, and on Open MPI that
// thread then blocks in MPI until the other ranks call too. If ops deferred by a submit batch were
// still waiting for that thread's next wait to hand them to the workers, they would never start,
// and a rank that needs one of them before it joins the collective would wait forever: S8 says a
// batch only delays claims, never without end. Here rank 0 submits `p` (non-blocking, on D, pool
// pp) and `c` (blocking, on C, pool qq) in one batch and waits for `c`; rank 1 joins C only after
// `p` matched. The job was proven safe by the checker and hung on every run before helping paid
// the deferred wake-ups.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <vector>

#include "runtime/comm/mpi/world.hpp"
#include "runtime/engine/submit_batch.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "tests/comm/mpi_env.hpp"

namespace ordo::exec {
namespace {

dag::Op allreduce_op(const std::string& name, dag::VarId buffer, dag::CommId comm, dag::OpKind kind,
                     dag::PoolId pool) {
  dag::Op op;
  op.name = name;
  op.kind = kind;
  op.pool = pool;
  op.writes = {buffer};
  op.collective = dag::Collective{dag::CollectiveKind::allreduce,
                                  comm,
                                  0,
                                  4,
                                  dag::DType::f32,
                                  dag::Reduction::sum,
                                  std::nullopt};
  return op;
}

TEST(MpiHelpedWait, ABlockingOpRunByAWaitLeavesTheBatchsOtherOpsToTheWorkers) {
  const std::vector<dag::Communicator> comms = {dag::Communicator{"D", std::nullopt},
                                                dag::Communicator{"C", std::nullopt}};
  comm::MpiWorld world(comm::test::runtime(), comms);
  engine::EngineConfig config;
  config.pools = {dag::Pool{"pp", 1}, dag::Pool{"qq", 1}};
  engine::Engine engine(std::move(config), std::make_unique<engine::ThreadPoolScheduler>());
  Executor executor(engine, world, comms, BodyOptions{});
  const dag::VarId bp = executor.add_var({"bp", dag::VarKind::tensor, 16, dag::DType::f32});
  const dag::VarId bc = executor.add_var({"bc", dag::VarKind::tensor, 16, dag::DType::f32});
  executor.buffers().fill<float>(bp, std::vector<float>(4, 1.0F));
  executor.buffers().fill<float>(bc, std::vector<float>(4, 2.0F));
  const dag::Op p = allreduce_op("p", bp, 0, dag::OpKind::async_collective, 0);
  const dag::Op c = allreduce_op("c", bc, 1, dag::OpKind::collective, 1);
  {
    engine::SubmitBatch batch(engine);
    executor.submit(p);
    if (world.rank() == 0) {
      executor.submit(c);
      executor.wait_to_read(bc);
    } else {
      executor.wait_to_read(bp);
      executor.submit(c);
      executor.wait_to_read(bc);
    }
    executor.wait_for_all();
  }
  const float n = static_cast<float>(world.size());
  EXPECT_EQ(executor.buffers().as<float>(bp)[0], n);
  EXPECT_EQ(executor.buffers().as<float>(bc)[0], 2.0F * n);
  executor.main_done();
}

}  // namespace
}  // namespace ordo::exec
