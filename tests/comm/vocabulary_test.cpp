// MPI_Reduce, MPI_Reduce_scatter_block and MPI_Allgather and their non-blocking forms through the
// Open MPI backend, in place with ordo's buffer convention (docs/comm.md, "The collectives"): the
// whole `count` elements in one buffer, rank i's block at element i * count / size.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
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

// Blocks the collective has not written yet start from a pattern no contribution holds.
constexpr std::byte stale_byte{0xA5};

// Elements [first, first + n) of a buffer of `dtype` elements.
std::vector<std::byte> slice(const std::vector<std::byte>& whole, DType dtype, std::uint64_t first,
                             std::uint64_t n) {
  const std::uint64_t bytes = dag::dtype_bytes(dtype);
  return {whole.begin() + static_cast<std::ptrdiff_t>(first * bytes),
          whole.begin() + static_cast<std::ptrdiff_t>((first + n) * bytes)};
}

class Vocabulary : public ::testing::TestWithParam<bool> {};

TEST_P(Vocabulary, ReduceFromEveryRootReachesTheRootOnly) {
  Communicator& comm = world_comm();
  constexpr std::uint64_t count = 1023;
  for (const Case c : cases) {
    for (dag::Rank root = 0; root < comm.size(); ++root) {
      const Call call = make_call(CollectiveKind::reduce, count, c, root);
      const std::vector<std::byte> mine = contribution(c.dtype, c.reduction, count, comm.rank());
      std::vector<std::byte> buffer = mine;
      run(comm, call, buffer, GetParam());
      const std::vector<std::byte> expected =
          comm.rank() == root ? reduced(c.dtype, c.reduction, count, comm.size()) : mine;
      EXPECT_EQ(mismatch_report(buffer, expected, c.dtype, what(call, GetParam())), "");
    }
  }
}

TEST_P(Vocabulary, ReduceScatterLeavesTheRanksBlockOfTheReductionAtItsOffset) {
  Communicator& comm = world_comm();
  constexpr std::uint64_t block = 1021;
  const std::uint64_t count = block * comm.size();
  for (const Case c : cases) {
    const Call call = make_call(CollectiveKind::reduce_scatter, count, c, std::nullopt);
    std::vector<std::byte> buffer = contribution(c.dtype, c.reduction, count, comm.rank());
    run(comm, call, buffer, GetParam());
    const std::uint64_t mine = comm.rank() * block;
    EXPECT_EQ(mismatch_report(
                  slice(buffer, c.dtype, mine, block),
                  slice(reduced(c.dtype, c.reduction, count, comm.size()), c.dtype, mine, block),
                  c.dtype, what(call, GetParam())),
              "");
  }
}

TEST_P(Vocabulary, AllgatherFillsEveryBlockFromItsRank) {
  Communicator& comm = world_comm();
  constexpr std::uint64_t block = 1021;
  const std::uint64_t count = block * comm.size();
  for (const Case c : cases) {
    const Call call = make_call(CollectiveKind::allgather, count, c, std::nullopt);
    const std::uint64_t bytes = dag::dtype_bytes(c.dtype);
    // Block r of the result is block r of rank r's contribution.
    std::vector<std::byte> expected;
    for (dag::Rank r = 0; r < comm.size(); ++r) {
      const std::vector<std::byte> part =
          slice(contribution(c.dtype, c.reduction, count, r), c.dtype, r * block, block);
      expected.insert(expected.end(), part.begin(), part.end());
    }
    std::vector<std::byte> buffer(count * bytes, stale_byte);
    const std::uint64_t mine = comm.rank() * block;
    std::copy_n(expected.begin() + static_cast<std::ptrdiff_t>(mine * bytes), block * bytes,
                buffer.begin() + static_cast<std::ptrdiff_t>(mine * bytes));
    run(comm, call, buffer, GetParam());
    EXPECT_EQ(mismatch_report(buffer, expected, c.dtype, what(call, GetParam())), "");
  }
}

TEST_P(Vocabulary, ZeroElements) {
  Communicator& comm = world_comm();
  const Case c{DType::f64, Reduction::min};
  std::vector<std::byte> empty;
  for (const CollectiveKind kind :
       {CollectiveKind::reduce, CollectiveKind::reduce_scatter, CollectiveKind::allgather}) {
    const std::optional<dag::Rank> root =
        dag::takes_root(kind) ? std::optional<dag::Rank>(comm.size() - 1) : std::nullopt;
    run(comm, make_call(kind, 0, c, root), empty, GetParam());
  }
}

std::string form_name(const ::testing::TestParamInfo<bool>& param) {
  return param.param ? "Blocking" : "NonBlocking";
}

INSTANTIATE_TEST_SUITE_P(Forms, Vocabulary, ::testing::Bool(), form_name);

// Chunked like an allreduce: a small chunk size takes the path counts above INT_MAX take.
MpiWorld chunked_world(std::uint64_t chunk_elements) {
  return MpiWorld(runtime(), {dag::Communicator{.name = "chunked", .members = std::nullopt}},
                  MpiWorldOptions{.chunk_elements_max = chunk_elements});
}

TEST(VocabularyChunks, ReduceAcrossChunks) {
  MpiWorld chunked = chunked_world(1000);
  Communicator& comm = chunked.comm(0);
  constexpr std::uint64_t count = 4 * 1000 + 96;
  const Case c{DType::f32, Reduction::sum};
  const dag::Rank root = comm.size() - 1;
  const std::vector<std::byte> mine = contribution(c.dtype, c.reduction, count, comm.rank());
  std::vector<std::byte> buffer = mine;
  comm.reduce(buffer.data(), count, c.dtype, c.reduction, root);
  const std::vector<std::byte> expected =
      comm.rank() == root ? reduced(c.dtype, c.reduction, count, comm.size()) : mine;
  EXPECT_EQ(mismatch_report(buffer, expected, c.dtype, "chunked reduce"), "");
}

// A block is one MPI call: one above the chunk size is refused on every rank alike, before MPI.
TEST(VocabularyChunks, ABlockAboveTheChunkSizeIsRefused) {
  MpiWorld chunked = chunked_world(1000);
  Communicator& comm = chunked.comm(0);
  const std::uint64_t count = 1001 * comm.size();
  std::vector<float> buffer(count);
  try {
    comm.allgather(buffer.data(), count, DType::f32);
    FAIL() << "an allgather of 1001-element blocks ran with 1000-element MPI calls";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("each rank's block of 1001 elements exceeds"),
              std::string::npos)
        << e.what();
  }
  comm.barrier();  // the communicator still works: nothing was issued
}

}  // namespace
}  // namespace ordo::comm::test
