// Values a model file gives its parameters, and its batch norms' running statistics, before
// training (an ONNX model's initializers): each in the layout the trainer's layer holds it (a
// dense weight as [outputs, inputs], whichever way the file stores it). A parameter the file
// gives no value is drawn as for any network.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ordo::networks {

struct InitialTensor {
  std::vector<std::int64_t> shape;
  std::vector<float> values;
};

struct RunningStats {
  InitialTensor mean;
  InitialTensor variance;
};

struct InitialValues {
  std::map<std::string, InitialTensor> params;  // by key
  std::map<std::string, RunningStats> running;  // by layer name
  bool empty() const { return params.empty() && running.empty(); }
};

}  // namespace ordo::networks
