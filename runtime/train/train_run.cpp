#include "runtime/train/train_run.hpp"

#include <ATen/ops/argmax.h>
#include <ATen/ops/empty.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "runtime/data/shard.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/designs/step_emitter.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/exec/probe_scope.hpp"
#include "runtime/train/layers/init.hpp"
#include "runtime/train/model.hpp"
#include "runtime/train/step_compute.hpp"

namespace ordo::train {

namespace {

// Fashion-MNIST's pixel mean and standard deviation over the training set, scaled to [0, 1].
constexpr float pixel_mean = 0.2860f;
constexpr float pixel_std = 0.3530f;

// The images and labels of `indices`, normalised, shaped as the network's input.
StepInputs batch_of(const data::LabelledImages& set, const std::uint32_t* indices,
                    std::size_t count, const std::vector<std::uint32_t>& input) {
  std::vector<std::int64_t> shape = {static_cast<std::int64_t>(count)};
  for (std::uint32_t d : input) shape.push_back(d);
  StepInputs in;
  in.images = at::empty(shape, at::kFloat);
  in.labels = at::empty({static_cast<std::int64_t>(count)}, at::kLong);
  const std::size_t pixels = std::size_t{set.rows} * set.cols;
  float* x = in.images.data_ptr<float>();
  std::int64_t* y = in.labels.data_ptr<std::int64_t>();
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint8_t* src = set.pixels.data() + std::size_t{indices[i]} * pixels;
    for (std::size_t p = 0; p < pixels; ++p) {
      x[i * pixels + p] = (static_cast<float>(src[p]) / 255.0f - pixel_mean) / pixel_std;
    }
    y[i] = set.labels[indices[i]];
  }
  return in;
}

double accuracy(Model& model, const data::LabelledImages& test,
                const std::vector<std::uint32_t>& input) {
  std::vector<std::uint32_t> all(test.count);
  for (std::uint32_t i = 0; i < test.count; ++i) all[i] = i;
  std::uint64_t right = 0;
  constexpr std::size_t chunk = 500;
  for (std::size_t at = 0; at < all.size(); at += chunk) {
    const std::size_t n = std::min(chunk, all.size() - at);
    const StepInputs in = batch_of(test, all.data() + at, n, input);
    for (std::size_t l = 0; l < model.layers(); ++l) model.forward(l, in.images, false);
    right += static_cast<std::uint64_t>(
        at::argmax(model.output(model.layers() - 1), 1).eq(in.labels).sum().item<std::int64_t>());
  }
  return static_cast<double>(right) / static_cast<double>(test.count);
}

}  // namespace

TrainResult train_rank(const networks::Network& network, const designs::DesignConfig& config,
                       comm::World& world, const data::LabelledImages& train,
                       const data::LabelledImages* test, const TrainOptions& options,
                       comm::sim::SimWorld* sim) {
  if (network.input != std::vector<std::uint32_t>{1, train.rows, train.cols} &&
      network.input != std::vector<std::uint32_t>{train.rows * train.cols}) {
    throw std::invalid_argument("network '" + network.name + "' does not take the data's 1x" +
                                std::to_string(train.rows) + "x" + std::to_string(train.cols) +
                                " images");
  }
  const std::uint32_t shard = data::shard_size(train.count, world.size());
  const std::uint32_t steps_per_epoch = options.batch == 0 ? 0 : shard / options.batch;
  if (steps_per_epoch == 0) {
    throw std::invalid_argument("a shard of " + std::to_string(shard) +
                                " examples gives no batch of " + std::to_string(options.batch));
  }
  Model model(network, at::kFloat);
  init_params(model.library_layers(), options.seed);

  engine::EngineConfig engine_config;
  engine_config.pools = designs::step_pools(config);
  engine_config.record = options.record;
  engine_config.program_name = designs::step_program_name(network, config);
  engine::Engine engine(std::move(engine_config), std::make_unique<engine::ThreadPoolScheduler>());
  std::shared_ptr<StepCompute> compute;
  exec::BodyOptions body;
  body.compute = [&compute](dag::Rank, const dag::Op& op, exec::Buffers&) { compute->run(op); };
  exec::Executor executor(engine, world, designs::step_comms(config), body);
  const exec::ProbeScope probe(sim, world.rank(), executor);
  designs::StepEmitter emitter(network, config, executor);
  SgdConfig sgd = options.sgd;
  sgd.rescale = 1.0 / static_cast<double>(world.size());
  compute = std::make_shared<StepCompute>(model, emitter, executor.buffers(), sgd);
  emitter.emit_init();  // rank 0's weights everywhere

  TrainResult result;
  std::uint64_t step = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint32_t epoch = 0; epoch < options.epochs; ++epoch) {
    const std::vector<std::uint32_t> order =
        data::epoch_shard(train.count, world.rank(), world.size(), options.seed, epoch);
    for (std::uint32_t s = 0; s < steps_per_epoch; ++s) {
      if (options.steps_max != 0 && step == options.steps_max) break;
      StepInputs in = batch_of(train, order.data() + std::size_t{s} * options.batch, options.batch,
                               network.input);
      in.learning_rate = learning_rate(options.lr, step);
      in.prefix = "s" + std::to_string(step + 1) + ".";
      const std::string prefix = in.prefix;
      compute->set_inputs(std::move(in));
      emitter.emit_step(prefix);
      result.losses.push_back(compute->last_loss());
      result.images += options.batch;
      ++step;
    }
    if (options.evaluate && test != nullptr)
      result.test_accuracy.push_back(accuracy(model, *test, network.input));
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  executor.main_done();
  if (options.record) result.program = engine.recorded_job();
  for (Param* p : model.params()) {
    const at::Tensor flat = p->value.contiguous().view({-1});
    result.weights.insert(result.weights.end(), flat.data_ptr<float>(),
                          flat.data_ptr<float>() + flat.numel());
  }
  return result;
}

}  // namespace ordo::train
