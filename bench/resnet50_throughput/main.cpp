// ResNet-50 training throughput on synthetic images at one rank: images/s through ordo's trainer
// (train_rank: the step program on the engine, depcha on a world of one, the data pool, and on a
// GPU the vars in GPU memory and the compute ops device ops, as ordo train runs them; or with
// --comm-path host the gradients staged through host buffers) against the same model's layers
// in a plain loop, and the ratio. The two alternate within each round, so that a busier spell of
// a shared machine falls on both; the median of the rounds' ratios is the figure. On the CPU use
// a small batch and image; on a GPU, --device cuda (docs/gpu.md).
//
//   ordo_resnet50_throughput_bench --device cuda --batch 64 --steps 30
//   ordo_resnet50_throughput_bench --batch 2 --image-size 64 --steps 3 --warmup 1 --rounds 1
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/resnet50_throughput/throughput_run.hpp"
#include "runtime/networks/catalog.hpp"
#include "runtime/train/compute_threads.hpp"
#include "runtime/train/training_device.hpp"

int main(int argc, char** argv) {
  using namespace ordo;
  CLI::App app("ResNet-50 images/s: ordo's trainer at one rank against a plain libtorch loop");
  std::string device_name = "cpu";
  bench::ThroughputRun run;
  std::uint32_t image_size = 224;
  std::uint32_t rounds = 3;
  std::uint32_t threads = 0;
  app.add_option("--device", device_name, "cpu or cuda")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->capture_default_str();
  app.add_option("--batch", run.batch, "images per step")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  app.add_option("--image-size", image_size, "the side of the square images")
      ->check(CLI::Range(32, 512))
      ->capture_default_str();
  app.add_option("--steps", run.steps, "steps timed")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--warmup", run.warmup, "steps before the timed ones")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--rounds", rounds, "rounds of both")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  app.add_option("--threads", threads, "CPU tensor-math threads (0: libtorch's choice)");
  app.add_option("--comm-path", run.comm_path,
                 "on a GPU, the trainer's --comm-path: auto (vars in GPU memory) or host")
      ->check(CLI::IsMember({"auto", "nccl", "cuda-aware", "staged", "host"}))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const c10::DeviceType type = *train::parse_device_type(device_name);
  if (const std::optional<std::string> why = train::device_unusable(type)) {
    std::fprintf(stderr, "ordo_resnet50_throughput_bench: error: %s\n", why->c_str());
    return 2;
  }
  if (threads != 0) train::set_compute_threads(threads);
  run.device = train::training_device(type, 0);
  // MPI at one rank (no mpirun needed) carries the device path's world, as in ordo train.
  std::unique_ptr<comm::MpiRuntime> mpi;
  if (!run.device.is_cpu()) {
    try {
      mpi = std::make_unique<comm::MpiRuntime>(&argc, &argv);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ordo_resnet50_throughput_bench: error: cannot start MPI: %s\n",
                   e.what());
      return 1;
    }
    run.mpi = mpi.get();
  }
  const std::optional<networks::Network> net =
      networks::builtin_network("resnet50", 4, {3, image_size, image_size}, run.classes);
  if (!net) {
    std::fprintf(stderr, "ordo_resnet50_throughput_bench: error: no ResNet-50 for %ux%u images\n",
                 image_size, image_size);
    return 2;
  }
  run.network = &*net;
  std::printf("ResNet-50, %u images of 3x%ux%u per step on %s%s, %u warm-up and %u timed steps\n",
              run.batch, image_size, image_size, run.device.str().c_str(),
              run.device.is_cpu() ? "" : (", --comm-path " + run.comm_path).c_str(), run.warmup,
              run.steps);
  std::vector<double> ratios;
  try {
    for (std::uint32_t round = 0; round < rounds; ++round) {
      const double trainer = bench::trainer_images_per_s(run);
      const double plain = bench::plain_loop_images_per_s(run);
      ratios.push_back(trainer / plain);
      std::printf("round %u: ordo trainer %.2f images/s, plain loop %.2f images/s, ratio %.3f\n",
                  round + 1, trainer, plain, trainer / plain);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ordo_resnet50_throughput_bench: error: %s\n", e.what());
    return 1;
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("median ratio (trainer / plain loop): %.3f\n", ratios[ratios.size() / 2]);
  return 0;
}
