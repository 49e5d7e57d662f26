// Blocking allreduce for every dtype and reduction at several sizes: every rank must end with the
// bytes computed locally from all ranks' contributions.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "mpi_env.hpp"
#include "runtime/dag/names.hpp"
#include "values.hpp"

namespace ordo::comm::test {
namespace {

using dag::DType;
using dag::Reduction;

// Sizes in bytes, as the elements of a gradient would be laid out: one element, an odd count that
// no algorithm's segment size divides, 4 KiB, 1 MiB.
enum class Size { one, odd, kib4, mib1 };

std::uint64_t element_count(Size size, DType dtype) {
  switch (size) {
    case Size::one: return 1;
    case Size::odd: return 1023;
    case Size::kib4: return 4096 / dag::dtype_bytes(dtype);
    case Size::mib1: return (1u << 20) / dag::dtype_bytes(dtype);
  }
  return 0;
}

std::string size_name(Size size) {
  switch (size) {
    case Size::one: return "1elem";
    case Size::odd: return "1023elem";
    case Size::kib4: return "4KiB";
    case Size::mib1: return "1MiB";
  }
  return "?";
}

void expect_allreduce(Communicator& comm, DType dtype, Reduction reduction, std::uint64_t count) {
  std::vector<std::byte> buffer = contribution(dtype, reduction, count, world().rank());
  comm.allreduce(buffer.data(), count, dtype, reduction, /*key=*/1);
  const std::string what = std::string(dag::to_string(dtype)) + " " +
                           std::string(dag::to_string(reduction)) + " of " + std::to_string(count) +
                           " elements";
  EXPECT_EQ(mismatch_report(buffer, reduced(dtype, reduction, count, world().size()), dtype, what),
            "");
}

class AllreduceTest : public ::testing::TestWithParam<std::tuple<DType, Reduction, Size>> {};

TEST_P(AllreduceTest, EveryRankGetsTheExactReduction) {
  const auto [dtype, reduction, size] = GetParam();
  expect_allreduce(world_comm(), dtype, reduction, element_count(size, dtype));
}

std::string param_name(const ::testing::TestParamInfo<AllreduceTest::ParamType>& param) {
  const auto [dtype, reduction, size] = param.param;
  return std::string(dag::to_string(dtype)) + "_" + std::string(dag::to_string(reduction)) + "_" +
         size_name(size);
}

INSTANTIATE_TEST_SUITE_P(
    AllDTypes, AllreduceTest,
    ::testing::Combine(::testing::Values(DType::f32, DType::f64, DType::f16, DType::bf16, DType::i8,
                                         DType::u8, DType::i32, DType::i64),
                       ::testing::Values(Reduction::sum, Reduction::prod, Reduction::min,
                                         Reduction::max),
                       ::testing::Values(Size::one, Size::odd, Size::kib4, Size::mib1)),
    param_name);

TEST(Allreduce, SixtyFourMebibytesOfF32) {
  expect_allreduce(world_comm(), DType::f32, Reduction::sum, (64u << 20) / 4);
}

TEST(Allreduce, ZeroElementsIsAValidCollective) {
  world_comm().allreduce(nullptr, 0, DType::f32, Reduction::sum);
  // The communicator is still in step on every rank afterwards.
  expect_allreduce(world_comm(), DType::i32, Reduction::sum, 7);
}

TEST(Allreduce, SuccessiveCallsMatchInIssueOrder) {
  // Different sizes and dtypes back to back: a mismatch between ranks would corrupt or hang.
  for (const std::uint64_t count : {3u, 4096u, 1u, 1000u}) {
    expect_allreduce(world_comm(), DType::f64, Reduction::max, count);
    expect_allreduce(world_comm(), DType::bf16, Reduction::sum, count);
  }
}

}  // namespace
}  // namespace ordo::comm::test
