#include "runtime/import/onnx_initial_values.hpp"

#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

#include "runtime/import/mxnet_ops.hpp"
#include "runtime/json/quote.hpp"

namespace ordo::import {

namespace {

template <typename T>
std::vector<float> from_raw(const std::string& raw, std::uint64_t count) {
  if (raw.size() != count * sizeof(T)) {
    throw std::invalid_argument("raw data of " + std::to_string(raw.size()) + " bytes for " +
                                std::to_string(count) + " values");
  }
  std::vector<float> out(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    T v;
    std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<float>(v);
  }
  return out;
}

}  // namespace

networks::InitialTensor initializer_values(const onnx::TensorProto& tensor) {
  networks::InitialTensor out;
  std::uint64_t count = 1;
  for (const std::int64_t d : tensor.dims()) {
    out.shape.push_back(d);
    count *= static_cast<std::uint64_t>(d);
  }
  if (tensor.data_location() == onnx::TensorProto_DataLocation_EXTERNAL) {
    throw std::invalid_argument(
        "its data is in an external file, which the importer does not read");
  }
  const bool raw = tensor.has_raw_data();
  if (tensor.data_type() == onnx::TensorProto_DataType_FLOAT) {
    if (raw) {
      out.values = from_raw<float>(tensor.raw_data(), count);
    } else {
      out.values.assign(tensor.float_data().begin(), tensor.float_data().end());
    }
  } else if (tensor.data_type() == onnx::TensorProto_DataType_DOUBLE) {
    if (raw) {
      out.values = from_raw<double>(tensor.raw_data(), count);
    } else {
      for (const double v : tensor.double_data()) out.values.push_back(static_cast<float>(v));
    }
  } else {
    throw std::invalid_argument("of ONNX data type " + std::to_string(tensor.data_type()) +
                                "; the trainer reads float32 and float64 weights");
  }
  if (out.values.size() != count && !out.values.empty()) {
    throw std::invalid_argument(std::to_string(out.values.size()) + " values for a shape of " +
                                std::to_string(count));
  }
  return out;
}

networks::InitialTensor transposed(const networks::InitialTensor& matrix) {
  const auto rows = static_cast<std::size_t>(matrix.shape.at(0));
  const auto cols = static_cast<std::size_t>(matrix.shape.at(1));
  networks::InitialTensor out{{matrix.shape[1], matrix.shape[0]}, std::vector<float>(rows * cols)};
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) out.values[c * rows + r] = matrix.values[r * cols + c];
  }
  return out;
}

networks::InitialValues graph_initial_values(const onnx::GraphProto& graph,
                                             const std::vector<WantedValue>& wanted, int& at) {
  std::map<std::string, int> initializer;
  for (int i = 0; i < graph.initializer_size(); ++i) initializer[graph.initializer(i).name()] = i;
  networks::InitialValues values;
  for (const WantedValue& w : wanted) {
    const auto it = initializer.find(w.root);
    if (it == initializer.end()) continue;  // a ConstantOfShape's: no values, drawn instead
    at = it->second;
    networks::InitialTensor t = initializer_values(graph.initializer(it->second));
    if (t.values.empty()) continue;  // it declares a shape only
    if (w.transpose && t.shape.size() == 2) t = transposed(t);
    if (w.shape.size() > 1 ? t.shape != w.shape
                           : t.values.size() != static_cast<std::size_t>(w.shape.at(0))) {
      std::vector<std::uint64_t> has(t.shape.begin(), t.shape.end());
      std::vector<std::uint64_t> want(w.shape.begin(), w.shape.end());
      throw std::invalid_argument(json::quote(w.root) + " of shape " + to_string(has) +
                                  " for the trainer's " + to_string(want));
    }
    t.shape = w.shape;
    if (w.layer.empty()) {
      values.params[w.root] = std::move(t);
    } else if (w.variance) {
      values.running[w.layer].variance = std::move(t);
    } else {
      values.running[w.layer].mean = std::move(t);
    }
  }
  return values;
}

}  // namespace ordo::import
