// The MXNet symbol importer: every model of the model directory imports with the parameter
// tensors the file's own names count and the totals the reference architectures give
// (reference_counts.py builds them in torch.nn, independently of ordo); hand-written symbols
// show what each operator does to shapes; and every way a file can be wrong is refused with
// the node, its operator and what was expected.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/dag/dump_error.hpp"
#include "runtime/import/model_file.hpp"
#include "runtime/import/mxnet_import.hpp"
#include "runtime/import/mxnet_symbol.hpp"
#include "runtime/networks/shapes.hpp"

namespace ordo::import {
namespace {

struct Counts {
  std::uint64_t tensors = 0;
  std::uint64_t elements = 0;
};

Counts counts(const networks::Network& net) {
  Counts c;
  for (const networks::Layer& layer : net.layers) {
    for (const networks::Param& p : layer.params) {
      ++c.tensors;
      c.elements += p.count;
    }
  }
  return c;
}

networks::Network import_text(const std::string& text,
                              std::vector<std::uint64_t> shape = {3, 8, 8}) {
  MxImportOptions options;
  options.name = "t";
  options.data_shape = std::move(shape);
  return import_mxnet(read_mxnet_symbol(text), options);
}

// The message of the errors::InputError `text` is refused with, or "" when it imports.
std::string refusal(const std::string& text, std::vector<std::uint64_t> shape = {3, 8, 8}) {
  try {
    import_text(text, std::move(shape));
  } catch (const errors::InputError& e) {
    return e.what();
  }
  return "";
}

#ifdef ORDO_MODELS_DIR
struct ZooModel {
  const char* file;
  std::vector<std::uint64_t> shape;
  std::uint64_t tensors;   // the learnable variables the file's names count
  std::uint64_t elements;  // reference_counts.py where it covers the model
};

TEST(MxnetImport, EveryZooModelImportsWithItsKnownCounts) {
  const std::vector<ZooModel> zoo = {
      {"resnet-50-symbol.json", {3, 224, 224}, 157, 47'240'200},
      {"resnet-152-symbol.json", {3, 224, 224}, 463, 81'128'091},
      {"cifar_resnet20_v1-symbol.json", {3, 32, 32}, 65, 272'474},
      {"cifar_resnet56_v1-symbol.json", {3, 32, 32}, 173, 855'770},
      {"cifar_resnet110_v1-symbol.json", {3, 32, 32}, 335, 1'730'714},
      {"cifar_resnet20_v2-symbol.json", {3, 32, 32}, 63, 272'288},
      {"cifar_resnet56_v2-symbol.json", {3, 32, 32}, 171, 855'584},
      {"cifar_resnet110_v2-symbol.json", {3, 32, 32}, 333, 1'730'528},
      // Below, totals not built in reference_counts.py: the sums of the layers' shapes.
      // WRN-16-10 (Zagoruyko and Komodakis): 17.1 M.
      {"cifar_wideresnet16_10-symbol.json", {3, 32, 32}, 48, 17'116'672},
      // Dense layers on 100 features, 128, 64 and 10 wide with biases, and a batch norm of 10:
      // 12,928 + 8,256 + 650 + 20.
      {"apache-mxnet_save_000800-symbol.json", {100}, 8, 21'854},
      // VGG-16's 13 convolutions with biases (14,714,688), a sixth pooling (7x7 to 3x3), dense
      // layers of 1024, 1024 and 1000: + 4,719,616 + 1,049,600 + 1,025,000.
      {"apache-mxnet_test_dnnl_model_model1-symbol.json", {3, 224, 224}, 32, 21'508'904},
  };
  for (const ZooModel& m : zoo) {
    SCOPED_TRACE(m.file);
    ModelOptions options;
    options.data_shape = m.shape;
    const networks::Network net =
        import_model_file(std::filesystem::path(ORDO_MODELS_DIR) / "mxnet" / m.file, options);
    const Counts c = counts(net);
    EXPECT_EQ(c.tensors, m.tensors);
    EXPECT_EQ(c.elements, m.elements);
    EXPECT_GT(net.layers.front().forward_us, 0.0);
  }
}

TEST(MxnetTrainOps, CifarResNet20ComesWithTheTrainersOps) {
  for (const std::vector<std::uint64_t>& shape :
       {std::vector<std::uint64_t>{3, 32, 32}, std::vector<std::uint64_t>{1, 28, 28}}) {
    ModelOptions options;
    options.data_shape = shape;
    const ImportedModel m = import_model(
        std::filesystem::path(ORDO_MODELS_DIR) / "mxnet" / "cifar_resnet20_v1-symbol.json",
        options);
    ASSERT_TRUE(m.trainable()) << m.untrainable_at << ": " << m.untrainable;
    EXPECT_EQ(std::vector<std::uint64_t>(m.network.input.begin(), m.network.input.end()), shape);
    for (const networks::Layer& l : m.network.layers) EXPECT_FALSE(l.ops.empty()) << l.name;
    // The trainer's shape rules give the importer's parameter sizes, layer by layer, and the
    // built-in ResNet-20 plus GluonCV's two projection shortcuts (1x1 convolutions 16 to 32 and
    // 32 to 64 with their batch norms), where the built-in has parameter-free ones.
    EXPECT_NO_THROW(networks::check_network(m.network));
    const networks::Network builtin =
        networks::cifar_resnet(20, 10, std::vector<std::uint32_t>(shape.begin(), shape.end()), 1.0);
    EXPECT_EQ(counts(m.network).elements,
              counts(builtin).elements + (16 * 32 + 2 * 32) + (32 * 64 + 2 * 64));
    EXPECT_EQ(networks::infer_shapes(m.network).outputs.back(), (networks::Shape{10}));
  }
}
#endif

// clang-format off
constexpr const char* conv_net = R"json({"nodes": [
  {"op": "null", "name": "data", "inputs": []},
  {"op": "null", "name": "c_weight", "inputs": []},
  {"op": "Convolution", "name": "c", "attrs": {"kernel": "(3, 3)", "num_filter": "4",
   "stride": "(2, 2)", "no_bias": "True"}, "inputs": [[0, 0, 0], [1, 0, 0]]},
  {"op": "null", "name": "bn_gamma", "inputs": []},
  {"op": "null", "name": "bn_beta", "inputs": []},
  {"op": "null", "name": "bn_moving_mean", "inputs": []},
  {"op": "null", "name": "bn_moving_var", "inputs": []},
  {"op": "BatchNorm", "name": "bn", "inputs": [[2, 0, 0], [3, 0, 0], [4, 0, 0], [5, 0, 1],
   [6, 0, 1]]},
  {"op": "Pooling", "name": "p", "attrs": {"kernel": "(2, 2)", "stride": "(2, 2)",
   "pooling_convention": "full"}, "inputs": [[7, 0, 0]]},
  {"op": "null", "name": "fc_weight", "inputs": []},
  {"op": "null", "name": "fc_bias", "inputs": []},
  {"op": "FullyConnected", "name": "fc", "attrs": {"num_hidden": "5"},
   "inputs": [[8, 0, 0], [9, 0, 0], [10, 0, 0]]},
  {"op": "null", "name": "label", "inputs": []},
  {"op": "SoftmaxOutput", "name": "out", "inputs": [[11, 0, 0], [12, 0, 0]]}],
 "heads": [[13, 0, 0]]})json";
// clang-format on

TEST(MxnetImport, ShapesFlowAsMxnetInfersThem) {
  // 3x8x8 -> conv 3x3 stride 2: 4x3x3 -> batch norm -> pool 2x2 stride 2, full: 4x2x2 -> fc 5.
  const networks::Network net = import_text(conv_net);
  ASSERT_EQ(net.layers.size(), 5u);
  EXPECT_EQ(net.layers[0].params,
            (std::vector<networks::Param>{{"c_weight", 4 * 3 * 3 * 3, dag::DType::f32}}));
  // Moving mean and variance are states, not keys.
  EXPECT_EQ(net.layers[1].params, (std::vector<networks::Param>{{"bn_gamma", 4, dag::DType::f32},
                                                                {"bn_beta", 4, dag::DType::f32}}));
  EXPECT_EQ(net.layers[3].params,
            (std::vector<networks::Param>{{"fc_weight", 5 * 4 * 2 * 2, dag::DType::f32},
                                          {"fc_bias", 5, dag::DType::f32}}));
  EXPECT_TRUE(net.layers[4].params.empty());  // the label is no parameter
  EXPECT_TRUE(net.layers[0].inputs.empty());  // reads the network input
  EXPECT_EQ(net.layers[3].inputs, (std::vector<std::uint32_t>{2}));
  // Costs follow the multiply-adds: the convolution's 4*3*3 outputs of 27 each.
  EXPECT_DOUBLE_EQ(net.layers[0].backward_us, 2.0 * net.layers[0].forward_us);
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(MxnetImport, AnUnknownOperatorIsNamedNeverSkipped) {
  const std::string message =
      refusal(replace(conv_net, "\"op\": \"Pooling\"", "\"op\": \"ROIPooling\""));
  EXPECT_NE(message.find("/nodes/8"), std::string::npos) << message;
  EXPECT_NE(message.find("node 'p' ('ROIPooling'): an operator the importer does not know"),
            std::string::npos)
      << message;
}

TEST(MxnetImport, BrokenGraphsAreRefused) {
  // An input at or after its reader: a cycle or a dangling reference.
  EXPECT_NE(refusal(replace(conv_net, "[[7, 0, 0]]", "[[8, 0, 0]]")).find("an earlier node"),
            std::string::npos);
  EXPECT_NE(refusal(replace(conv_net, "[[7, 0, 0]]", "[[99, 0, 0]]")).find("an earlier node"),
            std::string::npos);
  // A weight used by two operators, and a weight read as data.
  EXPECT_NE(refusal(replace(conv_net, "[[8, 0, 0], [9, 0, 0]", "[[8, 0, 0], [1, 0, 0]"))
                .find("used a second time"),
            std::string::npos);
  // Not a symbol at all.
  EXPECT_NE(refusal(R"({"format": "ordo-network"})").find("no 'nodes'"), std::string::npos);
  EXPECT_NE(refusal("[1, 2]").find("an MXNet symbol"), std::string::npos);
  EXPECT_NE(
      refusal(replace(conv_net, "\"num_filter\": \"4\"", "\"num_filter\": 4")).find("a string"),
      std::string::npos);
}

TEST(MxnetImport, HostileSizesAreRefusedBeforeAnyAllocation) {
  // 2^31 filters of 3x3x3 and a 2^31-wide dense layer on them: far above 2^40 elements.
  const std::string huge =
      replace(replace(conv_net, "\"num_filter\": \"4\"", "\"num_filter\": \"2147483648\""),
              "\"num_hidden\": \"5\"", "\"num_hidden\": \"2147483648\"");
  EXPECT_NE(refusal(huge).find("2^40"), std::string::npos) << refusal(huge);
  EXPECT_NE(refusal(replace(conv_net, "\"num_filter\": \"4\"", "\"num_filter\": \"99999999999\""))
                .find("up to 2^31"),
            std::string::npos);
  // A window larger than the padded image, a zero stride.
  EXPECT_NE(refusal(conv_net, {3, 2, 2}).find("does not fit"), std::string::npos);
  EXPECT_NE(refusal(replace(conv_net, "\"stride\": \"(2, 2)\"", "\"stride\": \"(0, 2)\""))
                .find("stride of 0"),
            std::string::npos);
}

TEST(MxnetImport, ShapesTheOperatorCannotTakeAreRefused) {
  // A convolution of a flat input, and no data shape at all.
  EXPECT_NE(refusal(conv_net, {192}).find("takes an image"), std::string::npos);
  EXPECT_NE(refusal(conv_net, {}).find("no data shape"), std::string::npos);
}

ImportedModel import_for_training(const std::string& text,
                                  std::vector<std::uint64_t> shape = {3, 8, 8}) {
  MxImportOptions options;
  options.name = "t";
  options.data_shape = std::move(shape);
  return import_mxnet_model(read_mxnet_symbol(text), options);
}

// conv_net as the trainer computes it: a batch norm that learns gamma, pooling that rounds down.
std::string trainable_conv_net() {
  return replace(
      replace(conv_net, "\"pooling_convention\": \"full\"", "\"pooling_convention\": \"valid\""),
      "{\"op\": \"BatchNorm\", \"name\": \"bn\", ",
      "{\"op\": \"BatchNorm\", \"name\": \"bn\", \"attrs\": {\"fix_gamma\": "
      "\"False\", \"eps\": \"1e-5\"}, ");
}

TEST(MxnetTrainOps, EachOperatorBecomesTheTrainersOps) {
  const ImportedModel m = import_for_training(trainable_conv_net());
  ASSERT_TRUE(m.trainable()) << m.untrainable_at << ": " << m.untrainable;
  const networks::Network& net = m.network;
  EXPECT_EQ(net.input, (std::vector<std::uint32_t>{3, 8, 8}));
  ASSERT_EQ(net.layers.size(), 5u);
  using networks::LayerOp;
  namespace op = networks::op;
  EXPECT_EQ(net.layers[0].ops, (std::vector<LayerOp>{op::conv(4, 3, 2, 0)}));
  EXPECT_EQ(net.layers[1].ops, (std::vector<LayerOp>{op::batch_norm()}));
  EXPECT_EQ(net.layers[2].ops, (std::vector<LayerOp>{op::max_pool(2, 2, 0)}));
  EXPECT_EQ(net.layers[3].ops, (std::vector<LayerOp>{op::dense(5)}));
  // The final SoftmaxOutput is the trainer's loss: the layer passes the logits on.
  EXPECT_EQ(net.layers[4].ops, (std::vector<LayerOp>{op::identity()}));
  // The keys keep MXNet's names; the ops' parameters match them by position and size.
  EXPECT_EQ(net.layers[0].params[0].name, "c_weight");
  EXPECT_NO_THROW(networks::check_network(net));
}

// clang-format off
constexpr const char* residual_net = R"json({"nodes": [
  {"op": "null", "name": "data", "inputs": []},
  {"op": "null", "name": "c_weight", "inputs": []},
  {"op": "null", "name": "c_bias", "inputs": []},
  {"op": "Convolution", "name": "c", "attrs": {"kernel": "(3, 3)", "num_filter": "4",
   "pad": "(1, 1)"}, "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]},
  {"op": "Activation", "name": "r", "attrs": {"act_type": "relu"}, "inputs": [[3, 0, 0]]},
  {"op": "elemwise_add", "name": "sum", "inputs": [[3, 0, 0], [4, 0, 0]]},
  {"op": "Pooling", "name": "g", "attrs": {"global_pool": "True", "kernel": "(1, 1)",
   "pool_type": "avg"}, "inputs": [[5, 0, 0]]},
  {"op": "Flatten", "name": "f", "inputs": [[6, 0, 0]]},
  {"op": "Dropout", "name": "d", "attrs": {"p": "0"}, "inputs": [[7, 0, 0]]},
  {"op": "null", "name": "fc_weight", "inputs": []},
  {"op": "null", "name": "fc_bias", "inputs": []},
  {"op": "FullyConnected", "name": "fc", "attrs": {"num_hidden": "10"},
   "inputs": [[8, 0, 0], [9, 0, 0], [10, 0, 0]]},
  {"op": "softmax", "name": "sm", "inputs": [[11, 0, 0]]}],
 "heads": [[12, 0, 0]]})json";
// clang-format on

TEST(MxnetTrainOps, BiasesJoinsAndFlattens) {
  const ImportedModel m = import_for_training(residual_net);
  ASSERT_TRUE(m.trainable()) << m.untrainable_at << ": " << m.untrainable;
  using networks::LayerOp;
  namespace op = networks::op;
  const std::vector<std::vector<LayerOp>> want = {{op::conv(4, 3, 1, 1), op::bias()},
                                                  {op::relu()},
                                                  {op::add()},
                                                  {op::global_avg_pool()},
                                                  {op::flatten()},
                                                  {op::identity()},
                                                  {op::dense(10)},
                                                  {op::identity()}};
  ASSERT_EQ(m.network.layers.size(), want.size());
  for (std::size_t l = 0; l < want.size(); ++l) EXPECT_EQ(m.network.layers[l].ops, want[l]) << l;
  EXPECT_EQ(m.network.layers[0].params,
            (std::vector<networks::Param>{{"c_weight", 108, dag::DType::f32},
                                          {"c_bias", 4, dag::DType::f32}}));
  EXPECT_EQ(m.network.layers[2].inputs, (std::vector<std::uint32_t>{0, 1}));
  // Dropout that drops, and a softmax that is not the loss, are refused.
  EXPECT_NE(import_for_training(replace(residual_net, "\"p\": \"0\"", "\"p\": \"0.5\""))
                .untrainable.find("the trainer has no dropout"),
            std::string::npos);
  const ImportedModel mid =
      import_for_training(replace(residual_net, "\"op\": \"Flatten\"", "\"op\": \"softmax\""));
  EXPECT_EQ(mid.untrainable_at, "/nodes/7");
  EXPECT_NE(mid.untrainable.find("before the last layer"), std::string::npos) << mid.untrainable;
}

TEST(MxnetTrainOps, WhatTheTrainerCannotComputeIsNamedAndTheModelStillImports) {
  // MXNet's defaults: a batch norm whose gamma is fixed at 1, which the trainer would learn.
  const ImportedModel fixed = import_for_training(conv_net);
  EXPECT_FALSE(fixed.trainable());
  EXPECT_EQ(fixed.untrainable_at, "/nodes/7");
  EXPECT_NE(fixed.untrainable.find("node 'bn' ('BatchNorm'): "), std::string::npos)
      << fixed.untrainable;
  EXPECT_NE(fixed.untrainable.find("fix_gamma"), std::string::npos) << fixed.untrainable;
  // The keys are still there for the checker; no layer has ops.
  EXPECT_EQ(counts(fixed.network).tensors, 5u);
  EXPECT_TRUE(fixed.network.input.empty());
  for (const networks::Layer& l : fixed.network.layers) EXPECT_TRUE(l.ops.empty());
  // Rounding up ("full") where it gives another size than rounding down is refused, not
  // approximated.
  const ImportedModel full =
      import_for_training(replace(trainable_conv_net(), "\"pooling_convention\": \"valid\"",
                                  "\"pooling_convention\": \"full\""));
  EXPECT_EQ(full.untrainable_at, "/nodes/8");
  EXPECT_NE(full.untrainable.find("rounds"), std::string::npos) << full.untrainable;
  // Where it gives the same size (2x2 windows on 4x4), the windows are the same ones.
  EXPECT_TRUE(import_for_training(replace(trainable_conv_net(), "\"pooling_convention\": \"valid\"",
                                          "\"pooling_convention\": \"full\""),
                                  {3, 9, 9})
                  .trainable());
  // An activation the trainer lacks, a non-square window.
  const ImportedModel window = import_for_training(
      replace(trainable_conv_net(), "\"kernel\": \"(3, 3)\"", "\"kernel\": \"(3, 1)\""));
  EXPECT_EQ(window.untrainable_at, "/nodes/2");
  EXPECT_NE(window.untrainable.find("square"), std::string::npos) << window.untrainable;
  // A size MXNet takes but the description format does not (so `ordo import` could not write
  // what it read back).
  const ImportedModel stride = import_for_training(
      replace(trainable_conv_net(), "\"kernel\": \"(2, 2)\", \"stride\": \"(2, 2)\"",
              "\"kernel\": \"(2, 2)\", \"stride\": \"(1073741824, 1073741824)\""));
  EXPECT_EQ(stride.untrainable_at, "/nodes/8");
  EXPECT_NE(stride.untrainable.find("above 2^24"), std::string::npos) << stride.untrainable;
}

TEST(MxnetImport, DataShapesParse) {
  EXPECT_EQ(parse_data_shape("3,224,224"), (std::vector<std::uint64_t>{3, 224, 224}));
  for (const char* bad : {"", "3,,4", "3,x", "0,4", "-1", "1,2,3,4,5", "3.5"}) {
    EXPECT_THROW(parse_data_shape(bad), std::invalid_argument) << bad;
  }
}

}  // namespace
}  // namespace ordo::import
