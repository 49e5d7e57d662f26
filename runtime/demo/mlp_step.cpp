#include "runtime/demo/mlp_step.hpp"

#include <cassert>
#include <cmath>
#include <string>

namespace ordo::demo {

namespace {

// Tensor layout: x, target, then for each layer l = 1..L: w, z, a, da, dz, g.
constexpr std::uint32_t x_index = 0;
constexpr std::uint32_t target_index = 1;
constexpr std::uint32_t per_layer = 6;
enum Slot : std::uint32_t { w = 0, z = 1, a = 2, da = 3, dz = 4, g = 5 };

std::uint32_t at(std::uint32_t layer, Slot slot) {
  assert(layer >= 1);
  return 2 + (layer - 1) * per_layer + slot;
}

// The activation the layer reads: the input for layer 1.
std::uint32_t input_of(std::uint32_t layer) { return layer == 1 ? x_index : at(layer - 1, a); }

}  // namespace

std::uint32_t loss_tensor(const MlpShape& shape) { return at(shape.layers, da); }

MlpModel make_model(const MlpShape& shape, std::uint64_t seed) {
  assert(shape.layers >= 1 && shape.width >= 1 && shape.batch >= 1);
  MlpModel m;
  const std::size_t act = std::size_t{shape.batch} * shape.width;
  const std::size_t weights = std::size_t{shape.width} * shape.width;
  m.names = {"x", "target"};
  m.tensors = {random_tensor(act, 1.0f, seed), random_tensor(act, 1.0f, seed + 1)};
  for (std::uint32_t l = 1; l <= shape.layers; ++l) {
    const std::string s = std::to_string(l);
    for (const char* n : {"w", "z", "a", "da", "dz", "g"}) m.names.push_back(n + s);
    // He-style uniform initialisation keeps activations at unit scale through the ReLUs.
    const float scale = std::sqrt(6.0f / static_cast<float>(shape.width));
    m.tensors.push_back(random_tensor(weights, scale, seed + 10 + l));
    for (int i = 0; i < 4; ++i) m.tensors.emplace_back(act, 0.0f);
    m.tensors.emplace_back(weights, 0.0f);
  }
  assert(m.names.size() == m.tensors.size());
  return m;
}

std::vector<MlpOp> step_ops(const MlpShape& shape) {
  const LayerShape ls{shape.batch, shape.width, shape.width};
  const std::uint32_t last = shape.layers;
  const float lr = shape.learning_rate;
  std::vector<MlpOp> ops;
  for (std::uint32_t l = 1; l <= last; ++l) {
    const bool relu = l < last;
    ops.push_back({"fwd" + std::to_string(l), {at(l, w), input_of(l)}, {at(l, z), at(l, a)},
                   false, [=](MlpModel& m) {
                     auto& t = m.tensors;
                     forward(ls, t[input_of(l)], t[at(l, w)], relu, t[at(l, z)], t[at(l, a)]);
                   }});
  }
  ops.push_back({"loss", {at(last, a), target_index}, {at(last, da)}, false, [=](MlpModel& m) {
                   auto& t = m.tensors;
                   m.loss = mse_loss(t[at(last, a)], t[target_index], t[at(last, da)]);
                 }});
  for (std::uint32_t l = last; l >= 1; --l) {
    const std::string s = std::to_string(l);
    const bool relu = l < last;
    ops.push_back({"act" + s, {at(l, z), at(l, da)}, {at(l, dz)}, false, [=](MlpModel& m) {
                     auto& t = m.tensors;
                     activation_backward(t[at(l, z)], t[at(l, da)], relu, t[at(l, dz)]);
                   }});
    if (l > 1) {
      ops.push_back({"bdata" + s, {at(l, dz), at(l, w)}, {at(l - 1, da)}, false,
                     [=](MlpModel& m) {
                       auto& t = m.tensors;
                       backward_data(ls, t[at(l, dz)], t[at(l, w)], t[at(l - 1, da)]);
                     }});
    }
    ops.push_back({"bweight" + s, {at(l, dz), input_of(l)}, {at(l, g)}, false,
                   [=](MlpModel& m) {
                     auto& t = m.tensors;
                     backward_weight(ls, t[at(l, dz)], t[input_of(l)], t[at(l, g)]);
                   }});
    ops.push_back({"update" + s, {at(l, g)}, {at(l, w)}, true, [=](MlpModel& m) {
                     sgd_update(m.tensors[at(l, g)], lr, m.tensors[at(l, w)]);
                   }});
  }
  return ops;
}

}  // namespace ordo::demo
