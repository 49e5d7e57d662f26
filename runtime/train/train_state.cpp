#include "runtime/train/train_state.hpp"

#include <ATen/ops/from_blob.h>
#include <ATen/ops/zeros_like.h>

#include <cstring>

#include "runtime/checkpoint/checkpoint_error.hpp"

namespace ordo::train {

namespace {

struct Slot {
  std::string name;
  std::string group;
  at::Tensor* tensor;
};

// Every tensor a checkpoint holds, in one order for capture and restore; `velocity` holds the
// momentum of every parameter, in the parameters' order.
std::vector<Slot> slots(Model& model, std::vector<at::Tensor>& velocity) {
  std::vector<Slot> out;
  const std::vector<Param*>& params = model.params();
  for (Param* p : params) out.push_back({p->name, "weight", &p->value});
  for (std::size_t i = 0; i < params.size(); ++i) {
    out.push_back({params[i]->name, "momentum", &velocity.at(i)});
  }
  std::size_t b = 0;
  for (Layer* layer : model.library_layers()) {
    for (at::Tensor* t : layer->buffers())
      out.push_back({"buffer." + std::to_string(b++), "buffer", t});
  }
  return out;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::vector<checkpoint::Array> capture(Model& model, std::vector<at::Tensor>& velocity) {
  std::vector<checkpoint::Array> out;
  for (const Slot& s : slots(model, velocity)) {
    const at::Tensor t = s.tensor->to(at::kCPU, at::kFloat).contiguous();  // from a GPU too
    checkpoint::Array a{s.name, s.group, t.sizes().vec(), {}};
    a.values.resize(static_cast<std::size_t>(t.numel()));
    if (!a.values.empty()) {
      std::memcpy(a.values.data(), t.data_ptr<float>(), a.values.size() * sizeof(float));
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

std::vector<checkpoint::Array> capture_arrays(Model& model, StepCompute& compute) {
  compute.settle_parameters();  // staged: sharded's allgather left the newest weights in the vars
  return capture(model, compute.velocities());
}

std::vector<checkpoint::Array> capture_initial_arrays(Model& model) {
  std::vector<at::Tensor> velocity;
  for (Param* p : model.params()) velocity.push_back(at::zeros_like(p->value));
  return capture(model, velocity);
}

void restore_arrays(const std::vector<checkpoint::Array>& arrays, const std::string& source,
                    Model& model, StepCompute& compute) {
  const std::vector<Slot> want = slots(model, compute.velocities());
  if (arrays.size() != want.size()) {
    throw checkpoint::CheckpointError(source, std::to_string(arrays.size()) + " arrays",
                                      std::to_string(want.size()) + ", this network's state");
  }
  for (std::size_t i = 0; i < want.size(); ++i) {
    const checkpoint::Array& a = arrays[i];
    const std::vector<std::int64_t> shape = want[i].tensor->sizes().vec();
    if (a.name != want[i].name || a.group != want[i].group || a.shape != shape) {
      throw checkpoint::CheckpointError(
          source + ": array " + std::to_string(i),
          a.group + " '" + a.name + "' of shape " + shape_text(a.shape),
          want[i].group + " '" + want[i].name + "' of shape " + shape_text(shape));
    }
  }
  for (std::size_t i = 0; i < want.size(); ++i) {
    const checkpoint::Array& a = arrays[i];
    // from_blob does not write through a const pointer; the copy only reads it.
    const at::Tensor from = at::from_blob(const_cast<float*>(a.values.data()), a.shape, at::kFloat);
    want[i].tensor->copy_(from);
  }
  compute.publish_parameters();  // staged: the initial broadcast sends the weight vars
}

}  // namespace ordo::train
