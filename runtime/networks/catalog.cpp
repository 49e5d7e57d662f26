#include "runtime/networks/catalog.hpp"

#include <numeric>
#include <stdexcept>

#include "runtime/networks/shapes.hpp"

namespace ordo::networks {

namespace {

constexpr double resnet50_forward_us = 30000.0;

// Costs at ResNet-50's time per multiply-add.
Network at_resnet50_rate(Network net) {
  const LayerShapes s = infer_shapes(net);
  const auto macs = std::accumulate(s.macs.begin(), s.macs.end(), std::uint64_t{0});
  set_costs_from_macs(net, us_per_mac() * static_cast<double>(macs));
  return net;
}

}  // namespace

double us_per_mac() {
  static const double rate = [] {
    const LayerShapes s = infer_shapes(resnet50(1.0));
    return resnet50_forward_us /
           static_cast<double>(std::accumulate(s.macs.begin(), s.macs.end(), std::uint64_t{0}));
  }();
  return rate;
}

std::optional<Network> builtin_network(const std::string& name, std::uint32_t mlp_layers,
                                       std::vector<std::uint32_t> input, std::uint32_t classes) {
  if (name == "mlp") {
    if (input.empty()) return mlp(mlp_layers, 256, 100.0);
    return at_resnet50_rate(
        mlp_classifier(mlp_layers, 256, std::move(input), classes == 0 ? 10 : classes, 1.0));
  }
  if (name == "resnet50") {
    if (input.empty() && classes == 0) return resnet50(resnet50_forward_us);
    if (input.empty()) input = {3, 224, 224};
    return at_resnet50_rate(resnet50(1.0, classes == 0 ? 1000 : classes, std::move(input)));
  }
  if (classes == 0) classes = name == "inception-bn" ? 1000 : 10;
  if (name == "lenet") {
    if (!input.empty() && input != std::vector<std::uint32_t>{1, 28, 28}) {
      throw std::invalid_argument("lenet takes 1x28x28 images only");
    }
    return at_resnet50_rate(lenet(classes, 1.0));
  }
  for (const std::uint32_t depth : {20u, 32u, 44u, 56u, 110u}) {
    if (name == "resnet" + std::to_string(depth)) {
      if (input.empty()) input = {3, 32, 32};
      return at_resnet50_rate(cifar_resnet(depth, classes, std::move(input), 1.0));
    }
  }
  if (name == "inception-bn") {
    if (input.empty() && classes == 0) return resnet50(resnet50_forward_us);
    if (input.empty()) input = {3, 224, 224};
    return at_resnet50_rate(inception_bn(classes, std::move(input), 1.0));
  }
  return std::nullopt;
}

std::string builtin_network_names() {
  return "mlp, lenet, resnet20, resnet32, resnet44, resnet56, resnet110, resnet50, inception-bn";
}

}  // namespace ordo::networks
