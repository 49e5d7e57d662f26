// What a layer computes, where a network says: a short chain of primitive operations (a
// convolution, its batch norm and ReLU make one layer, as one engine op each way). The trainer
// builds a layer's compute from its chain; shapes, parameters and multiply-adds follow from the
// chain and the network's input shape (shapes.hpp). A layer with no chain is known only by its
// costs and parameter sizes: enough for the step builder and the checker, not for training.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ordo::networks {

enum class OpKind : std::uint8_t {
  dense,       // units outputs, weight and bias; its input is flattened first
  conv,        // units output channels, kernel x kernel, stride, padding; weight, no bias
  batch_norm,  // gamma and beta per channel
  relu,
  max_pool,         // kernel, stride, padding
  avg_pool,         // kernel, stride, padding (padding counted in the divisor)
  global_avg_pool,  // to one value per channel
  add,              // the sum of the layer's inputs (a residual join)
  concat,           // the layer's inputs joined along the channels
  pad_shortcut,     // ResNet's parameter-free shortcut: every stride-th pixel, channels padded
                    // with zeros to units
  bias,             // a learned bias per channel (or feature), added: a convolution's own bias
  flatten,          // to one vector of features
  identity,         // its input unchanged (a model's dropout of rate 0, its final softmax: the
                    // trainer's loss is softmax cross-entropy on the last layer's output)
};

struct LayerOp {
  OpKind kind = OpKind::relu;
  std::uint32_t units = 0;
  std::uint32_t kernel = 0;
  std::uint32_t stride = 1;
  std::uint32_t padding = 0;
  friend bool operator==(const LayerOp&, const LayerOp&) = default;
};

std::string_view to_string(OpKind kind);
// Every OpKind's spelling, in enum order (the description format's names).
const std::array<std::string_view, 13>& op_kind_names();

}  // namespace ordo::networks

namespace ordo::networks::op {

inline LayerOp dense(std::uint32_t units) { return {OpKind::dense, units, 0, 1, 0}; }
inline LayerOp conv(std::uint32_t units, std::uint32_t kernel, std::uint32_t stride,
                    std::uint32_t padding) {
  return {OpKind::conv, units, kernel, stride, padding};
}
inline LayerOp batch_norm() { return {OpKind::batch_norm, 0, 0, 1, 0}; }
inline LayerOp relu() { return {OpKind::relu, 0, 0, 1, 0}; }
inline LayerOp max_pool(std::uint32_t kernel, std::uint32_t stride, std::uint32_t padding) {
  return {OpKind::max_pool, 0, kernel, stride, padding};
}
inline LayerOp avg_pool(std::uint32_t kernel, std::uint32_t stride, std::uint32_t padding) {
  return {OpKind::avg_pool, 0, kernel, stride, padding};
}
inline LayerOp global_avg_pool() { return {OpKind::global_avg_pool, 0, 0, 1, 0}; }
inline LayerOp add() { return {OpKind::add, 0, 0, 1, 0}; }
inline LayerOp concat() { return {OpKind::concat, 0, 0, 1, 0}; }
inline LayerOp pad_shortcut(std::uint32_t units, std::uint32_t stride) {
  return {OpKind::pad_shortcut, units, 0, stride, 0};
}
inline LayerOp bias() { return {OpKind::bias, 0, 0, 1, 0}; }
inline LayerOp flatten() { return {OpKind::flatten, 0, 0, 1, 0}; }
inline LayerOp identity() { return {OpKind::identity, 0, 0, 1, 0}; }

}  // namespace ordo::networks::op
