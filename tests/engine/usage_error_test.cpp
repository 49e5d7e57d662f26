// Malformed submissions are rejected with a message naming the op and the fault, and leave the
// engine unchanged.
#include <gtest/gtest.h>

#include "runtime/engine/errors.hpp"
#include "tests/engine/controlled_rig.hpp"

namespace ordo::engine::testing {
namespace {

OpDesc desc_of(std::vector<VarHandle> reads, std::vector<VarHandle> writes) {
  return OpDesc{"bad", std::move(reads), std::move(writes)};
}

std::string submit_error(ControlledRig& rig, const OpDesc& desc) {
  return message_of<UsageError>([&] { rig.engine.submit(desc, [] {}); });
}

TEST(EngineUsageError, VarTwiceInReads) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  EXPECT_EQ(submit_error(rig, desc_of({v, v}, {})),
            "op 'bad' names var 0 twice in its reads; list each var once (a write already grants "
            "read access)");
}

TEST(EngineUsageError, VarTwiceInWrites) {
  ControlledRig rig;
  const VarHandle u = rig.var("u");
  const VarHandle v = rig.var("v");
  EXPECT_NE(submit_error(rig, desc_of({u}, {v, v})).find("names var 1 twice in its writes"),
            std::string::npos);
}

TEST(EngineUsageError, VarInReadsAndWrites) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  EXPECT_NE(submit_error(rig, desc_of({v}, {v})).find("names var 0 in both reads and writes"),
            std::string::npos);
}

TEST(EngineUsageError, UnknownVar) {
  ControlledRig rig;
  EXPECT_EQ(submit_error(rig, desc_of({}, {VarHandle{7}})),
            "op 'bad' writes var 7 which does not exist (the engine has 0 vars)");
}

TEST(EngineUsageError, UnknownPool) {
  ControlledRig rig;
  OpDesc desc = desc_of({}, {});
  desc.pool = 3;
  EXPECT_EQ(submit_error(rig, desc), "op 'bad' names pool 3 but the engine has 1 pools");
}

TEST(EngineUsageError, AsyncKindSubmittedSync) {
  ControlledRig rig;
  OpDesc desc = desc_of({}, {});
  desc.kind = dag::OpKind::async_collective;
  desc.collective = dag::Collective{};
  rig.engine.declare_comm(dag::Communicator{"world", std::nullopt});
  EXPECT_NE(submit_error(rig, desc).find("use submit_async"), std::string::npos);
}

TEST(EngineUsageError, CollectiveKindWithoutCollective) {
  ControlledRig rig;
  OpDesc desc = desc_of({}, {});
  desc.kind = dag::OpKind::collective;
  EXPECT_EQ(submit_error(rig, desc), "op 'bad' has a collective kind but no collective");
}

TEST(EngineUsageError, UndeclaredCommunicator) {
  ControlledRig rig;
  OpDesc desc = desc_of({}, {});
  desc.kind = dag::OpKind::collective;
  desc.collective = collective(dag::CollectiveKind::barrier, 2);
  EXPECT_EQ(submit_error(rig, desc),
            "op 'bad' uses communicator 2 but 0 were declared (declare_comm)");
}

TEST(EngineUsageError, MissingFunction) {
  ControlledRig rig;
  EXPECT_EQ(message_of<UsageError>([&] { rig.engine.submit(desc_of({}, {}), SyncFn{}); }),
            "op 'bad' submitted without a function");
}

TEST(EngineUsageError, RejectedSubmitLeavesNoTrace) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  EXPECT_THROW(rig.engine.submit(desc_of({v, v}, {}), [] {}), UsageError);
  EXPECT_TRUE(rig.engine.all_done());
  EXPECT_TRUE(rig.engine.can_read(v));
  EXPECT_TRUE(rig.scheduler.legal_decisions().empty());
}

TEST(EngineUsageError, DuplicatePoolNames) {
  EXPECT_THROW(ControlledRig rig({dag::Pool{"p", 1}, dag::Pool{"p", 2}}), UsageError);
}

TEST(EngineUsageError, PoolWithoutThreads) {
  EXPECT_THROW(ControlledRig rig({dag::Pool{"p", 0}}), UsageError);
}

}  // namespace
}  // namespace ordo::engine::testing
