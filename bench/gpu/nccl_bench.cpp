// ordo's NCCL communicator against raw NCCL (scripts/gpu_figures.sh): the same in-place f32 sum
// allreduce on the same device buffer and NCCL communicator, once through
// NcclCommunicator::call (the launch under the stream's lock, an event, a blocking-sync wait) and
// once as ncclAllReduce plus cudaStreamSynchronize, 1 MiB to 256 MiB. Run under mpirun with one
// rank per GPU; rank 0 prints a markdown table of the medians and their ratio.
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>

#include "bench/designs/sync_timer.hpp"
#include "bench/gpu/sizes.hpp"
#include "runtime/comm/device/device_path_detection.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/comm/nccl/error.hpp"
#include "runtime/comm/nccl/world.hpp"
#include "runtime/cuda/cuda_error.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/cuda/devices.hpp"
#include "runtime/cuda/stream.hpp"

namespace {

using namespace ordo;

constexpr std::uint32_t rounds = 11;  // a warm-up round, then the median of ten

void run(const comm::MpiRuntime& runtime) {
  if (cuda::visible_devices() == 0) throw std::runtime_error("no GPU visible");
  const int gpu = comm::rank_device(runtime);
  cuda::check_cuda(cudaSetDevice(gpu), "cudaSetDevice");
  comm::MpiWorld mpi(runtime, {dag::Communicator{.name = "world", .members = std::nullopt}});
  comm::NcclWorld nccl(mpi, gpu);
  comm::NcclCommunicator& ordo_comm = nccl.comm(0);
  cuda::Stream raw_stream;
  if (runtime.world_rank() == 0) {
    std::printf("ordo NCCL allreduce vs raw ncclAllReduce, f32 sum in place, %u rank(s), %s\n\n",
                runtime.world_size(),
                cuda::describe_device(static_cast<std::uint32_t>(gpu)).c_str());
    std::printf("| size | ordo (ms) | raw NCCL (ms) | ordo / raw |\n|---|---|---|---|\n");
  }
  for (const std::uint64_t bytes : bench::gpu_sizes()) {
    cuda::DeviceBuffer buffer(bytes);
    cuda::check_cuda(cudaMemset(buffer.data(), 0, bytes), "cudaMemset");  // sums stay 0
    const std::uint64_t count = bytes / sizeof(float);
    const std::uint32_t reps = bench::repeats_for(bytes);
    const std::vector<double> medians = bench::medians_in_turn(
        {[&] {
           for (std::uint32_t i = 0; i < reps; ++i) {
             ordo_comm.allreduce(buffer.data(), count, dag::DType::f32, dag::Reduction::sum);
           }
         },
         [&] {
           for (std::uint32_t i = 0; i < reps; ++i) {
             comm::check_nccl(ncclAllReduce(buffer.data(), buffer.data(), count, ncclFloat32,
                                            ncclSum, ordo_comm.handle(), raw_stream.handle()),
                              "ncclAllReduce");
             raw_stream.synchronize();
           }
         }},
        rounds);
    const double ordo_ms = medians[0] / reps * 1e3;
    const double raw_ms = medians[1] / reps * 1e3;
    if (runtime.world_rank() == 0) {
      std::printf("| %s | %.3f | %.3f | %.3f |\n", bench::size_label(bytes).c_str(), ordo_ms,
                  raw_ms, ordo_ms / raw_ms);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::unique_ptr<comm::MpiRuntime> runtime;
  try {
    runtime = std::make_unique<comm::MpiRuntime>(&argc, &argv);
    run(*runtime);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "ordo_nccl_bench: %s\n", error.what());
    if (runtime != nullptr) runtime->abort(1);
    return 1;
  }
  return 0;
}
