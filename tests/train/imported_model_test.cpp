// Imported models as the trainer builds them: the parameters come out in the importer's key order
// with the framework's names, and an ONNX model's initializers are the weights the first forward
// pass uses (checked against ATen's functional ops on the same numbers, outside the trainer's
// layers) and the ones --export-init writes.
#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/import/model_file.hpp"
#include "runtime/import/onnx_import.hpp"
#include "runtime/train/initial_state.hpp"
#include "runtime/train/initial_values.hpp"
#include "runtime/train/layers/bias.hpp"
#include "runtime/train/layers/init.hpp"
#include "runtime/train/model/model.hpp"

namespace ordo::train {
namespace {

#ifdef ORDO_MODELS_DIR
TEST(ImportedModel, ParamsComeInTheImportersKeyOrderWithItsNames) {
  import::ModelOptions options;
  options.data_shape = {1, 28, 28};
  const import::ImportedModel m = import::import_model(
      std::filesystem::path(ORDO_MODELS_DIR) / "mxnet" / "cifar_resnet20_v1-symbol.json", options);
  ASSERT_TRUE(m.trainable()) << m.untrainable_at << ": " << m.untrainable;
  Model model(m.network, at::kFloat);
  std::vector<std::string> keys;
  for (const networks::Layer& l : m.network.layers) {
    for (const networks::Param& p : l.params) keys.push_back(p.name);
  }
  std::vector<std::string> names;
  for (const Param* p : model.params()) names.push_back(p->name);
  ASSERT_EQ(keys.size(), 65u);
  EXPECT_EQ(names, keys);
  EXPECT_EQ(names.front(), "cifarresnetv10_conv0_weight");
  EXPECT_EQ(names.back(), "cifarresnetv10_dense0_bias");
}
#endif

// Values that are easy to tell apart and not symmetric.
std::vector<float> ramp(std::size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = offset + scale * std::sin(static_cast<float>(i) + 1);
  return v;
}

// data (1, 2, 5, 5) -> Conv 3x3 pads 1 with bias -> BatchNormalization (with running statistics)
// -> Relu -> GlobalAveragePool -> Flatten -> Gemm (weight stored 3 x 4: inputs x outputs) ->
// Softmax, every weight an initializer with values.
struct TinyOnnx {
  onnx::ModelProto model;
  std::vector<float> w = ramp(3 * 2 * 3 * 3, 0.3f, 0.0f);
  std::vector<float> b = ramp(3, 0.1f, 0.05f);
  std::vector<float> gamma = ramp(3, 0.2f, 1.0f);
  std::vector<float> beta = ramp(3, 0.1f, -0.1f);
  std::vector<float> mean = ramp(3, 0.05f, 0.02f);
  std::vector<float> var = ramp(3, 0.1f, 0.5f);
  std::vector<float> fc_w = ramp(3 * 4, 0.4f, 0.0f);
  std::vector<float> fc_b = ramp(4, 0.1f, 0.0f);

  TinyOnnx() {
    model.set_ir_version(7);
    onnx::GraphProto* g = model.mutable_graph();
    auto* in = g->add_input();
    in->set_name("data");
    auto* shape = in->mutable_type()->mutable_tensor_type()->mutable_shape();
    for (const std::int64_t d : {1, 2, 5, 5}) shape->add_dim()->set_dim_value(d);
    initializer(g, "W", {3, 2, 3, 3}, w, true);  // raw bytes, as exporters write them
    initializer(g, "B", {3}, b, false);
    initializer(g, "gamma", {3}, gamma, false);
    initializer(g, "beta", {3}, beta, false);
    initializer(g, "mean", {3}, mean, false);
    initializer(g, "var", {3}, var, true);
    initializer(g, "fc_w", {3, 4}, fc_w, false);
    initializer(g, "fc_b", {4}, fc_b, false);
    auto* conv = node(g, "Conv", "conv", {"data", "W", "B"}, "c");
    auto* pads = conv->add_attribute();
    pads->set_name("pads");
    pads->set_type(onnx::AttributeProto_AttributeType_INTS);
    for (int i = 0; i < 4; ++i) pads->add_ints(1);
    node(g, "BatchNormalization", "bn", {"c", "gamma", "beta", "mean", "var"}, "n");
    node(g, "Relu", "relu", {"n"}, "r");
    node(g, "GlobalAveragePool", "pool", {"r"}, "p");
    node(g, "Flatten", "flat", {"p"}, "f");
    node(g, "Gemm", "fc", {"f", "fc_w", "fc_b"}, "logits");
    node(g, "Softmax", "prob", {"logits"}, "out");
  }
  static onnx::NodeProto* node(onnx::GraphProto* g, const std::string& op, const std::string& name,
                               const std::vector<std::string>& inputs, const std::string& out) {
    auto* n = g->add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : inputs) n->add_input(i);
    n->add_output(out);
    return n;
  }
  static void initializer(onnx::GraphProto* g, const std::string& name,
                          const std::vector<std::int64_t>& dims, const std::vector<float>& values,
                          bool raw) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto_DataType_FLOAT);
    for (const auto d : dims) t->add_dims(d);
    if (raw) {
      std::string bytes(values.size() * sizeof(float), '\0');
      std::memcpy(bytes.data(), values.data(), bytes.size());
      t->set_raw_data(bytes);
    } else {
      for (const float v : values) t->add_float_data(v);
    }
  }
  at::Tensor tensor(const std::vector<float>& v, std::vector<std::int64_t> shape) const {
    return at::tensor(v, at::kFloat).reshape(shape);
  }
};

