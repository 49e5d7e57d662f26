#include "runtime/train/initial_values.hpp"

#include <ATen/ops/from_blob.h>

#include <map>
#include <stdexcept>
#include <string>

namespace ordo::train {

namespace {

std::string shape_text(at::IntArrayRef shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

void set(at::Tensor& into, const networks::InitialTensor& from, const std::string& what) {
  if (into.sizes() != at::IntArrayRef(from.shape) ||
      static_cast<std::int64_t>(from.values.size()) != into.numel()) {
    throw std::invalid_argument(what + ": an initial value of shape " + shape_text(from.shape) +
                                " for a tensor of " + shape_text(into.sizes()));
  }
  // from_blob only reads here: the copy goes into the model's own tensor.
  auto* data = const_cast<float*>(from.values.data());
  into.copy_(at::from_blob(data, from.shape, at::kFloat));
}

}  // namespace

void set_initial_values(Model& model, const networks::InitialValues& values) {
  std::size_t used = 0;
  for (Param* p : model.params()) {
    const auto it = values.params.find(p->name);
    if (it == values.params.end()) continue;
    set(p->value, it->second, "parameter '" + p->name + "'");
    ++used;
  }
  if (used != values.params.size()) {
    throw std::invalid_argument("initial values for " + std::to_string(values.params.size()) +
                                " parameters, of which the model has " + std::to_string(used));
  }
  std::map<std::string, std::size_t> layer_of;
  for (std::size_t l = 0; l < model.layers(); ++l) layer_of[model.layer_name(l)] = l;
  for (const auto& [layer, stats] : values.running) {
    const auto it = layer_of.find(layer);
    const std::vector<at::Tensor*> buffers =
        it == layer_of.end() ? std::vector<at::Tensor*>{} : model.buffers(it->second);
    if (buffers.size() != 2) {
      throw std::invalid_argument("running statistics for layer '" + layer +
                                  "', which has no batch norm");
    }
    set(*buffers[0], stats.mean, "layer '" + layer + "' running mean");
    set(*buffers[1], stats.variance, "layer '" + layer + "' running variance");
  }
}

}  // namespace ordo::train
