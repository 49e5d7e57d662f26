// The engine records exactly the program it was given, as a dag::Job.
#include <gtest/gtest.h>

#include "runtime/engine/errors.hpp"
#include "tests/engine/controlled_rig.hpp"

namespace ordo::engine::testing {
namespace {

std::vector<dag::Pool> two_pools() {
  return {dag::Pool{"compute", 2, dag::PoolKind::fifo},
          dag::Pool{"comm", 1, dag::PoolKind::priority}};
}

TEST(EngineRecorder, RecordsVarsPoolsOpsMainActionsAndComms) {
  ControlledRig rig(two_pools(), Limits{}, true);
  const dag::Var grad_desc{"grad", dag::VarKind::tensor, 64, dag::DType::f32};
  const dag::Var buf_desc{"buf", dag::VarKind::buffer, 64, dag::DType::f32};
  const VarHandle grad = rig.engine.new_var(grad_desc);
  const VarHandle buf = rig.engine.new_var(buf_desc);
  const dag::Communicator world{"world", std::nullopt};
  const dag::Communicator pair{"pair", std::vector<dag::Rank>{0, 1}};
  EXPECT_EQ(rig.engine.declare_comm(world), 0u);
  EXPECT_EQ(rig.engine.declare_comm(pair), 1u);

  rig.engine.submit(OpDesc{"copy", {grad}, {buf}, 0, 0, dag::OpKind::copy, 2.5}, [] {});
  dag::Collective reduce = collective(dag::CollectiveKind::allreduce, 1, 7, 16);
  reduce.reduction = dag::Reduction::sum;
  rig.engine.submit_async(
      OpDesc{"reduce", {}, {buf}, 1, 3, dag::OpKind::async_collective, 40.0, reduce},
      [](const AsyncDone& done) { done(); });
  rig.run_all();
  rig.engine.wait_to_read(buf);
  const dag::Collective barrier = collective(dag::CollectiveKind::barrier, 0);
  rig.engine.record_main_collective(barrier, std::nullopt);
  rig.engine.record_main_collective(reduce, buf);
  rig.engine.wait_for_all();

  const dag::Op copy_op{"copy", {0}, {1}, 0, 0, dag::OpKind::copy, 2.5, std::nullopt};
  const dag::Op reduce_op{"reduce", {}, {1}, 1, 3, dag::OpKind::async_collective, 40.0, reduce};
  const dag::Program program{"step",
                             std::nullopt,
                             {grad_desc, buf_desc},
                             two_pools(),
                             {copy_op, reduce_op},
                             {dag::SubmitAction{0}, dag::SubmitAction{1}, dag::WaitToReadAction{1},
                              dag::CollectiveAction{barrier, std::nullopt},
                              dag::CollectiveAction{reduce, 1}, dag::WaitForAllAction{}}};
  const dag::Job expected{std::nullopt, {world, pair}, {program}};
  EXPECT_EQ(rig.engine.recorded_job(), expected);
}

TEST(EngineRecorder, OpsSubmittedFromInsideOpsAreRecordedInSubmitOrder) {
  ControlledRig rig(two_pools(), Limits{}, true);
  const VarHandle v = rig.var("v");
  const OpHandle outer =
      rig.engine.submit(OpDesc{"outer", {}, {v}}, [&rig] { rig.op("inner", {}, {}); });
  rig.start(outer);
  rig.op("after", {v}, {});
  const dag::Program program = rig.engine.recorded_job().programs.at(0);
  ASSERT_EQ(program.ops.size(), 3u);
  EXPECT_EQ(program.ops[0].name, "outer");
  EXPECT_EQ(program.ops[1].name, "inner");
  EXPECT_EQ(program.ops[2].name, "after");
  const std::vector<dag::Action> main{dag::SubmitAction{0}, dag::SubmitAction{1},
                                      dag::SubmitAction{2}};
  EXPECT_EQ(program.main, main);
}

TEST(EngineRecorder, WaitsAreRecordedWhenTheyReturnNotWhenTheyWouldBlock) {
  ControlledRig rig(two_pools(), Limits{}, true);
  const VarHandle v = rig.var("v");
  rig.op("w", {}, {v});
  EXPECT_THROW(rig.engine.wait_to_read(v), WouldBlock);
  EXPECT_THROW(rig.engine.wait_for_all(), WouldBlock);
  rig.run_all();
  rig.engine.wait_to_read(v);
  const std::vector<dag::Action> main{dag::SubmitAction{0}, dag::WaitToReadAction{0}};
  EXPECT_EQ(rig.engine.recorded_job().programs.at(0).main, main);
}

TEST(EngineRecorder, ProgramNameComesFromTheConfig) {
  auto scheduler = std::make_unique<ControlledScheduler>();
  Engine engine(EngineConfig{two_pools(), Limits{}, true, "warmup"}, std::move(scheduler));
  EXPECT_EQ(engine.recorded_job().programs.at(0).name, "warmup");
}

TEST(EngineRecorder, RecordingOffRefusesTheJobButValidatesMainCollectives) {
  ControlledRig rig;
  EXPECT_EQ(message_of<UsageError>([&] { rig.engine.recorded_job(); }),
            "recording is off; construct the engine with record = true");
  const dag::Collective barrier = collective(dag::CollectiveKind::barrier, 0);
  EXPECT_THROW(rig.engine.record_main_collective(barrier, std::nullopt), UsageError);
  rig.engine.declare_comm(dag::Communicator{"world", std::nullopt});
  EXPECT_NO_THROW(rig.engine.record_main_collective(barrier, std::nullopt));
}

}  // namespace
}  // namespace ordo::engine::testing
