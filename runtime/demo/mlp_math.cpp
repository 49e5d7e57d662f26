#include "runtime/demo/mlp_math.hpp"

#include <cassert>
#include <random>

namespace ordo::demo {

void forward(const LayerShape& s, const Tensor& x, const Tensor& w, bool relu, Tensor& z,
             Tensor& a) {
  assert(x.size() == std::size_t{s.batch} * s.in && w.size() == std::size_t{s.out} * s.in);
  z.assign(std::size_t{s.batch} * s.out, 0.0f);
  a.resize(z.size());
  for (std::size_t b = 0; b < s.batch; ++b) {
    for (std::size_t o = 0; o < s.out; ++o) {
      float sum = 0.0f;
      for (std::size_t i = 0; i < s.in; ++i) sum += x[b * s.in + i] * w[o * s.in + i];
      z[b * s.out + o] = sum;
      a[b * s.out + o] = relu && sum < 0.0f ? 0.0f : sum;
    }
  }
}

float mse_loss(const Tensor& y, const Tensor& target, Tensor& dy) {
  assert(y.size() == target.size() && !y.empty());
  dy.resize(y.size());
  const float scale = 2.0f / static_cast<float>(y.size());
  float loss = 0.0f;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const float diff = y[i] - target[i];
    loss += diff * diff;
    dy[i] = scale * diff;
  }
  return loss / static_cast<float>(y.size());
}

void activation_backward(const Tensor& z, const Tensor& da, bool relu, Tensor& dz) {
  assert(z.size() == da.size());
  dz.resize(z.size());
  for (std::size_t i = 0; i < z.size(); ++i) dz[i] = relu && z[i] < 0.0f ? 0.0f : da[i];
}

void backward_data(const LayerShape& s, const Tensor& dz, const Tensor& w, Tensor& dx) {
  assert(dz.size() == std::size_t{s.batch} * s.out && w.size() == std::size_t{s.out} * s.in);
  dx.assign(std::size_t{s.batch} * s.in, 0.0f);
  for (std::size_t b = 0; b < s.batch; ++b) {
    for (std::size_t o = 0; o < s.out; ++o) {
      const float d = dz[b * s.out + o];
      for (std::size_t i = 0; i < s.in; ++i) dx[b * s.in + i] += d * w[o * s.in + i];
    }
  }
}

void backward_weight(const LayerShape& s, const Tensor& dz, const Tensor& x, Tensor& g) {
  assert(dz.size() == std::size_t{s.batch} * s.out && x.size() == std::size_t{s.batch} * s.in);
  g.assign(std::size_t{s.out} * s.in, 0.0f);
  for (std::size_t b = 0; b < s.batch; ++b) {
    for (std::size_t o = 0; o < s.out; ++o) {
      const float d = dz[b * s.out + o];
      for (std::size_t i = 0; i < s.in; ++i) g[o * s.in + i] += d * x[b * s.in + i];
    }
  }
}

void sgd_update(const Tensor& g, float lr, Tensor& w) {
  assert(g.size() == w.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] -= lr * g[i];
}

Tensor random_tensor(std::size_t size, float scale, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-scale, scale);
  Tensor t(size);
  for (float& v : t) v = dist(rng);
  return t;
}

}  // namespace ordo::demo
