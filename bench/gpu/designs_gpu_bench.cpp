// The KVStore designs on device gradients (scripts/gpu_figures.sh): funnel and depcha push and
// pull in place on vars in device memory (DeviceVarMemory), against the communicator alone on
// the same device buffers, for one key of 1 MiB to 256 MiB and for ResNet-50's 161 keys (pushed
// last first, as backward produces them). The ratio is raw time / design time: the design's speed
// as a fraction of the communicator's; issue 15's goal is at least 0.95.
//   --path=nccl (default): one rank per GPU; raw is ncclAllReduce on the NCCL communicator the
//     designs use, on a stream of its own, one stream synchronisation per step.
//   --path=staged: ranks may share a GPU (NCCL refuses that); raw is the staged communicator the
//     designs use, every key started in turn and then waited for.
// Every design's sums are checked once (rank + 1 on every rank) before it is timed. Run under
// mpirun; rank 0 prints markdown tables of the medians.
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/designs/sync_timer.hpp"
#include "bench/gpu/device_store.hpp"
#include "bench/gpu/sizes.hpp"
#include "runtime/comm/device/device_path_detection.hpp"
#include "runtime/comm/device/device_world.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/comm/nccl/error.hpp"
#include "runtime/comm/nccl/world.hpp"
#include "runtime/comm/staged/staged_communicator.hpp"
#include "runtime/cuda/cuda_error.hpp"
#include "runtime/cuda/devices.hpp"
#include "runtime/cuda/stream.hpp"
#include "runtime/networks/network.hpp"

namespace {

using namespace ordo;

constexpr std::uint32_t rounds = 11;  // a warm-up round, then the median of ten
const std::vector<designs::DesignKind> design_kinds = {designs::DesignKind::funnel,
                                                       designs::DesignKind::depcha};

enum class Path { nccl, staged };

Path parse_path(int argc, char** argv) {
  Path path = Path::nccl;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--path=nccl") {
      path = Path::nccl;
    } else if (arg == "--path=staged") {
      path = Path::staged;
    } else {
      throw std::invalid_argument("unknown argument '" + arg +
                                  "'; expected --path=nccl or --path=staged");
    }
  }
  return path;
}

// ResNet-50's parameters, one key each, in layer order.
std::vector<std::uint64_t> resnet50_counts() {
  std::vector<std::uint64_t> counts;
  for (const networks::Layer& layer : networks::resnet50(0.0).layers) {
    for (const networks::Param& p : layer.params) counts.push_back(p.count);
  }
  return counts;
}

// The communicator alone on a store's device buffers: one step's collectives, every key last
// first, waited for at the end.
using RawStep = std::function<void(bench::DeviceStore&)>;

// One row: raw, then each design, `reps` steps per timed sample; the sums checked first.
std::vector<double> time_row(comm::World& world, int gpu, const std::vector<std::uint64_t>& counts,
                             std::uint32_t reps, const RawStep& raw) {
  std::vector<std::unique_ptr<bench::DeviceStore>> stores;
  for (const designs::DesignKind kind : design_kinds) {
    stores.push_back(std::make_unique<bench::DeviceStore>(kind, world, gpu, counts));
    const std::uint64_t wrong = bench::sum_over_ranks(MPI_COMM_WORLD, stores.back()->wrong_sums());
    if (wrong != 0) {
      throw std::runtime_error(std::string(designs::to_string(kind)) + ": " +
                               std::to_string(wrong) + " elements summed wrongly");
    }
  }
  // Raw runs on the last design's buffers.
  bench::DeviceStore& buffers = *stores.back();
  std::vector<std::function<void()>> variants = {[&] {
    for (std::uint32_t i = 0; i < reps; ++i) raw(buffers);
  }};
  for (const auto& store : stores) {
    bench::DeviceStore* s = store.get();
    variants.emplace_back([s, reps] {
      for (std::uint32_t i = 0; i < reps; ++i) s->push_pull();
    });
  }
  std::vector<double> ms = bench::medians_in_turn(variants, rounds);
  for (double& m : ms) m = m / reps * 1e3;
  return ms;
}

std::string header(const std::string& first, const std::string& raw_name) {
  std::string h = "| " + first + " | " + raw_name + " (ms) |";
  std::string rule = "|---|---|";
  for (const designs::DesignKind kind : design_kinds) {
    h += " " + std::string(designs::to_string(kind)) + " (ms) |";
    rule += "---|";
  }
  for (const designs::DesignKind kind : design_kinds) {
    h += " raw / " + std::string(designs::to_string(kind)) + " |";
    rule += "---|";
  }
  return h + "\n" + rule + "\n";
}

void print_row(const std::string& first, const std::vector<double>& ms) {
  std::printf("| %s | %.3f |", first.c_str(), ms[0]);
  for (std::size_t d = 1; d < ms.size(); ++d) std::printf(" %.3f |", ms[d]);
  for (std::size_t d = 1; d < ms.size(); ++d) std::printf(" %.3f |", ms[0] / ms[d]);
  std::printf("\n");
  std::fflush(stdout);
}

