#include "runtime/train/job/job_model.hpp"

#include <stdexcept>

#include "runtime/import/model_file.hpp"
#include "runtime/networks/shapes.hpp"

namespace ordo::train {

namespace {

template <typename T>
std::string shape_text(const std::vector<T>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + ")";
}

}  // namespace

TrainModel load_train_model(const std::string& file, const std::string& data_shape,
                            const DataShape& data) {
  import::ModelOptions options;
  if (!data_shape.empty()) options.data_shape = import::parse_data_shape(data_shape);
  import::ImportedModel model = import::import_model(file, options);
  if (!model.trainable()) {
    throw std::invalid_argument(model.untrainable_at + ": " + model.untrainable +
                                "; the trainer cannot train this model (ordo verify and step-dag "
                                "still take it)");
  }
  const networks::Network& net = model.network;
  std::uint64_t elements = 1;
  for (const std::uint32_t d : data.example) elements *= d;
  if (!data.example.empty() && net.input != data.example &&
      net.input != std::vector<std::uint32_t>{static_cast<std::uint32_t>(elements)}) {
    throw std::invalid_argument(file + ": the model's input is " + shape_text(net.input) +
                                ", the data's examples are " + shape_text(data.example) +
                                "; expected the same shape" +
                                (data_shape.empty() ? "" : " (--data-shape " + data_shape + ")"));
  }
  const networks::Shape out = networks::infer_shapes(net).outputs.back();
  if (out != networks::Shape{data.classes}) {
    throw std::invalid_argument(file + ": the model's last layer '" + net.layers.back().name +
                                "' outputs " + shape_text(out) + ", the data has " +
                                std::to_string(data.classes) +
                                " classes; expected one output per class");
  }
  return {std::move(model.network), std::move(model.initial)};
}

}  // namespace ordo::train
