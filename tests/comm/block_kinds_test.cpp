// MPI_Gather, MPI_Scatter, MPI_Alltoall, MPI_Scan and MPI_Exscan and their non-blocking forms
// through the Open MPI backend, in ordo's in-place convention (docs/dag-format.md, "The buffer of a
// collective"), byte for byte against results computed locally from every rank's contribution.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "call_cases.hpp"
#include "mpi_env.hpp"
#include "runtime/dag/names.hpp"
#include "values.hpp"

namespace ordo::comm::test {
namespace {

using dag::CollectiveKind;
using dag::DType;
using dag::Reduction;

// Writes block `to` of `into` from block `from` of `source`.
void put_block(std::vector<std::byte>& into, std::uint64_t to, const std::vector<std::byte>& source,
               std::uint64_t from, std::uint64_t block_bytes) {
  std::copy_n(source.begin() + static_cast<std::ptrdiff_t>(from * block_bytes), block_bytes,
              into.begin() + static_cast<std::ptrdiff_t>(to * block_bytes));
}

class BlockKinds : public ::testing::TestWithParam<bool> {};

TEST_P(BlockKinds, GatherFillsTheRootsBlocksFromTheirRanks) {
  Communicator& comm = world_comm();
  constexpr std::uint64_t block = 1021;
  const std::uint64_t count = block * comm.size();
  for (const Case c : cases) {
    const std::uint64_t block_bytes = block * dag::dtype_bytes(c.dtype);
    for (dag::Rank root = 0; root < comm.size(); ++root) {
      const Call call = make_call(CollectiveKind::gather, count, c, root);
      const std::vector<std::byte> mine = contribution(c.dtype, c.reduction, count, comm.rank());
      std::vector<std::byte> expected = mine;
      if (comm.rank() == root) {
        for (dag::Rank r = 0; r < comm.size(); ++r) {
          put_block(expected, r, contribution(c.dtype, c.reduction, count, r), r, block_bytes);
        }
      }
      std::vector<std::byte> buffer = mine;
      run(comm, call, buffer, GetParam());
      EXPECT_EQ(mismatch_report(buffer, expected, c.dtype, what(call, GetParam())), "");
    }
  }
}

TEST_P(BlockKinds, ScatterGivesEachRankItsBlockOfTheRoots) {
  Communicator& comm = world_comm();
  constexpr std::uint64_t block = 1021;
  const std::uint64_t count = block * comm.size();
  for (const Case c : cases) {
    const std::uint64_t block_bytes = block * dag::dtype_bytes(c.dtype);
    for (dag::Rank root = 0; root < comm.size(); ++root) {
      const Call call = make_call(CollectiveKind::scatter, count, c, root);
      const std::vector<std::byte> mine = contribution(c.dtype, c.reduction, count, comm.rank());
      std::vector<std::byte> expected = mine;
      put_block(expected, comm.rank(), contribution(c.dtype, c.reduction, count, root), comm.rank(),
                block_bytes);
      std::vector<std::byte> buffer = mine;
      run(comm, call, buffer, GetParam());
      EXPECT_EQ(mismatch_report(buffer, expected, c.dtype, what(call, GetParam())), "");
    }
  }
}

TEST_P(BlockKinds, AlltoallSwapsBlocksBetweenRanks) {
  Communicator& comm = world_comm();
  constexpr std::uint64_t block = 1021;
  const std::uint64_t count = block * comm.size();
  for (const Case c : cases) {
    const std::uint64_t block_bytes = block * dag::dtype_bytes(c.dtype);
    const Call call = make_call(CollectiveKind::alltoall, count, c, std::nullopt);
    std::vector<std::byte> expected(count * dag::dtype_bytes(c.dtype));
    for (dag::Rank r = 0; r < comm.size(); ++r) {
      put_block(expected, r, contribution(c.dtype, c.reduction, count, r), comm.rank(),
                block_bytes);
    }
    std::vector<std::byte> buffer = contribution(c.dtype, c.reduction, count, comm.rank());
    run(comm, call, buffer, GetParam());
    EXPECT_EQ(mismatch_report(buffer, expected, c.dtype, what(call, GetParam())), "");
  }
}

TEST_P(BlockKinds, ScanAndExscanHoldThePrefixOfTheRanksBefore) {
  Communicator& comm = world_comm();
  constexpr std::uint64_t count = 1023;
  for (const Case c : cases) {
    const Call scan = make_call(CollectiveKind::scan, count, c, std::nullopt);
    std::vector<std::byte> buffer = contribution(c.dtype, c.reduction, count, comm.rank());
    run(comm, scan, buffer, GetParam());
    EXPECT_EQ(mismatch_report(buffer, reduced(c.dtype, c.reduction, count, comm.rank() + 1),
                              c.dtype, what(scan, GetParam())),
              "");
    const Call exscan = make_call(CollectiveKind::exscan, count, c, std::nullopt);
    buffer = contribution(c.dtype, c.reduction, count, comm.rank());
    run(comm, exscan, buffer, GetParam());
    // Rank 0's buffer is undefined after MPI_Exscan (MPI-3.1 section 5.11.2): not compared.
    if (comm.rank() > 0) {
      EXPECT_EQ(mismatch_report(buffer, reduced(c.dtype, c.reduction, count, comm.rank()), c.dtype,
                                what(exscan, GetParam())),
                "");
    }
  }
}

std::string form_name(const ::testing::TestParamInfo<bool>& param) {
  return param.param ? "Blocking" : "NonBlocking";
}

INSTANTIATE_TEST_SUITE_P(Forms, BlockKinds, ::testing::Bool(), form_name);

// A scan is element by element, so it is chunked like an allreduce.
TEST(BlockKindsChunks, ScanAcrossChunks) {
  MpiWorld chunked(runtime(), {dag::Communicator{.name = "chunked", .members = std::nullopt}},
                   MpiWorldOptions{.chunk_elements_max = 1000});
  Communicator& comm = chunked.comm(0);
  constexpr std::uint64_t count = 4 * 1000 + 96;
  const Case c{DType::f32, Reduction::sum};
  std::vector<std::byte> buffer = contribution(c.dtype, c.reduction, count, comm.rank());
  comm.call(make_call(CollectiveKind::scan, count, c, std::nullopt), buffer.data());
  EXPECT_EQ(mismatch_report(buffer, reduced(c.dtype, c.reduction, count, comm.rank() + 1), c.dtype,
                            "chunked scan"),
            "");
}

}  // namespace
}  // namespace ordo::comm::test