void run(const comm::MpiRuntime& runtime, Path path) {
  const comm::DevicePathReport report = comm::detect_device_path(runtime);
  if (path == Path::nccl && report.inputs.ranks_on_node > report.inputs.visible_gpus) {
    throw std::invalid_argument(
        std::to_string(report.inputs.ranks_on_node) + " ranks on this node and " +
        std::to_string(report.inputs.visible_gpus) +
        " GPU(s): NCCL refuses two ranks on one GPU; run one rank per GPU, or --path=staged");
  }
  const int gpu = comm::rank_device(runtime);
  cuda::check_cuda(cudaSetDevice(gpu), "cudaSetDevice");
  comm::MpiWorld mpi(runtime, {dag::Communicator{.name = "world", .members = std::nullopt}});
  std::unique_ptr<comm::World> world;
  cuda::Stream raw_stream;
  RawStep raw;
  std::string raw_name;
  if (path == Path::nccl) {
    auto nccl = std::make_unique<comm::NcclWorld>(mpi, gpu);
    comm::NcclCommunicator& on_nccl = nccl->comm(0);
    raw = [&raw_stream, &on_nccl](bench::DeviceStore& s) {
      for (std::size_t k = s.keys(); k-- > 0;) {
        comm::check_nccl(ncclAllReduce(s.data(k), s.data(k), s.count(k), ncclFloat32, ncclSum,
                                       on_nccl.handle(), raw_stream.handle()),
                         "ncclAllReduce");
      }
      raw_stream.synchronize();
    };
    raw_name = "raw NCCL";
    world = std::move(nccl);
  } else {
    world = comm::make_device_world(comm::DevicePath::staged, runtime, mpi,
                                    comm::DeviceWorldOptions{gpu, comm::StagedOptions{}});
    comm::Communicator& staged = world->comm(0);
    raw = [&staged](bench::DeviceStore& s) {
      std::vector<std::unique_ptr<comm::Request>> in_flight;
      for (std::size_t k = s.keys(); k-- > 0;) {
        in_flight.push_back(
            staged.start(comm::Call{dag::CollectiveKind::allreduce, static_cast<std::int64_t>(k),
                                    s.count(k), dag::DType::f32, dag::Reduction::sum, std::nullopt},
                         s.data(k)));
      }
      for (const auto& request : in_flight) request->wait();
    };
    raw_name = "staged alone";
  }
  const bool printer = runtime.world_rank() == 0;
  if (printer) {
    std::printf(
        "KVStore designs on device gradients over %s, f32 sum in place, %u rank(s), %s\n"
        "raw / design: the design's speed as a fraction of the communicator alone's (goal: at "
        "least 0.95)\n\n",
        path == Path::nccl ? "NCCL" : "the staged path (chunks of 4 MiB)", runtime.world_size(),
        cuda::describe_device(static_cast<std::uint32_t>(gpu)).c_str());
    std::printf("One key, push and pull:\n\n%s", header("size", raw_name).c_str());
  }
  for (const std::uint64_t bytes : bench::gpu_sizes()) {
    const std::vector<double> ms =
        time_row(*world, gpu, {bytes / sizeof(float)}, bench::repeats_for(bytes), raw);
    if (printer) print_row(bench::size_label(bytes), ms);
  }
  const std::vector<std::uint64_t> counts = resnet50_counts();
  std::uint64_t elements = 0;
  for (const std::uint64_t c : counts) elements += c;
  const std::vector<double> ms = time_row(*world, gpu, counts, 1, raw);
  if (printer) {
    std::printf("\nResNet-50's keys, one step: each pushed (last first) and pulled:\n\n%s",
                header("keys", raw_name).c_str());
    print_row(std::to_string(counts.size()) + " keys, " +
                  std::to_string(elements * sizeof(float) >> 20) + " MiB",
              ms);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::unique_ptr<comm::MpiRuntime> runtime;
  try {
    runtime = std::make_unique<comm::MpiRuntime>(&argc, &argv);
    // A bad argument and a machine without a GPU are the same on every rank, so every rank
    // refuses alike and MPI ends normally.
    Path path = Path::nccl;
    try {
      path = parse_path(argc, argv);
    } catch (const std::invalid_argument& error) {
      if (runtime->world_rank() == 0)
        std::fprintf(stderr, "ordo_designs_gpu_bench: %s\n", error.what());
      return 2;
    }
    if (cuda::visible_devices() == 0) {
      if (runtime->world_rank() == 0) {
        std::fprintf(stderr,
                     "ordo_designs_gpu_bench: no GPU visible; it times the designs on device "
                     "memory and needs a machine with one (scripts/gpu_figures.sh)\n");
      }
      return 1;
    }
    run(*runtime, path);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "ordo_designs_gpu_bench: %s\n", error.what());
    if (runtime != nullptr) runtime->abort(1);
    return 1;
  }
  return 0;
}