TEST(ImportedModel, OnnxInitializersAreTheWeightsTheFirstForwardUses) {
  const TinyOnnx tiny;
  const import::ImportedModel m = import::import_onnx_model(tiny.model.SerializeAsString(), "tiny");
  ASSERT_TRUE(m.trainable()) << m.untrainable_at << ": " << m.untrainable;
  EXPECT_EQ(m.network.input, (std::vector<std::uint32_t>{2, 5, 5}));
  EXPECT_EQ(m.initial.params.size(), 6u);
  EXPECT_EQ(m.initial.running.count("bn"), 1u);

  Model model(m.network, at::kFloat);
  init_params(model.library_layers(), 3);
  set_initial_values(model, m.initial);
  const at::Tensor x = at::sin(at::arange(2 * 2 * 5 * 5, at::kFloat) * 0.37).reshape({2, 2, 5, 5});
  for (std::size_t l = 0; l < model.layers(); ++l) model.forward(l, x, false);
  const at::Tensor got = model.output(model.layers() - 1);

  // The same network in ATen's functional ops on the file's numbers.
  at::Tensor y = at::conv2d(x, tiny.tensor(tiny.w, {3, 2, 3, 3}), tiny.tensor(tiny.b, {3}), 1, 1);
  y = at::batch_norm(y, tiny.tensor(tiny.gamma, {3}), tiny.tensor(tiny.beta, {3}),
                     tiny.tensor(tiny.mean, {3}), tiny.tensor(tiny.var, {3}), false, 0.1, 1e-5,
                     false);
  y = at::relu(y).mean({2, 3});
  const at::Tensor want =
      at::matmul(y, tiny.tensor(tiny.fc_w, {3, 4})) + tiny.tensor(tiny.fc_b, {4});
  ASSERT_EQ(got.sizes(), want.sizes());
  EXPECT_TRUE(at::allclose(got, want, 1e-5, 1e-6)) << got << want;

  // And they are what --export-init writes, the Gemm weight as the trainer's [outputs, inputs].
  InitialStateOf run;
  run.initial_values = &m.initial;
  const checkpoint::Checkpoint c = initial_checkpoint(m.network, run);
  const auto array = [&](const std::string& name) -> const checkpoint::Array& {
    for (const checkpoint::Array& a : c.arrays) {
      if (a.name == name && a.group == "weight") return a;
    }
    throw std::logic_error("no array " + name);
  };
  EXPECT_EQ(array("W").values, tiny.w);
  EXPECT_EQ(array("B").values, tiny.b);
  EXPECT_EQ(array("fc_w").shape, (std::vector<std::int64_t>{4, 3}));
  const at::Tensor fc = tiny.tensor(tiny.fc_w, {3, 4}).t().contiguous();
  EXPECT_EQ(array("fc_w").values,
            std::vector<float>(fc.data_ptr<float>(), fc.data_ptr<float>() + 12));
}

TEST(ImportedModel, ABiasLayerMatchesAutograd) {
  for (const std::vector<std::int64_t>& shape :
       {std::vector<std::int64_t>{2, 3, 4, 4}, std::vector<std::int64_t>{5, 3}}) {
    Bias layer("c", 3, at::kFloat);
    Param& b = *layer.params()[0];
    b.value.copy_(at::tensor(std::vector<float>{0.5f, -1.0f, 2.0f}));
    const at::Tensor x = at::randn(shape);
    const at::Tensor y = layer.forward({x}, true);
    const at::Tensor dy = at::randn(shape);
    const at::Tensor dx = layer.backward(dy)[0];

    const at::Tensor xa = x.clone().set_requires_grad(true);
    const at::Tensor ba = b.value.detach().clone().set_requires_grad(true);
    const std::vector<std::int64_t> spread =
        shape.size() == 4 ? std::vector<std::int64_t>{1, 3, 1, 1} : std::vector<std::int64_t>{1, 3};
    const at::Tensor ya = xa + ba.view(spread);
    ya.backward(dy);
    EXPECT_TRUE(at::allclose(y, ya));
    EXPECT_TRUE(at::allclose(dx, xa.grad()));
    EXPECT_TRUE(at::allclose(b.grad, ba.grad()));
  }
}

}  // namespace
}  // namespace ordo::train
