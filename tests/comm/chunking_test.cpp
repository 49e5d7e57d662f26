// Collectives split into several MPI calls: a world with a small chunk size exercises the same
// path that counts above INT_MAX take, without allocating gigabytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_env.hpp"
#include "runtime/comm/mpi/limits.hpp"
#include "values.hpp"

namespace ordo::comm::test {
namespace {

using dag::CollectiveKind;
using dag::DType;
using dag::Reduction;

// Not a divisor of the test values' period or of the counts below, so a chunk written to the
// wrong offset shows up as wrong values.
constexpr std::uint64_t chunk_elements = 1000;

MpiWorld chunked_world() {
  return MpiWorld(runtime(), {dag::Communicator{.name = "chunked", .members = std::nullopt}},
                  MpiWorldOptions{.chunk_elements_max = chunk_elements});
}

Call allreduce_call(std::uint64_t count, DType dtype, Reduction reduction) {
  return Call{.kind = CollectiveKind::allreduce,
              .key = 5,
              .count = count,
              .dtype = dtype,
              .reduction = reduction,
              .root = std::nullopt};
}

TEST(Chunking, BlockingAllreduceAcrossChunks) {
  MpiWorld chunked = chunked_world();
  for (const auto& [dtype, reduction] :
       {std::pair{DType::f32, Reduction::sum}, std::pair{DType::f16, Reduction::max},
        std::pair{DType::i64, Reduction::prod}}) {
    constexpr std::uint64_t count = 4 * chunk_elements + 96;
    std::vector<std::byte> buffer = contribution(dtype, reduction, count, world().rank());
    chunked.comm(0).allreduce(buffer.data(), count, dtype, reduction);
    EXPECT_EQ(mismatch_report(buffer, reduced(dtype, reduction, count, world().size()), dtype,
                              "chunked allreduce"),
              "");
  }
}

TEST(Chunking, BlockingBcastAcrossChunks) {
  MpiWorld chunked = chunked_world();
  constexpr std::uint64_t count = 2 * chunk_elements + 500;
  const dag::Rank root = world().size() - 1;
  const std::vector<std::byte> sent = contribution(DType::i64, Reduction::sum, count, root);
  std::vector<std::byte> buffer =
      world().rank() == root ? sent : std::vector<std::byte>(sent.size(), std::byte{0});
  chunked.comm(0).bcast(buffer.data(), count, DType::i64, root);
  EXPECT_EQ(mismatch_report(buffer, sent, DType::i64, "chunked bcast"), "");
}

TEST(Chunking, NonblockingAllreduceKeepsOneRequestPerChunk) {
  MpiWorld chunked = chunked_world();
  constexpr std::uint64_t count = 5 * chunk_elements;
  std::vector<std::byte> buffer = contribution(DType::bf16, Reduction::sum, count, world().rank());
  chunked.comm(0).start(allreduce_call(count, DType::bf16, Reduction::sum), buffer.data())->wait();
  EXPECT_EQ(mismatch_report(buffer, reduced(DType::bf16, Reduction::sum, count, world().size()),
                            DType::bf16, "chunked iallreduce"),
            "");
}

TEST(Chunking, NonblockingRejectsMoreChunksThanTheBound) {
  MpiWorld chunked = chunked_world();
  constexpr std::uint64_t count = (limits::mpi_requests_per_start_max + 1) * chunk_elements;
  std::vector<float> buffer(count, 1.0f);
  try {
    chunked.comm(0).start(allreduce_call(count, DType::f32, Reduction::sum), buffer.data());
    ADD_FAILURE() << "a non-blocking call beyond the chunk bound was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("at most 64 chunks of 1000 elements"),
              std::string::npos)
        << error.what();
  }
  // The blocking form takes the same call.
  chunked.comm(0).allreduce(buffer.data(), count, DType::f32, Reduction::sum);
  EXPECT_EQ(buffer.back(), static_cast<float>(world().size()));
}

}  // namespace
}  // namespace ordo::comm::test
