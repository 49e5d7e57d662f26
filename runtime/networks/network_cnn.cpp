// The small networks the trainer runs on Fashion-MNIST and CIFAR-shaped data.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "runtime/networks/network.hpp"
#include "runtime/networks/network_builder.hpp"

namespace ordo::networks {

Network mlp_classifier(std::uint32_t layers, std::uint32_t width, std::vector<std::uint32_t> input,
                       std::uint32_t classes, double forward_us_total) {
  if (layers == 0) throw std::invalid_argument("an MLP classifier needs at least one layer");
  NetworkBuilder b("mlp" + std::to_string(layers) + "x" + std::to_string(width), std::move(input));
  std::vector<std::uint32_t> previous;
  for (std::uint32_t l = 0; l + 1 < layers; ++l) {
    previous = {b.add("dense" + std::to_string(l), previous, {op::dense(width), op::relu()})};
  }
  b.add("dense" + std::to_string(layers - 1), previous, {op::dense(classes)});
  return b.build(forward_us_total);
}

Network lenet(std::uint32_t classes, double forward_us_total) {
  NetworkBuilder b("lenet", {1, 28, 28});
  const std::uint32_t c1 = b.add(
      "conv1", {}, {op::conv(20, 5, 1, 0), op::batch_norm(), op::relu(), op::max_pool(2, 2, 0)});
  const std::uint32_t c2 = b.add(
      "conv2", {c1}, {op::conv(50, 5, 1, 0), op::batch_norm(), op::relu(), op::max_pool(2, 2, 0)});
  const std::uint32_t f1 = b.add("fc1", {c2}, {op::dense(500), op::relu()});
  b.add("fc2", {f1}, {op::dense(classes)});
  return b.build(forward_us_total);
}

Network cifar_resnet(std::uint32_t depth, std::uint32_t classes, std::vector<std::uint32_t> input,
                     double forward_us_total) {
  if (depth < 8 || (depth - 2) % 6 != 0) {
    throw std::invalid_argument("a CIFAR ResNet's depth is 6n+2 (20, 32, 44, 56, 110), not " +
                                std::to_string(depth));
  }
  const std::uint32_t n = (depth - 2) / 6;
  NetworkBuilder b("resnet" + std::to_string(depth), std::move(input));
  std::uint32_t x = b.add("conv0", {}, {op::conv(16, 3, 1, 1), op::batch_norm(), op::relu()});
  std::uint32_t channels = 16;
  for (std::uint32_t s = 0; s < 3; ++s) {
    const std::uint32_t width = 16u << s;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::string name = "stage" + std::to_string(s + 1) + ".unit" + std::to_string(i + 1);
      const std::uint32_t stride = (s > 0 && i == 0) ? 2 : 1;
      const std::uint32_t a = b.add(name + ".conv1", {x},
                                    {op::conv(width, 3, stride, 1), op::batch_norm(), op::relu()});
      const std::uint32_t c =
          b.add(name + ".conv2", {a}, {op::conv(width, 3, 1, 1), op::batch_norm()});
      // He et al.'s option A for CIFAR: the shortcut subsamples and pads channels with zeros,
      // adding no parameters.
      const std::uint32_t shortcut =
          (stride != 1 || width != channels)
              ? b.add(name + ".shortcut", {x}, {op::pad_shortcut(width, stride)})
              : x;
      x = b.add(name + ".add", {c, shortcut}, {op::add(), op::relu()});
      channels = width;
    }
  }
  b.add("fc", {x}, {op::global_avg_pool(), op::dense(classes)});
  return b.build(forward_us_total);
}

}  // namespace ordo::networks
