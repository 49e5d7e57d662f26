// ResNet-50 v1 (He et al. 2016): bottleneck blocks with their skip connections, a projection
// shortcut at each stage's first block, the stride on the 3x3 convolution (as torchvision's
// implementation places it; parameter counts do not depend on where). Each convolution with its
// batch norm (and ReLU) is one layer, as is each residual join with its ReLU.
#include <string>
#include <utility>
#include <vector>

#include "runtime/networks/network.hpp"
#include "runtime/networks/network_builder.hpp"

namespace ordo::networks {

namespace {

std::uint32_t bottleneck(NetworkBuilder& b, const std::string& name, std::uint32_t x,
                         std::uint32_t mid, std::uint32_t out, std::uint32_t stride, bool project) {
  const std::uint32_t a =
      b.add(name + ".conv1", {x}, {op::conv(mid, 1, 1, 0), op::batch_norm(), op::relu()});
  const std::uint32_t c2 =
      b.add(name + ".conv2", {a}, {op::conv(mid, 3, stride, 1), op::batch_norm(), op::relu()});
  const std::uint32_t c3 = b.add(name + ".conv3", {c2}, {op::conv(out, 1, 1, 0), op::batch_norm()});
  const std::uint32_t shortcut =
      project ? b.add(name + ".downsample", {x}, {op::conv(out, 1, stride, 0), op::batch_norm()})
              : x;
  return b.add(name + ".add", {c3, shortcut}, {op::add(), op::relu()});
}

}  // namespace

Network resnet50(double forward_us_total, std::uint32_t classes, std::vector<std::uint32_t> input) {
  NetworkBuilder b("resnet50", std::move(input));
  std::uint32_t x = b.add(
      "conv0", {}, {op::conv(64, 7, 2, 3), op::batch_norm(), op::relu(), op::max_pool(3, 2, 1)});
  struct Stage {
    std::uint32_t blocks;
    std::uint32_t mid;
    std::uint32_t stride;
  };
  const Stage stages[] = {{3, 64, 1}, {4, 128, 2}, {6, 256, 2}, {3, 512, 2}};
  for (std::size_t s = 0; s < 4; ++s) {
    const Stage& st = stages[s];
    for (std::uint32_t i = 0; i < st.blocks; ++i) {
      const std::string name = "stage" + std::to_string(s + 1) + ".unit" + std::to_string(i + 1);
      x = bottleneck(b, name, x, st.mid, st.mid * 4, i == 0 ? st.stride : 1, i == 0);
    }
  }
  b.add("fc", {x}, {op::global_avg_pool(), op::dense(classes)});
  return b.build(forward_us_total);
}

}  // namespace ordo::networks
