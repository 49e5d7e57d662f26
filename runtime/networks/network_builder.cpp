#include "runtime/networks/network_builder.hpp"

#include <utility>

namespace ordo::networks {

NetworkBuilder::NetworkBuilder(std::string name, std::vector<std::uint32_t> input) {
  net_.name = std::move(name);
  net_.input = std::move(input);
}

std::uint32_t NetworkBuilder::add(std::string name, std::vector<std::uint32_t> inputs,
                                  std::vector<LayerOp> ops) {
  std::vector<Shape> ins;
  if (inputs.empty()) ins.push_back(input_shape(net_));
  for (std::uint32_t i : inputs) ins.push_back(outputs_.at(i));
  LayerResult r = walk_layer(name, ops, ins);
  net_.layers.push_back(
      Layer{std::move(name), std::move(r.params), 0.0, 0.0, std::move(inputs), std::move(ops)});
  outputs_.push_back(std::move(r.output));
  return static_cast<std::uint32_t>(net_.layers.size() - 1);
}

Network NetworkBuilder::build(double forward_us_total) {
  set_costs_from_macs(net_, forward_us_total);
  check_network(net_);
  return net_;
}

}  // namespace ordo::networks
