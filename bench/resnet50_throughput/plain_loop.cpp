// The same model in a plain loop: ordo's layers (the same ATen kernels, the same SGD) called one
// after another on one thread, with no engine, no step program, no KVStore and no staging: what
// libtorch alone does for the step, so that the ratio is what the trainer adds.
#include <ATen/ops/argmax.h>
#include <ATen/ops/zeros_like.h>

#include <chrono>
#include <numeric>
#include <vector>

#include "bench/resnet50_throughput/throughput_run.hpp"
#include "runtime/train/dataset.hpp"
#include "runtime/train/layers/init.hpp"
#include "runtime/train/model/model.hpp"
#include "runtime/train/model/sgd.hpp"

namespace ordo::bench {

double plain_loop_images_per_s(const ThroughputRun& run) {
  train::Model model(*run.network, at::kFloat);
  train::init_params(model.library_layers(), run.seed);
  if (!run.device.is_cpu()) model.to(run.device);
  std::vector<at::Tensor> velocity;
  for (const train::Param* p : model.params()) velocity.push_back(at::zeros_like(p->value));
  const train::SgdConfig sgd;
  const auto data = train::random_tensors(run.batch, run.network->input, run.classes, run.seed);
  std::vector<std::uint32_t> indices(run.batch);
  std::iota(indices.begin(), indices.end(), 0u);
  std::vector<std::int64_t> shape = {static_cast<std::int64_t>(run.batch)};
  for (const std::uint32_t d : run.network->input) shape.push_back(d);
  std::chrono::steady_clock::time_point start;
  for (std::uint32_t step = 0; step < run.warmup + run.steps; ++step) {
    if (step == run.warmup) {
      wait_for_device(run.device);
      start = std::chrono::steady_clock::now();
    }
    const train::Batch b = data->batch(indices.data(), indices.size(), run.seed + step);
    const at::Tensor images = b.images.reshape(shape).to(run.device);
    const at::Tensor labels = b.labels.to(run.device);
    for (std::size_t l = 0; l < model.layers(); ++l) model.forward(l, images, true);
    // What the trainer's loss op reads back each step: the loss and the right answers.
    (void)model.loss_forward(labels).item<double>();
    (void)at::argmax(model.output(model.layers() - 1), 1).eq(labels).sum().item<std::int64_t>();
    model.loss_backward();
    for (std::size_t l = model.layers(); l-- > 0;) model.backward(l);
    for (std::size_t i = 0; i < model.params().size(); ++i) {
      train::Param& p = *model.params()[i];
      train::sgd_update(p.value, p.grad, velocity[i], 0.1, sgd);
    }
  }
  wait_for_device(run.device);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return static_cast<double>(run.steps) * run.batch / seconds;
}

}  // namespace ordo::bench
