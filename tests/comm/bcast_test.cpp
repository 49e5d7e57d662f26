// Blocking bcast from every root, for every dtype: every rank ends with the root's bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mpi_env.hpp"
#include "runtime/dag/names.hpp"
#include "values.hpp"

namespace ordo::comm::test {
namespace {

using dag::DType;
using dag::Reduction;

// Non-roots start from a pattern the root never sends, so a bcast that moved nothing fails.
constexpr std::byte stale_byte{0xA5};

void expect_bcast(Communicator& comm, DType dtype, std::uint64_t count, dag::Rank root) {
  const std::vector<std::byte> sent = contribution(dtype, Reduction::sum, count, root + 1);
  std::vector<std::byte> buffer =
      comm.rank() == root ? sent : std::vector<std::byte>(sent.size(), stale_byte);
  comm.bcast(buffer.data(), count, dtype, root, /*key=*/2);
  EXPECT_EQ(mismatch_report(buffer, sent, dtype,
                            "bcast of " + std::to_string(count) + " x " +
                                std::string(dag::to_string(dtype)) + " from root " +
                                std::to_string(root)),
            "");
}

std::string param_name(const ::testing::TestParamInfo<DType>& param) {
  return std::string(dag::to_string(param.param));
}

class BcastTest : public ::testing::TestWithParam<DType> {};

TEST_P(BcastTest, FromEveryRoot) {
  Communicator& comm = world_comm();
  for (dag::Rank root = 0; root < comm.size(); ++root) {
    expect_bcast(comm, GetParam(), 1, root);
    expect_bcast(comm, GetParam(), 1023, root);
    expect_bcast(comm, GetParam(), (1u << 20) / dag::dtype_bytes(GetParam()), root);
  }
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, BcastTest,
                         ::testing::Values(DType::f32, DType::f64, DType::f16, DType::bf16,
                                           DType::i8, DType::u8, DType::i32, DType::i64),
                         param_name);

TEST(Bcast, ZeroElements) {
  world_comm().bcast(nullptr, 0, DType::f64, world().size() - 1);
  expect_bcast(world_comm(), DType::i32, 5, 0);
}

}  // namespace
}  // namespace ordo::comm::test
