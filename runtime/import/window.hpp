// The output size of a window (a convolution's or a pooling's) sliding along one axis, as MXNet
// and ONNX both define it: (size + pads - span) / stride + 1, rounded down, or up for a ceiling
// mode, where span = dilation (kernel - 1) + 1.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ordo::import {

// Throws std::invalid_argument for a stride or kernel of 0 and for a window larger than the
// padded input. Every argument is at most 2^31, so nothing here overflows.
inline std::uint64_t window_output(std::uint64_t size, std::uint64_t kernel, std::uint64_t stride,
                                   std::uint64_t pad_before, std::uint64_t pad_after,
                                   std::uint64_t dilation, bool ceil) {
  if (stride == 0) throw std::invalid_argument("a stride of 0");
  if (kernel == 0) throw std::invalid_argument("a kernel of 0");
  const std::uint64_t span = dilation * (kernel - 1) + 1;
  const std::uint64_t padded = size + pad_before + pad_after;
  if (padded < span) {
    throw std::invalid_argument("a window of " + std::to_string(span) +
                                " does not fit an input of " + std::to_string(size) +
                                " padded to " + std::to_string(padded));
  }
  const std::uint64_t room = padded - span;
  return (ceil ? (room + stride - 1) / stride : room / stride) + 1;
}

}  // namespace ordo::import
