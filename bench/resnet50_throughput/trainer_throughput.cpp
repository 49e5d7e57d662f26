// Through ordo's trainer at one rank, as `ordo train --data synthetic` runs it: the step program
// on the engine (depcha's allreduces on a world of one, the data ops on their pool) and the
// parameters on the device. On a GPU the vars are in GPU memory and the compute ops device ops,
// over the path the job detects (MPI at one rank underneath), or with --comm-path host the
// gradients staged through the KVStore's host buffers.
#include <chrono>
#include <stdexcept>
#include <string>

#include "bench/resnet50_throughput/throughput_run.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/train/dataset.hpp"
#include "runtime/train/device/device_gradients.hpp"
#include "runtime/train/train_run.hpp"

namespace ordo::bench {

double trainer_images_per_s(const ThroughputRun& run) {
  designs::DesignConfig config;
  config.kind = designs::DesignKind::depcha;
  config.prefetch = true;
  const std::uint32_t total = run.warmup + run.steps;
  const auto data =
      train::random_tensors(run.batch * total, run.network->input, run.classes, run.seed);
  train::TrainOptions options;
  options.batch = run.batch;
  options.epochs = 1;
  options.steps_max = total;
  options.seed = run.seed;
  options.evaluate = false;
  options.device = run.device;
  // Timed from the main thread between steps, where the trainer reports a step done.
  std::chrono::steady_clock::time_point start;
  std::chrono::steady_clock::time_point end;
  options.on_step = [&](const train::StepReport& r) {
    if (r.step != run.warmup && r.step != total) return;
    wait_for_device(run.device);
    (r.step == run.warmup ? start : end) = std::chrono::steady_clock::now();
  };
  train::TrainResult r;
  if (run.mpi != nullptr) {
    comm::MpiWorld world(*run.mpi, designs::step_comms(config));
    const train::DeviceGradients gradients =
        train::open_device_gradients(*run.mpi, designs::step_comms(config), run.comm_path,
                                     run.device);
    options.device_vars = gradients.vars();
    r = train::train_rank(*run.network, config, world, *data, nullptr, options);
  } else {
    comm::sim::SimWorld world(1, designs::step_comms(config));
    r = train::train_rank(*run.network, config, world.rank(0), *data, nullptr, options, &world);
  }
  const double seconds = std::chrono::duration<double>(end - start).count();
  if (r.losses.size() != total || !(seconds > 0.0)) {
    throw std::runtime_error("the trainer ran " + std::to_string(r.losses.size()) + " of " +
                             std::to_string(total) + " steps");
  }
  return static_cast<double>(run.steps) * run.batch / seconds;
}

}  // namespace ordo::bench
