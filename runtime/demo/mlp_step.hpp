// One SGD step of a small MLP as a list of engine ops over named tensors: forward per layer, the
// loss, then per layer (last first) the activation gradient, the data gradient, the weight
// gradient and the update. The same list runs on the engine and, sequentially, as the reference.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/demo/mlp_math.hpp"

namespace ordo::demo {

struct MlpShape {
  std::uint32_t layers = 4;
  std::uint32_t width = 64;
  std::uint32_t batch = 32;
  float learning_rate = 0.01f;
};

// Every tensor of the model and of one step, addressed by index; tensor i is engine var i.
struct MlpModel {
  std::vector<std::string> names;
  std::vector<Tensor> tensors;
  float loss = 0.0f;
};

struct MlpOp {
  std::string name;
  std::vector<std::uint32_t> reads;   // tensor indices
  std::vector<std::uint32_t> writes;  // tensor indices
  bool update = false;                // runs on the update pool, not the compute pool
  std::function<void(MlpModel&)> run;
};

// A model with random weights, input and target drawn from `seed`.
MlpModel make_model(const MlpShape& shape, std::uint64_t seed);
// The ops of one step, in submit order.
std::vector<MlpOp> step_ops(const MlpShape& shape);
// The tensor the loss op writes its gradient into; read after a step to know the loss is ready.
std::uint32_t loss_tensor(const MlpShape& shape);

}  // namespace ordo::demo
