// Shutdown under the controlled scheduler: unstarted ops are discarded without running, started
// ones are reported, and nothing hangs on ops queued behind an op that never completes.
#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "runtime/engine/errors.hpp"
#include "tests/engine/controlled_rig.hpp"

namespace ordo::engine::testing {
namespace {

OpDesc async_desc(const std::string& name, VarHandle var) {
  OpDesc op{name, {}, {var}};
  op.kind = dag::OpKind::async_collective;
  op.collective = collective(dag::CollectiveKind::barrier, 0);
  return op;
}

TEST(EngineShutdown, DiscardsOpsQueuedBehindAnOpThatNeverCompletes) {
  ControlledRig rig(one_pool(2));
  rig.engine.declare_comm(dag::Communicator{"world", std::nullopt});
  const VarHandle v = rig.var("v");
  std::optional<AsyncDone> handle;
  const OpHandle stuck = rig.engine.submit_async(async_desc("stuck", v),
                                               [&handle](const AsyncDone& done) { handle = done; });
  rig.start(stuck);
  const auto capture = std::make_shared<int>(0);
  bool ran = false;
  for (const char* name : {"b", "c"}) {
    rig.engine.submit(OpDesc{name, {v}, {}}, [capture, &ran] { ran = *capture == 0; });
  }
  EXPECT_EQ(capture.use_count(), 3);
  EXPECT_EQ(rig.engine.shutdown(), (ShutdownReport{2, 1}));
  EXPECT_FALSE(ran);
  EXPECT_EQ(capture.use_count(), 1);  // the discarded functions were destroyed
  EXPECT_NO_THROW((*handle)());       // a completion after shutdown is dropped
}

TEST(EngineShutdown, IsIdempotent) {
  ControlledRig rig;
  rig.op("queued", {}, {});
  const ShutdownReport first = rig.engine.shutdown();
  EXPECT_EQ(first, (ShutdownReport{1, 0}));
  EXPECT_EQ(rig.engine.shutdown(), first);
}

TEST(EngineShutdown, StartedSyncOpIsReportedAbandonedUnderControl) {
  ControlledRig rig;
  const OpHandle running = rig.op("running", {}, {});
  rig.start(running);
  EXPECT_EQ(rig.engine.shutdown(), (ShutdownReport{0, 1}));
  EXPECT_EQ(rig.log(), (std::vector<std::string>{"running"}));
}

TEST(EngineShutdown, SubmitAfterShutdownThrows) {
  ControlledRig rig;
  rig.engine.shutdown();
  EXPECT_EQ(message_of<EngineStopped>([&] { rig.op("late", {}, {}); }),
            "op 'late' submitted after engine shutdown");
}

TEST(EngineShutdown, WaitThatCanNoLongerBeSatisfiedThrows) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  rig.op("discarded", {}, {v});
  rig.engine.shutdown();
  EXPECT_THROW(rig.engine.wait_to_read(v), EngineStopped);
  EXPECT_THROW(rig.engine.wait_for_all(), EngineStopped);
}

TEST(EngineShutdown, DestroyingTheEngineDiscardsQueuedOps) {
  const auto capture = std::make_shared<int>(0);
  bool ran = false;
  {
    ControlledRig rig;
    const VarHandle v = rig.var("v");
    for (int i = 0; i < 4; ++i) {
      rig.engine.submit(OpDesc{"w", {}, {v}}, [capture, &ran] { ran = *capture == 0; });
    }
  }
  EXPECT_FALSE(ran);
  EXPECT_EQ(capture.use_count(), 1);
}

}  // namespace
}  // namespace ordo::engine::testing
