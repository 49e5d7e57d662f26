// The KVStore designs against raw MPI on the ranks this program is launched with (mpirun -np 2,
// -np 4): first one key's push and pull per design against MPI_Allreduce of the same bytes, then
// whole training steps whose compute and communication take comparable time, against the lower
// bound max(compute, communication). Rank 0 prints markdown tables. Results and the commands
// that produced them: docs/benchmarks.md.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>

#include "bench/designs/one_key.hpp"
#include "bench/designs/overlap.hpp"
#include "runtime/comm/mpi/runtime.hpp"

namespace {

constexpr std::uint32_t overlap_rounds = 12;  // one warm-up round, then the median of eleven

const std::vector<std::uint64_t> one_key_sizes = {4u << 10, 64u << 10, 1u << 20, 16u << 20,
                                                  64u << 20};

void run(const ordo::comm::MpiRuntime& runtime) {
  const bool printer = runtime.world_rank() == 0;
  if (printer) {
    std::printf("# KVStore designs vs raw MPI_Allreduce, %u ranks\n\n", runtime.world_size());
    std::printf("## One key: push + pull (wait for all) vs MPI_Allreduce(MPI_IN_PLACE)\n\n");
    std::printf(
        "Median over timed iterations of the slowest rank, after a barrier; in brackets "
        "the ratio raw time / variant time.\n\n");
    std::fflush(stdout);
  }
  const std::vector<ordo::bench::OneKeyRow> rows = ordo::bench::run_one_key(runtime, one_key_sizes);
  if (printer) {
    ordo::bench::print_one_key(stdout, rows);
    std::printf(
        "\n## Steps: compute and communication overlapped (%u rounds of every variant in "
        "turn; median of the rounds after the first, slowest rank)\n\n",
        overlap_rounds);
    std::fflush(stdout);
  }
  for (const ordo::bench::Workload& w : ordo::bench::overlap_workloads()) {
    const ordo::bench::OverlapResult result = ordo::bench::run_overlap(runtime, w, overlap_rounds);
    if (printer) {
      ordo::bench::print_overlap(stdout, result);
      std::printf("\n");
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::unique_ptr<ordo::comm::MpiRuntime> runtime;
  try {
    runtime = std::make_unique<ordo::comm::MpiRuntime>(&argc, &argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cannot start MPI: %s\n", error.what());
    return 1;
  }
  try {
    run(*runtime);
  } catch (const std::exception& error) {
    // The other ranks are left in a collective this rank abandoned; end the whole job.
    std::fprintf(stderr, "[rank %u] %s\n", runtime->world_rank(), error.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 0;
}
