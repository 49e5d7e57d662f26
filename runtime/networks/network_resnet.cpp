// ResNet-50 v1 (He et al. 2016) as a layered network: the shapes give the parameter counts and
// the multiply-adds that set each layer's share of the compute time.
#include <cassert>
#include <string>

#include "runtime/networks/network.hpp"

namespace ordo::networks {

namespace {

struct Builder {
  Network net{"resnet50", {}};
  std::vector<double> macs;  // per layer, scaled to costs at the end

  // A convolution followed by batch norm: three keys (conv weight, bn gamma, bn beta).
  std::uint32_t conv_bn(const std::string& name, std::uint32_t input, bool from_data,
                        std::uint64_t in_c, std::uint64_t out_c, std::uint64_t kernel,
                        std::uint64_t out_hw) {
    Layer layer{name,
                {{name + ".weight", out_c * in_c * kernel * kernel, dag::DType::f32},
                 {name + ".bn.gamma", out_c, dag::DType::f32},
                 {name + ".bn.beta", out_c, dag::DType::f32}},
                0.0,
                0.0,
                {}};
    if (!from_data) layer.inputs = {input};
    net.layers.push_back(std::move(layer));
    macs.push_back(static_cast<double>(out_hw * out_hw * out_c * in_c * kernel * kernel));
    return static_cast<std::uint32_t>(net.layers.size() - 1);
  }

  std::uint32_t join(const std::string& name, std::uint32_t a, std::uint32_t b) {
    net.layers.push_back(Layer{name, {}, 0.0, 0.0, {a, b}});
    macs.push_back(0.0);
    return static_cast<std::uint32_t>(net.layers.size() - 1);
  }

  // A bottleneck block; the first block of a stage also projects the shortcut.
  std::uint32_t bottleneck(const std::string& name, std::uint32_t input, std::uint64_t in_c,
                           std::uint64_t mid_c, std::uint64_t out_c, std::uint64_t out_hw,
                           bool project) {
    const std::uint32_t a = conv_bn(name + ".conv1", input, false, in_c, mid_c, 1, out_hw);
    const std::uint32_t b = conv_bn(name + ".conv2", a, false, mid_c, mid_c, 3, out_hw);
    const std::uint32_t c = conv_bn(name + ".conv3", b, false, mid_c, out_c, 1, out_hw);
    const std::uint32_t shortcut =
        project ? conv_bn(name + ".downsample", input, false, in_c, out_c, 1, out_hw) : input;
    return join(name + ".add", c, shortcut);
  }
};

}  // namespace

Network resnet50(double forward_us_total) {
  Builder b;
  std::uint32_t x = b.conv_bn("conv0", 0, true, 3, 64, 7, 112);
  std::uint64_t in_c = 64;
  struct Stage {
    std::uint32_t blocks;
    std::uint64_t mid_c;
    std::uint64_t hw;
  };
  const Stage stages[] = {{3, 64, 56}, {4, 128, 28}, {6, 256, 14}, {3, 512, 7}};
  for (std::size_t s = 0; s < 4; ++s) {
    const Stage& st = stages[s];
    for (std::uint32_t i = 0; i < st.blocks; ++i) {
      const std::string name = "stage" + std::to_string(s + 1) + ".unit" + std::to_string(i + 1);
      x = b.bottleneck(name, x, in_c, st.mid_c, st.mid_c * 4, st.hw, i == 0);
      in_c = st.mid_c * 4;
    }
  }
  b.net.layers.push_back(Layer{"fc",
                               {{"fc.weight", 1000 * in_c, dag::DType::f32},
                                {"fc.bias", 1000, dag::DType::f32}},
                               0.0,
                               0.0,
                               {x}});
  b.macs.push_back(static_cast<double>(1000 * in_c));

  double macs_total = 0.0;
  for (double m : b.macs) macs_total += m;
  for (std::size_t i = 0; i < b.net.layers.size(); ++i) {
    b.net.layers[i].forward_us = forward_us_total * b.macs[i] / macs_total;
    b.net.layers[i].backward_us = 2.0 * b.net.layers[i].forward_us;
  }
  check_network(b.net);
  assert(param_count(b.net) == 161);
  return b.net;
}

}  // namespace ordo::networks
