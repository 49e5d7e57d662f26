#include "fuzz/gen/network_recipe.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "fuzz/gen/bounds.hpp"
#include "fuzz/gen/uniform.hpp"

namespace ordo::fuzz {

namespace {

constexpr std::array<dag::DType, 4> grad_dtypes{dag::DType::f32, dag::DType::f16, dag::DType::f64,
                                                dag::DType::bf16};

rc::Gen<ParamRecipe> param_recipes() {
  return rc::gen::build<ParamRecipe>(
      rc::gen::set(&ParamRecipe::count, uniform<std::uint64_t>(1, bounds::param_count_max + 1)),
      rc::gen::set(&ParamRecipe::dtype,
                   uniform<std::uint32_t>(0, std::uint32_t{grad_dtypes.size()})));
}

rc::Gen<LayerRecipe> layer_recipes() {
  return rc::gen::build<LayerRecipe>(
      rc::gen::set(&LayerRecipe::params, up_to(bounds::params_per_layer_max, param_recipes())),
      rc::gen::set(&LayerRecipe::inputs,
                   up_to(bounds::inputs_per_layer_max, uniform<std::uint32_t>(0, 8))),
      rc::gen::set(&LayerRecipe::forward_us, uniform<std::uint32_t>(0, 100)),
      rc::gen::set(&LayerRecipe::backward_us, uniform<std::uint32_t>(0, 200)));
}

}  // namespace

rc::Gen<NetworkRecipe> network_recipes() {
  return rc::gen::build<NetworkRecipe>(rc::gen::set(
      &NetworkRecipe::layers, rc::gen::nonEmpty(up_to(bounds::layers_max, layer_recipes()))));
}

networks::Network to_network(const NetworkRecipe& recipe, std::uint64_t count_delta) {
  networks::Network net{"net", {}};
  std::uint32_t keys = 0;
  for (std::uint32_t i = 0; i < recipe.layers.size(); ++i) {
    const LayerRecipe& lr = recipe.layers[i];
    networks::Layer layer;
    layer.name = "l" + std::to_string(i);
    layer.forward_us = lr.forward_us;
    layer.backward_us = lr.backward_us;
    if (i > 0) {
      for (std::uint32_t pick : lr.inputs) {
        const std::uint32_t input = pick % i;
        if (std::find(layer.inputs.begin(), layer.inputs.end(), input) == layer.inputs.end()) {
          layer.inputs.push_back(input);
        }
      }
    }
    for (std::size_t p = 0; p < lr.params.size() && keys < bounds::keys_max; ++p, ++keys) {
      const ParamRecipe& pr = lr.params[p];
      const std::uint64_t count = pr.count + (keys == 0 ? count_delta : 0);
      layer.params.push_back({layer.name + ".p" + std::to_string(p), count,
                              grad_dtypes[pr.dtype % grad_dtypes.size()]});
    }
    net.layers.push_back(std::move(layer));
  }
  networks::check_network(net);
  return net;
}

}  // namespace ordo::fuzz
