// check_call: every rule, and messages that name the communicator and what was wrong.
#include "runtime/comm/rules/call.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "runtime/dag/names.hpp"

namespace ordo::comm {
namespace {

using dag::CollectiveKind;
using dag::DType;
using dag::Reduction;

Call allreduce_call() {
  return Call{.kind = CollectiveKind::allreduce,
              .key = 7,
              .count = 4,
              .dtype = DType::f32,
              .reduction = Reduction::sum,
              .root = std::nullopt};
}

Call bcast_call(dag::Rank root) {
  return Call{.kind = CollectiveKind::bcast,
              .key = 7,
              .count = 4,
              .dtype = DType::i64,
              .reduction = Reduction::none,
              .root = root};
}

Call barrier_call() {
  return Call{.kind = CollectiveKind::barrier,
              .key = 0,
              .count = 0,
              .dtype = DType::f32,
              .reduction = Reduction::none,
              .root = std::nullopt};
}

// The message of the std::invalid_argument that check_call throws, or "" if it accepts.
std::string rejection(const Call& call, const void* buffer, std::uint32_t size = 4) {
  try {
    check_call(call, buffer, "grads", size);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(CheckCall, AcceptsWellFormedCalls) {
  float buffer[4] = {};
  EXPECT_EQ(rejection(allreduce_call(), buffer), "");
  EXPECT_EQ(rejection(bcast_call(3), buffer), "");
  EXPECT_EQ(rejection(barrier_call(), nullptr), "");
  Call empty = allreduce_call();
  empty.count = 0;
  EXPECT_EQ(rejection(empty, nullptr), "");
}

TEST(CheckCall, AllreduceNeedsAReductionAndNoRoot) {
  float buffer[4] = {};
  Call call = allreduce_call();
  call.reduction = Reduction::none;
  EXPECT_EQ(rejection(call, buffer),
            "allreduce of 4 x f32 (none) on 'grads', key 7: allreduce has reduction none; "
            "expected one of: sum, prod, min, max");
  call = allreduce_call();
  call.root = 0;
  EXPECT_NE(
      rejection(call, buffer)
          .find("allreduce has a root; expected a root on bcast, reduce, gather and scatter only"),
      std::string::npos);
}

TEST(CheckCall, BcastNeedsARootInRangeAndNoReduction) {
  double buffer[4] = {};
  EXPECT_EQ(rejection(bcast_call(4), buffer),
            "bcast of 4 x i64 from root 4 on 'grads', key 7: root 4 is not a rank of the "
            "communicator; expected a root from 0 to 3 (the communicator has 4 ranks)");
  Call call = bcast_call(0);
  call.root.reset();
  EXPECT_NE(
      rejection(call, buffer).find("bcast has no root; expected a 'root' rank of the communicator"),
      std::string::npos);
  call = bcast_call(0);
  call.reduction = Reduction::max;
  EXPECT_NE(rejection(call, buffer).find("bcast has reduction max; expected reduction none"),
            std::string::npos);
}

TEST(CheckCall, BarrierCarriesNothing) {
  Call call = barrier_call();
  call.count = 1;
  EXPECT_NE(rejection(call, nullptr).find("barrier has count 1; expected count 0"),
            std::string::npos);
  call = barrier_call();
  call.root = 0;
  EXPECT_NE(rejection(call, nullptr).find("barrier has a root"), std::string::npos);
  call = barrier_call();
  call.reduction = Reduction::sum;
  EXPECT_NE(rejection(call, nullptr).find("barrier has reduction sum"), std::string::npos);
}

Call call_of_kind(CollectiveKind kind, std::uint64_t count, Reduction reduction,
                  std::optional<dag::Rank> root) {
  return Call{.kind = kind,
              .key = 7,
              .count = count,
              .dtype = DType::f32,
              .reduction = reduction,
              .root = root};
}

TEST(CheckCall, ReduceNeedsAReductionAndARootInRange) {
  float buffer[4] = {};
  EXPECT_EQ(rejection(call_of_kind(CollectiveKind::reduce, 4, Reduction::sum, 3), buffer), "");
  EXPECT_EQ(rejection(call_of_kind(CollectiveKind::reduce, 4, Reduction::sum, 4), buffer),
            "reduce of 4 x f32 (sum) from root 4 on 'grads', key 7: root 4 is not a rank of the "
            "communicator; expected a root from 0 to 3 (the communicator has 4 ranks)");
  EXPECT_NE(rejection(call_of_kind(CollectiveKind::reduce, 4, Reduction::sum, {}), buffer)
                .find("reduce has no root"),
            std::string::npos);
  EXPECT_NE(rejection(call_of_kind(CollectiveKind::reduce, 4, Reduction::none, 0), buffer)
                .find("reduce has reduction none; expected one of: sum, prod, min, max"),
            std::string::npos);
  EXPECT_NE(rejection(call_of_kind(CollectiveKind::reduce, 4, Reduction::sum, 0), nullptr)
                .find("the buffer is null but the count is 4"),
            std::string::npos);
}

TEST(CheckCall, ReduceScatterNeedsAReductionNoRootAndACountThatSplits) {
  float buffer[8] = {};
  EXPECT_EQ(rejection(call_of_kind(CollectiveKind::reduce_scatter, 8, Reduction::max, {}), buffer),
            "");
  EXPECT_EQ(rejection(call_of_kind(CollectiveKind::reduce_scatter, 6, Reduction::sum, {}), buffer),
            "reduce_scatter of 6 x f32 (sum) on 'grads', key 7: reduce_scatter of 6 elements does "
            "not split into blocks for the communicator's 4 ranks; expected a count that is a "
            "multiple of 4 (each rank's block is count / 4)");
  EXPECT_EQ(
      rejection(call_of_kind(CollectiveKind::reduce_scatter, 6, Reduction::sum, {}), buffer, 3),
      "");
  EXPECT_NE(rejection(call_of_kind(CollectiveKind::reduce_scatter, 8, Reduction::none, {}), buffer)
                .find("reduce_scatter has reduction none"),
            std::string::npos);
  EXPECT_NE(rejection(call_of_kind(CollectiveKind::reduce_scatter, 8, Reduction::sum, 0), buffer)
                .find("reduce_scatter has a root"),
            std::string::npos);
}

TEST(CheckCall, AllgatherTakesNoReductionNoRootAndACountThatSplits) {
  float buffer[8] = {};
  EXPECT_EQ(rejection(call_of_kind(CollectiveKind::allgather, 8, Reduction::none, {}), buffer), "");
  EXPECT_EQ(rejection(call_of_kind(CollectiveKind::allgather, 0, Reduction::none, {}), nullptr),
            "");
  EXPECT_NE(rejection(call_of_kind(CollectiveKind::allgather, 8, Reduction::sum, {}), buffer)
                .find("allgather has reduction sum"),
            std::string::npos);
  EXPECT_NE(rejection(call_of_kind(CollectiveKind::allgather, 8, Reduction::none, 1), buffer)
                .find("allgather has a root"),
            std::string::npos);
  EXPECT_NE(
      rejection(call_of_kind(CollectiveKind::allgather, 8, Reduction::none, {}), buffer, 3)
          .find(
              "allgather of 8 elements does not split into blocks for the communicator's 3 ranks"),
      std::string::npos);
}

// MPI-3.1 §5.5 and §5.6: a gather's and a scatter's root is a rank of the communicator; ordo's
// count is the root's whole buffer of one block per rank; neither reduces.
TEST(CheckCall, GatherAndScatterNeedARootAndACountThatSplits) {
  float buffer[8] = {};
  for (const CollectiveKind kind : {CollectiveKind::gather, CollectiveKind::scatter}) {
    const std::string name(dag::to_string(kind));
    EXPECT_EQ(rejection(call_of_kind(kind, 8, Reduction::none, 3), buffer), "") << name;
    EXPECT_NE(
        rejection(call_of_kind(kind, 8, Reduction::none, {}), buffer).find(name + " has no root"),
        std::string::npos);
    EXPECT_NE(rejection(call_of_kind(kind, 8, Reduction::none, 4), buffer)
                  .find("root 4 is not a rank of the communicator"),
              std::string::npos);
    EXPECT_NE(rejection(call_of_kind(kind, 8, Reduction::max, 0), buffer)
                  .find(name + " has reduction max"),
              std::string::npos);
    EXPECT_NE(rejection(call_of_kind(kind, 6, Reduction::none, 0), buffer)
                  .find(name + " of 6 elements does not split into blocks"),
              std::string::npos);
  }
}

// §5.8: an alltoall sends one block to every rank, reduces nothing and has no root.
TEST(CheckCall, AlltoallTakesNoReductionNoRootAndACountThatSplits) {
  float buffer[8] = {};
  EXPECT_EQ(rejection(call_of_kind(CollectiveKind::alltoall, 8, Reduction::none, {}), buffer), "");
  EXPECT_NE(rejection(call_of_kind(CollectiveKind::alltoall, 8, Reduction::none, 0), buffer)
                .find("alltoall has a root"),
            std::string::npos);
  EXPECT_NE(rejection(call_of_kind(CollectiveKind::alltoall, 7, Reduction::none, {}), buffer)
                .find("alltoall of 7 elements does not split into blocks"),
            std::string::npos);
}

// §5.11: a scan and an exscan reduce, with no root, any count.
TEST(CheckCall, ScansNeedAReductionAndNoRoot) {
  float buffer[7] = {};
  for (const CollectiveKind kind : {CollectiveKind::scan, CollectiveKind::exscan}) {
    const std::string name(dag::to_string(kind));
    EXPECT_EQ(rejection(call_of_kind(kind, 7, Reduction::sum, {}), buffer), "") << name;
    EXPECT_NE(rejection(call_of_kind(kind, 7, Reduction::none, {}), buffer)
                  .find(name + " has reduction none"),
              std::string::npos);
    EXPECT_NE(
        rejection(call_of_kind(kind, 7, Reduction::sum, 0), buffer).find(name + " has a root"),
        std::string::npos);
  }
}

TEST(CheckCall, NullBufferWithData) {
  EXPECT_NE(rejection(allreduce_call(), nullptr).find("the buffer is null but the count is 4"),
            std::string::npos);
  EXPECT_NE(rejection(bcast_call(0), nullptr).find("the buffer is null"), std::string::npos);
}

TEST(CheckCall, UnknownEnumValues) {
  float buffer[4] = {};
  Call call = allreduce_call();
  call.dtype = static_cast<DType>(42);
  EXPECT_NE(rejection(call, buffer).find("unknown dtype"), std::string::npos);
  call = allreduce_call();
  call.reduction = static_cast<Reduction>(42);
  EXPECT_NE(rejection(call, buffer).find("unknown reduction"), std::string::npos);
  call = allreduce_call();
  call.kind = static_cast<CollectiveKind>(42);
  EXPECT_NE(rejection(call, buffer).find("unknown collective kind"), std::string::npos);
}

}  // namespace
}  // namespace ordo::comm
