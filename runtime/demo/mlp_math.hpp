// The arithmetic of a small multi-layer perceptron, one function per engine op of the demo. Each
// function is deterministic, so running the ops in any order the engine allows must give results
// bitwise equal to running them sequentially.
#pragma once

#include <cstdint>
#include <vector>

namespace ordo::demo {

using Tensor = std::vector<float>;

struct LayerShape {
  std::uint32_t batch = 0;
  std::uint32_t in = 0;
  std::uint32_t out = 0;
};

// z = x w^T (x: batch x in, w: out x in); a = relu(z) when `relu`, else a = z.
void forward(const LayerShape& s, const Tensor& x, const Tensor& w, bool relu, Tensor& z,
             Tensor& a);
// Mean squared error against `target`; writes d(loss)/d(y) into dy and returns the loss.
float mse_loss(const Tensor& y, const Tensor& target, Tensor& dy);
// dz = da where the unit was active (or everywhere for a linear layer).
void activation_backward(const Tensor& z, const Tensor& da, bool relu, Tensor& dz);
// dx = dz w (batch x in).
void backward_data(const LayerShape& s, const Tensor& dz, const Tensor& w, Tensor& dx);
// g = dz^T x (out x in).
void backward_weight(const LayerShape& s, const Tensor& dz, const Tensor& x, Tensor& g);
// w -= lr * g.
void sgd_update(const Tensor& g, float lr, Tensor& w);

// Deterministic pseudo-random values in [-scale, scale), from `seed`.
Tensor random_tensor(std::size_t size, float scale, std::uint64_t seed);

}  // namespace ordo::demo
