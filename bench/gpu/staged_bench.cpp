// The staged path on a GPU against what bounds it (scripts/gpu_figures.sh): an f32 sum
// allreduce of a device buffer through StagedCommunicator with the CUDA stager, 1 MiB to
// 256 MiB, against
//   copies:   the device-to-host and host-to-device copies of the same buffer alone, one after
//             the other through the same pinned memory (what staging costs with no MPI at all);
//   host MPI: the MPI allreduce of the same bytes in host memory (what it costs with no copies).
// Pipelining overlaps the two, so the staged time sits between max(copies, MPI) (perfect
// overlap) and copies + MPI (none); the last column places it. Run under mpirun (ranks may share
// a GPU); rank 0 prints a markdown table of the medians. `--chunk=BYTES` sets the chunk size
// (K or M suffixes allowed; default StagedOptions').
#include <cuda_runtime_api.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/designs/sync_timer.hpp"
#include "bench/gpu/sizes.hpp"
#include "runtime/comm/device/cuda_stager.hpp"
#include "runtime/comm/device/device_path_detection.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/comm/staged/staged_communicator.hpp"
#include "runtime/cuda/cuda_error.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/cuda/devices.hpp"
#include "runtime/cuda/stream.hpp"

namespace {

using namespace ordo;

constexpr std::uint32_t rounds = 7;  // a warm-up round, then the median of six

std::size_t parse_chunk(int argc, char** argv) {
  std::size_t chunk = comm::StagedOptions{}.chunk_bytes;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--chunk=", 0) != 0) {
      throw std::invalid_argument("unknown argument '" + arg + "'; expected --chunk=BYTES");
    }
    std::size_t end = 0;
    const std::string value = arg.substr(8);
    chunk = std::stoull(value, &end);
    const std::string unit = value.substr(end);
    if (unit == "K") chunk <<= 10;
    if (unit == "M") chunk <<= 20;
    if (!unit.empty() && unit != "K" && unit != "M") {
      throw std::invalid_argument("chunk '" + value + "': expected bytes with an optional K or M");
    }
  }
  return chunk;
}

void run(const comm::MpiRuntime& runtime, std::size_t chunk) {
  if (cuda::visible_devices() == 0) throw std::runtime_error("no GPU visible");
  const int gpu = comm::rank_device(runtime);
  cuda::check_cuda(cudaSetDevice(gpu), "cudaSetDevice");
  comm::MpiWorld mpi(runtime, {dag::Communicator{.name = "world", .members = std::nullopt}});
  comm::StagedCommunicator staged(mpi.comm(0), std::make_unique<comm::CudaStager>(gpu),
                                  comm::StagedOptions{chunk});
  cuda::Stream copy_stream;
  if (runtime.world_rank() == 0) {
    std::printf(
        "staged allreduce (f32 sum, chunks of %zu KiB) vs its copies and host MPI, %u "
        "ranks, %s\n\n",
        chunk >> 10, runtime.world_size(),
        cuda::describe_device(static_cast<std::uint32_t>(gpu)).c_str());
    std::printf(
        "| size | staged (ms) | copies D2H+H2D (ms) | host MPI (ms) | staged / copies | "
        "staged / host MPI | staged / max(copies, MPI) | staged / (copies + MPI) |\n"
        "|---|---|---|---|---|---|---|---|\n");
  }
  for (const std::uint64_t bytes : bench::gpu_sizes()) {
    cuda::DeviceBuffer buffer(bytes);
    cuda::check_cuda(cudaMemset(buffer.data(), 0, bytes), "cudaMemset");  // sums stay 0
    cuda::PinnedBuffer pinned(bytes);
    std::vector<float> host(bytes / sizeof(float), 0.0f);
    const std::uint64_t count = bytes / sizeof(float);
    const std::uint32_t reps = bench::repeats_for(bytes);
    const std::vector<double> medians = bench::medians_in_turn(
        {[&] {
           for (std::uint32_t i = 0; i < reps; ++i) {
             staged.allreduce(buffer.data(), count, dag::DType::f32, dag::Reduction::sum);
           }
         },
         [&] {
           for (std::uint32_t i = 0; i < reps; ++i) {
             cuda::copy_to_host(buffer, 0, pinned.data(), bytes, copy_stream);
             cuda::copy_to_device(pinned.data(), buffer, 0, bytes, copy_stream);
             copy_stream.synchronize();
           }
         },
         [&] {
           for (std::uint32_t i = 0; i < reps; ++i) {
             mpi.comm(0).allreduce(host.data(), count, dag::DType::f32, dag::Reduction::sum);
           }
         }},
        rounds);
    const double staged_ms = medians[0] / reps * 1e3;
    const double copies_ms = medians[1] / reps * 1e3;
    const double mpi_ms = medians[2] / reps * 1e3;
    if (runtime.world_rank() == 0) {
      std::printf("| %s | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f |\n",
                  bench::size_label(bytes).c_str(), staged_ms, copies_ms, mpi_ms,
                  staged_ms / copies_ms, staged_ms / mpi_ms,
                  staged_ms / std::max(copies_ms, mpi_ms), staged_ms / (copies_ms + mpi_ms));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::unique_ptr<comm::MpiRuntime> runtime;
  try {
    runtime = std::make_unique<comm::MpiRuntime>(&argc, &argv);
    run(*runtime, parse_chunk(argc, argv));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "ordo_staged_bench: %s\n", error.what());
    if (runtime != nullptr) runtime->abort(1);
    return 1;
  }
  return 0;
}
