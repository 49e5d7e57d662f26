#include "runtime/networks/layer_ops.hpp"

namespace ordo::networks {

const std::array<std::string_view, 13>& op_kind_names() {
  static constexpr std::array<std::string_view, 13> names = {
      "dense", "conv",   "batch_norm",   "relu", "max_pool", "avg_pool", "global_avg_pool",
      "add",   "concat", "pad_shortcut", "bias", "flatten",  "identity"};
  return names;
}

std::string_view to_string(OpKind kind) {
  return op_kind_names().at(static_cast<std::size_t>(kind));
}

}  // namespace ordo::networks
