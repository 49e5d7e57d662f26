#include "runtime/train/train_run.hpp"

#include <ATen/ops/argmax.h>
#include <ATen/ops/empty.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "runtime/data/shard.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/designs/step_emitter.hpp"
#include "runtime/diag/engine_source.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/exec/probe_scope.hpp"
#include "runtime/flight/timeline_log.hpp"
#include "runtime/random/split_mix64.hpp"
#include "runtime/train/initial_values.hpp"
#include "runtime/train/layers/init.hpp"
#include "runtime/train/model/model.hpp"
#include "runtime/train/step_compute.hpp"
#include "runtime/train/train_checkpoints.hpp"
#include "runtime/train/training_device.hpp"

namespace ordo::train {

namespace {

// The examples `indices` of `set`, shaped as the network's input (a flat vector for an MLP).
StepInputs batch_of(const Dataset& set, const std::uint32_t* indices, std::size_t count,
                    const std::vector<std::uint32_t>& input, std::uint64_t seed) {
  Batch b = set.batch(indices, count, seed);
  std::vector<std::int64_t> shape = {static_cast<std::int64_t>(count)};
  for (std::uint32_t d : input) shape.push_back(d);
  StepInputs in;
  in.images = b.images.reshape(shape);
  in.labels = std::move(b.labels);
  return in;
}

// One batch's augmentation seed: the run's seed and the step, mixed so that neighbouring steps
// draw unrelated augmentations.
std::uint64_t batch_seed(std::uint64_t seed, std::uint64_t step) {
  return random::SplitMix64(seed ^ (0x9e3779b97f4a7c15ULL * (step + 1))).next();
}

double accuracy(Model& model, const Dataset& test, const std::vector<std::uint32_t>& input,
                const c10::Device& device) {
  std::vector<std::uint32_t> all(test.size());
  for (std::uint32_t i = 0; i < test.size(); ++i) all[i] = i;
  std::uint64_t right = 0;
  constexpr std::size_t chunk = 500;
  for (std::size_t at = 0; at < all.size(); at += chunk) {
    const std::size_t n = std::min(chunk, all.size() - at);
    const StepInputs in = batch_of(test, all.data() + at, n, input, 0);
    const at::Tensor images = in.images.to(device);
    for (std::size_t l = 0; l < model.layers(); ++l) model.forward(l, images, false);
    right += static_cast<std::uint64_t>(at::argmax(model.output(model.layers() - 1), 1)
                                            .eq(in.labels.to(device))
                                            .sum()
                                            .item<std::int64_t>());
  }
  return static_cast<double>(right) / static_cast<double>(test.size());
}

// The epoch's figures are summed by the main thread between steps, like the checkpoint
// agreements (train_checkpoints.hpp says why that matches on every rank).
constexpr std::int64_t epoch_figures_key = -2;

}  // namespace

TrainResult train_rank(const networks::Network& network, const designs::DesignConfig& config,
                       comm::World& world, const data::LabelledImages& train,
                       const data::LabelledImages* test, const TrainOptions& options,
                       comm::sim::SimWorld* sim) {
  const std::unique_ptr<Dataset> train_set = fashion_mnist(train);
  const std::unique_ptr<Dataset> test_set = test ? fashion_mnist(*test) : nullptr;
  return train_rank(network, config, world, *train_set, test_set.get(), options, sim);
}

// The steps themselves, on a built engine and executor (train_rank keeps what may outlive a
// failure apart from what may not).
TrainResult run_steps(const networks::Network& network, const designs::DesignConfig& config,
                      comm::World& world, const Dataset& train, const Dataset* test,
                      const TrainOptions& options, Model& model, engine::Engine& engine,
                      exec::Executor& executor, std::shared_ptr<StepCompute>& compute,
                      std::uint32_t steps_per_epoch);

TrainResult train_rank(const networks::Network& network, const designs::DesignConfig& config,
                       comm::World& world, const Dataset& train, const Dataset* test,
                       const TrainOptions& options, comm::sim::SimWorld* sim) {
  const std::vector<std::uint32_t> shape = train.shape();
  std::uint64_t elements = 1;
  for (std::uint32_t d : shape) elements *= d;
  if (network.input != shape &&
      network.input != std::vector<std::uint32_t>{static_cast<std::uint32_t>(elements)}) {
    throw std::invalid_argument("network '" + network.name + "' does not take the data's " +
                                train.describe());
  }
  if (test != nullptr && test->shape() != shape) {
    throw std::invalid_argument("the test set's examples (" + test->describe() +
                                ") are not the training set's (" + train.describe() + ")");
  }
  designs::check_design_ranks(config, world.size());
  const std::uint32_t shard = data::shard_size(train.size(), world.size());
  const std::uint32_t steps_per_epoch = options.batch == 0 ? 0 : shard / options.batch;
  if (steps_per_epoch == 0) {
    throw std::invalid_argument("a shard of " + std::to_string(shard) +
                                " examples gives no batch of " + std::to_string(options.batch));
  }
  TrainOptions run_options = options;
  LrSchedule& lr = run_options.lr;
  for (const std::uint32_t e : options.lr_decay_epochs) {
    lr.milestones.push_back(std::uint64_t{e} * steps_per_epoch);
  }
  std::sort(lr.milestones.begin(), lr.milestones.end());
  learning_rate(lr, 0);  // throws here, before any rank trains, for a schedule that is wrong
  const CheckpointOptions& ckpt = options.checkpoint;
  if ((ckpt.every != 0 || ckpt.resume) && ckpt.dir.empty()) {
    throw std::invalid_argument("checkpoints and resume need a checkpoint directory");
  }
  if (const std::optional<std::string> why = device_unusable(options.device.type())) {
    throw std::invalid_argument(*why);
  }
  if (const std::optional<DeviceVars>& d = options.device_vars) {
    if (d->memory == nullptr || d->world == nullptr || d->compute_queue == nullptr) {
      throw std::invalid_argument("vars on a device need their memory, their world and the "
                                  "compute queue; one is missing");
    }
    if (options.staged) {
      throw std::invalid_argument("the staged parameters and vars on a device exclude each other");
    }
    // The parameters and gradients are views of the vars made on options.device.
    const std::optional<int> gpu = d->memory->gpu();
    const bool on_a_gpu = options.device.is_cuda();
    if (gpu.has_value() != on_a_gpu ||
        (gpu && options.device.has_index() && *gpu != options.device.index())) {
      throw std::invalid_argument("the device vars are in " + d->memory->describe() +
                                  ", but the run computes on " + options.device.str() +
                                  "; they must be memory of that device");
    }
    // A marker orders only the work of its own queue: the queues must be the memory's device's.
    const std::pair<const engine::DeviceQueue*, const char*> queues[] = {
        {d->compute_queue, "compute"}, {d->copy_queue, "copy"}};
    const auto where = [](std::optional<int> g) {
      return g ? "GPU " + std::to_string(*g) : std::string("the host");
    };
    for (const auto& [queue, role] : queues) {
      if (queue == nullptr || queue->gpu() == gpu) continue;
      throw std::invalid_argument("the device vars' " + std::string(role) +
                                  " queue orders work on " + where(queue->gpu()) +
                                  ", but their memory is " + d->memory->describe() + " (" +
                                  where(gpu) + "); it must be a queue of that device");
    }
    if (d->world->rank() != world.rank() || d->world->size() != world.size()) {
      throw std::invalid_argument("the device vars' world is not the run's: rank " +
                                  std::to_string(d->world->rank()) + " of " +
                                  std::to_string(d->world->size()) + " against rank " +
                                  std::to_string(world.rank()) + " of " +
                                  std::to_string(world.size()));
    }
    // The compute queue marks behind libtorch's kernels only on the stream they go to.
    if (!on_default_stream(options.device)) {
      throw std::invalid_argument("libtorch's current stream on " + options.device.str() +
                                  " is not the default one, which the compute queue marks on");
    }
  }
  Model model(network, at::kFloat);
  init_params(model.library_layers(), options.seed);
  if (options.initial_values != nullptr) set_initial_values(model, *options.initial_values);
  if (!options.device.is_cpu()) model.to(options.device);

  engine::EngineConfig engine_config;
  engine_config.pools = designs::step_pools(config);
  engine_config.record = options.record;
  engine_config.program_name = designs::step_program_name(network, config);
  engine::Engine engine(std::move(engine_config), std::make_unique<engine::ThreadPoolScheduler>());
  if (options.timeline != nullptr) engine.set_trace(options.timeline);
  std::shared_ptr<StepCompute> compute;
  exec::BodyOptions body;
  body.compute = [&compute](dag::Rank, const dag::Op& op, exec::Buffers&) { compute->run(op); };
  const std::optional<DeviceVars>& device_vars = options.device_vars;
  body.compute_on_device = device_vars.has_value();
  exec::Executor executor(engine, device_vars ? *device_vars->world : world,
                          designs::step_comms(config), body,
                          device_vars ? device_vars->memory : nullptr);
  if (device_vars) executor.use_device_queue(designs::compute_pool, *device_vars->compute_queue);
  if (device_vars && device_vars->copy_queue != nullptr) {
    executor.use_device_queue(designs::copy_pool, *device_vars->copy_queue);
  }
  const exec::ProbeScope probe(sim, world.rank(), executor);
  const diag::AttachedSource attached(
      options.recorder,
      diag::engine_source(engine, executor, designs::step_program_name(network, config)));
  try {
    return run_steps(network, config, world, train, test, run_options, model, engine, executor,
                     compute, steps_per_epoch);
  } catch (...) {
    // This rank alone may have failed while the others wait in a collective: the caller may end
    // the job here (ordo train aborts every rank). Otherwise no op may still run on the
    // executor's buffers when the unwinding frees them: the engine stops first.
    if (options.on_failure) options.on_failure(std::current_exception());
    engine.shutdown();
    throw;
  }
}

TrainResult run_steps(const networks::Network& network, const designs::DesignConfig& config,
                      comm::World& world, const Dataset& train, const Dataset* test,
                      const TrainOptions& options, Model& model, engine::Engine& engine,
                      exec::Executor& executor, std::shared_ptr<StepCompute>& compute,
                      std::uint32_t steps_per_epoch) {
  const CheckpointOptions& ckpt = options.checkpoint;
  designs::StepEmitter emitter(network, config, executor, world.rank());
  SgdConfig sgd = options.sgd;
  sgd.rescale = 1.0 / static_cast<double>(world.size());
  const Placement placement{options.device,
                            options.staged || (!options.device.is_cpu() && !options.device_vars)};
  compute = std::make_shared<StepCompute>(model, emitter, executor.buffers(), sgd, placement);
  compute->set_shard(world.rank(), world.size());

  const RunIdentity run{network.name,   std::string(designs::to_string(config.kind)),
                        world.size(),   world.rank(),
                        options.seed,   options.batch,
                        steps_per_epoch};
  TrainResult result;
  ResumePoint start;
  if (ckpt.resume) start = resume(ckpt, run, world, model, *compute);
  std::uint64_t step = start.step;
  result.first_step = step;
  // The resumed epoch's sums so far, taken up by the first epoch this run trains.
  checkpoint::EpochSums carried = start.epoch_sums;
  std::uint64_t steps_total = std::uint64_t{options.epochs} * steps_per_epoch;
  if (options.steps_max != 0) steps_total = std::min<std::uint64_t>(steps_total, options.steps_max);
  if (config.prefetch) {
    // Runs on the data pool's one thread, step after step.
    compute->set_batch_source(
        [&, cached = ~std::uint64_t{0},
         order = std::vector<std::uint32_t>()](std::uint64_t k) mutable -> StepInputs {
          if (k >= steps_total) return {};  // the last step's load: nothing after it
          const std::uint64_t epoch = k / steps_per_epoch;
          if (epoch != cached) {
            order =
                data::epoch_shard(train.size(), world.rank(), world.size(), options.seed, epoch);
            cached = epoch;
          }
          return batch_of(train, order.data() + (k % steps_per_epoch) * options.batch,
                          options.batch, network.input, batch_seed(options.seed, k));
        },
        step);
  }
  emitter.emit_init();  // rank 0's weights everywhere (on a resume, every rank's are equal already)

  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  // Time in the steps only: evaluation and checkpoints are not training throughput.
  double step_seconds = 0.0;
  for (auto epoch = static_cast<std::uint32_t>(step / steps_per_epoch);
       epoch < options.epochs && step < steps_total; ++epoch) {
    const std::vector<std::uint32_t> order =
        config.prefetch
            ? std::vector<std::uint32_t>()  // the data ops deal the batches
            : data::epoch_shard(train.size(), world.rank(), world.size(), options.seed, epoch);
    const double epoch_start = step_seconds;
    checkpoint::EpochSums sums = carried;  // this rank's, over the epoch's steps so far
    carried = {};
    std::uint32_t s = static_cast<std::uint32_t>(step % steps_per_epoch);
    for (; s < steps_per_epoch && step < steps_total; ++s) {
      const auto step_start = std::chrono::steady_clock::now();
      const std::string prefix = "s" + std::to_string(step + 1) + ".";
      if (config.prefetch) {
        compute->set_step(learning_rate(options.lr, step), prefix);
      } else {
        StepInputs in = batch_of(train, order.data() + std::size_t{s} * options.batch,
                                 options.batch, network.input, batch_seed(options.seed, step));
        in.learning_rate = learning_rate(options.lr, step);
        in.prefix = prefix;
        compute->set_inputs(std::move(in));
      }
      emitter.emit_step(prefix);
      step_seconds += since(step_start);
      const double loss = compute->last_loss();
      result.losses.push_back(loss);
      result.images += options.batch;
      sums.loss += loss * options.batch;
      sums.correct += compute->last_correct();
      sums.images += options.batch;
      ++step;
      if (options.on_step) {
        options.on_step(
            {epoch, s + 1, steps_per_epoch, step, steps_total, loss, step_seconds, result.images});
      }
      if (!ckpt.dir.empty() && ((ckpt.every != 0 && step % ckpt.every == 0) || step == steps_total))
        save(ckpt, run, world, model, *compute, step, sums);
    }
    EpochReport report;
    report.epoch = epoch;
    report.seconds = step_seconds - epoch_start;
    // Loss summed over images, right answers, images: exact integers in a double up to 2^53.
    double figures[3] = {sums.loss, static_cast<double>(sums.correct),
                         static_cast<double>(sums.images)};
    world.comm(0).allreduce(figures, 3, dag::DType::f64, dag::Reduction::sum, epoch_figures_key);
    if (figures[2] > 0) {
      report.train_loss = figures[0] / figures[2];
      report.train_accuracy = figures[1] / figures[2];
    }
    if ((s == steps_per_epoch || step == steps_total) && options.evaluate && test != nullptr) {
      compute->settle_parameters();
      report.test_accuracy = accuracy(model, *test, network.input, options.device);
      result.test_accuracy.push_back(*report.test_accuracy);
    }
    result.epochs.push_back(report);
    if (options.on_epoch) options.on_epoch(report);
  }
  result.seconds = step_seconds;
  executor.main_done();
  if (options.record) {
    result.program = engine.recorded_job();
    // As the step builder says of it: such a design's program is one for its rank count.
    if (designs::design_ranks(config)) result.program.ranks = designs::design_ranks(config);
  }
  compute->settle_parameters();
  for (Param* p : model.params()) {
    const at::Tensor flat = p->value.to(at::kCPU).contiguous().view({-1});
    result.weights.insert(result.weights.end(), flat.data_ptr<float>(),
                          flat.data_ptr<float>() + flat.numel());
  }
  for (Layer* layer : model.library_layers()) {
    for (const at::Tensor* t : layer->buffers()) {
      const at::Tensor flat = t->to(at::kCPU, at::kFloat).contiguous().view({-1});
      result.buffers.insert(result.buffers.end(), flat.data_ptr<float>(),
                            flat.data_ptr<float>() + flat.numel());
    }
  }
  return result;
}

}  // namespace ordo::train
