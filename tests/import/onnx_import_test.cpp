// The ONNX importer: the model zoo's graphs import with their published parameter counts, and
// models built here with ONNX's own classes show the rules (initializers and ConstantOfShape
// outputs as parameters, batch norm statistics as states, shapes through each operator) and
// every way a model can be wrong.
#include "runtime/import/onnx_import.hpp"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/errors/input_error.hpp"
#include "runtime/import/model_file.hpp"

namespace ordo::import {
namespace {

// The zoo's models are test data beside the repository; without them (a fresh machine) neither
// the helper nor its test is compiled, so -Wunused-function has nothing to say.
#ifdef ORDO_MODELS_DIR
std::uint64_t elements_of(const networks::Network& net, std::uint64_t* tensors) {
  std::uint64_t n = 0;
  *tensors = 0;
  for (const networks::Layer& layer : net.layers) {
    for (const networks::Param& p : layer.params) {
      ++*tensors;
      n += p.count;
    }
  }
  return n;
}

TEST(OnnxImport, TheZooModelsImportWithTheirPublishedCounts) {
  struct Zoo {
    const char* file;
    std::uint64_t tensors;
    std::uint64_t elements;
  };
  const std::vector<Zoo> zoo = {
      // Published: torchvision's and Caffe2's ResNet-50, 25,557,032; VGG-19, 143,667,240;
      // BVLC AlexNet (grouped convolutions), 60,965,224; BVLC GoogLeNet without its auxiliary
      // classifiers, 6,998,552.
      {"light_resnet50.onnx", 161, 25'557'032},
      {"light_vgg19.onnx", 38, 143'667'240},
      {"light_bvlc_alexnet.onnx", 16, 60'965'224},
      {"light_inception_v1.onnx", 116, 6'998'552},
      // These graphs keep a batch norm's scale and bias and the Caffe scale layer's after it as
      // separate initializers, all trainable in ONNX's terms: more than the papers count.
      {"light_inception_v2.onnx", 347, 11'214'888},
      {"light_densenet121.onnx", 606, 8'062'504},
  };
  for (const Zoo& m : zoo) {
    SCOPED_TRACE(m.file);
    const networks::Network net =
        import_model_file(std::filesystem::path(ORDO_MODELS_DIR) / "onnx" / m.file, {});
    std::uint64_t tensors = 0;
    EXPECT_EQ(elements_of(net, &tensors), m.elements);
    EXPECT_EQ(tensors, m.tensors);
  }
}
#endif

// A model: data (1, 3, 8, 8) -> Conv (4 filters 3x3, pads 1, weight from ConstantOfShape) ->
// BatchNormalization -> Relu -> GlobalAveragePool -> Flatten -> Gemm (5, transB) -> out.
struct Builder {
  onnx::ModelProto model;
  onnx::GraphProto* g = model.mutable_graph();

  Builder() {
    model.set_ir_version(7);
    auto* in = g->add_input();
    in->set_name("data");
    auto* shape = in->mutable_type()->mutable_tensor_type()->mutable_shape();
    for (const std::int64_t d : {1, 3, 8, 8}) shape->add_dim()->set_dim_value(d);
    shape_tensor("w_shape", {4, 3, 3, 3});
    node("ConstantOfShape", "wgen", {"w_shape"}, {"w"});
    initializer("gamma", {4});
    initializer("beta", {4});
    initializer("mean", {4});
    initializer("var", {4});
    initializer("fc_w", {5, 4});
    initializer("fc_b", {5});
    auto* conv = node("Conv", "conv", {"data", "w"}, {"c"});
    ints(conv, "pads", {1, 1, 1, 1});
    ints(conv, "kernel_shape", {3, 3});
    node("BatchNormalization", "bn", {"c", "gamma", "beta", "mean", "var"}, {"b"});
    node("Relu", "relu", {"b"}, {"r"});
    node("GlobalAveragePool", "pool", {"r"}, {"p"});
    node("Flatten", "flat", {"p"}, {"f"});
    auto* gemm = node("Gemm", "fc", {"f", "fc_w", "fc_b"}, {"out"});
    auto* t = gemm->add_attribute();
    t->set_name("transB");
    t->set_type(onnx::AttributeProto_AttributeType_INT);
    t->set_i(1);
  }
  onnx::NodeProto* node(const std::string& op, const std::string& name,
                        std::vector<std::string> inputs, std::vector<std::string> outputs) {
    auto* n = g->add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : inputs) n->add_input(i);
    for (const auto& o : outputs) n->add_output(o);
    return n;
  }
  void ints(onnx::NodeProto* n, const std::string& name, std::vector<std::int64_t> values) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto_AttributeType_INTS);
    for (const auto v : values) a->add_ints(v);
  }
  void initializer(const std::string& name, std::vector<std::int64_t> dims) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto_DataType_FLOAT);
    for (const auto d : dims) t->add_dims(d);
  }
  void shape_tensor(const std::string& name, std::vector<std::int64_t> values) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto_DataType_INT64);
    t->add_dims(static_cast<std::int64_t>(values.size()));
    for (const auto v : values) t->add_int64_data(v);
  }
  std::string bytes() const { return model.SerializeAsString(); }
};

std::string refusal(const std::string& bytes) {
  try {
    import_onnx(bytes, "m");
  } catch (const errors::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(OnnxImport, ParametersStatesAndShapes) {
  const networks::Network net = import_onnx(Builder().bytes(), "m");
  ASSERT_EQ(net.layers.size(), 6u);
  EXPECT_EQ(net.layers[0].params, (std::vector<networks::Param>{{"w", 108, dag::DType::f32}}));
  // The running mean and variance are states, not keys.
  EXPECT_EQ(net.layers[1].params, (std::vector<networks::Param>{{"gamma", 4, dag::DType::f32},
                                                                {"beta", 4, dag::DType::f32}}));
  EXPECT_EQ(net.layers[5].params, (std::vector<networks::Param>{{"fc_w", 20, dag::DType::f32},
                                                                {"fc_b", 5, dag::DType::f32}}));
  EXPECT_TRUE(net.layers[0].inputs.empty());
  EXPECT_EQ(net.layers[5].inputs, (std::vector<std::uint32_t>{4}));
  // The convolution keeps 8x8 (pads 1): 4 x 8 x 8 outputs of 27 multiply-adds; the dense layer
  // 5 x 4. Costs are proportional.
  EXPECT_DOUBLE_EQ(net.layers[0].forward_us / net.layers[5].forward_us, (4.0 * 64 * 27) / 20);
}

TEST(OnnxImport, AnUnknownOperatorIsNamedNeverSkipped) {
  Builder b;
  b.g->mutable_node(3)->set_op_type("DeformConv");
  const std::string message = refusal(b.bytes());
  EXPECT_NE(message.find("/graph/node/3: node 'relu' ('DeformConv'): an operator the importer "
                         "does not know"),
            std::string::npos)
      << message;
}

TEST(OnnxImport, BrokenModelsAreRefused) {
  EXPECT_NE(refusal("not a protobuf at all \xff\xff\xff").find("do not parse"), std::string::npos);
  const std::string whole = Builder().bytes();
  EXPECT_NE(refusal(whole.substr(0, whole.size() / 2)), "");  // truncated
  Builder missing;
  missing.g->mutable_node(3)->set_input(0, "nowhere");  // an input no node makes
  EXPECT_NE(refusal(missing.bytes()).find("made by no earlier node"), std::string::npos);
  Builder cycle;  // a node reading its own output is an input not made before it
  cycle.g->mutable_node(3)->set_input(0, "r");
  EXPECT_NE(refusal(cycle.bytes()).find("made by no earlier node"), std::string::npos);
  Builder shared;
  shared.g->mutable_node(6)->set_input(2, "gamma");  // a weight read by two layers
  EXPECT_NE(refusal(shared.bytes()).find("read by a second layer"), std::string::npos);
}

// What ONNX's own checker refuses and the importer took with exit 0 (issue: wrong answers).
TEST(OnnxImport, ModelsOnnxCallsInvalidAreRefused) {
  Builder twice;  // a second node writing "r": which one does the pool read?
  twice.node("Relu", "relu_again", {"b"}, {"r"});
  EXPECT_NE(refusal(twice.bytes())
                .find("/graph/node/7: node 'relu_again' ('Relu'): output 'r' "
                      "is a name an initializer, a graph input or an earlier "
                      "node already gave a tensor"),
            std::string::npos)
      << refusal(twice.bytes());
  Builder shadow;  // a node writing over an initializer's name
  shadow.node("Relu", "over_fc_b", {"b"}, {"fc_b"});
  EXPECT_NE(refusal(shadow.bytes()).find("output 'fc_b' is a name"), std::string::npos);
  Builder again;
  again.initializer("gamma", {4});
  EXPECT_NE(refusal(again.bytes()).find("a second initializer named 'gamma'"), std::string::npos);
  Builder kernel;  // kernel_shape 2^40 x 3 beside a 3 x 3 weight
  kernel.g->mutable_node(1)->mutable_attribute(1)->set_ints(0, std::int64_t{1} << 40);
  EXPECT_NE(refusal(kernel.bytes())
                .find("a kernel_shape of 1099511627776 x 3 that is not its "
                      "weight's 3 x 3"),
            std::string::npos)
      << refusal(kernel.bytes());
  Builder extra;  // a second graph input, no initializer, read by no node
  auto* in = extra.g->add_input();
  in->set_name("labels");
  in->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(1);
  EXPECT_NE(refusal(extra.bytes())
                .find("/graph/input/1: a second graph input 'labels' that is no "
                      "initializer, besides 'data'"),
            std::string::npos)
      << refusal(extra.bytes());
  EXPECT_EQ(refusal(Builder().bytes()), "");
}

TEST(OnnxImport, HostileSizesAreRefusedBeforeAnyAllocation) {
  Builder huge;  // a ConstantOfShape of 2^31 x 2^31 x 3 x 3 elements
  huge.g->mutable_initializer(0)->set_int64_data(0, std::int64_t{1} << 31);
  huge.g->mutable_initializer(0)->set_int64_data(1, std::int64_t{1} << 31);
  EXPECT_NE(refusal(huge.bytes()).find("2^40"), std::string::npos) << refusal(huge.bytes());
  Builder negative;
  negative.g->mutable_initializer(1)->set_dims(0, -4);
  EXPECT_NE(refusal(negative.bytes()).find("a dimension of -4"), std::string::npos);
  Builder misfit;  // a weight whose channels are not the input's
  misfit.g->mutable_initializer(0)->set_int64_data(1, 5);
  EXPECT_NE(refusal(misfit.bytes()).find("groups"), std::string::npos);
}

TEST(OnnxTrainOps, EachNodeBecomesTheTrainersOps) {
  const ImportedModel m = import_onnx_model(Builder().bytes(), "m");
  ASSERT_TRUE(m.trainable()) << m.untrainable_at << ": " << m.untrainable;
  EXPECT_EQ(m.network.input, (std::vector<std::uint32_t>{3, 8, 8}));
  using networks::LayerOp;
  namespace op = networks::op;
  const std::vector<std::vector<LayerOp>> want = {{op::conv(4, 3, 1, 1)}, {op::batch_norm()},
                                                  {op::relu()},           {op::global_avg_pool()},
                                                  {op::flatten()},        {op::dense(5)}};
  ASSERT_EQ(m.network.layers.size(), want.size());
  for (std::size_t l = 0; l < want.size(); ++l) EXPECT_EQ(m.network.layers[l].ops, want[l]) << l;
  // Its weights are shapes only (a ConstantOfShape, initializers without values): none to set.
  EXPECT_TRUE(m.initial.empty());
}

TEST(OnnxTrainOps, WhatTheTrainerCannotComputeIsNamedAndTheModelStillImports) {
  const auto untrainable = [](const Builder& b) {
    const ImportedModel m = import_onnx_model(b.bytes(), "m");
    EXPECT_EQ(networks::param_count(m.network), 5u);  // still imported, for the checker
    return m.untrainable_at + ": " + m.untrainable;
  };
  Builder sigmoid;
  sigmoid.g->mutable_node(3)->set_op_type("Sigmoid");
  EXPECT_EQ(untrainable(sigmoid),
            "/graph/node/3: node 'relu' ('Sigmoid'): the trainer has no Sigmoid");
  Builder asymmetric;
  asymmetric.g->mutable_node(1)->mutable_attribute(0)->set_ints(3, 0);
  EXPECT_NE(untrainable(asymmetric).find("/graph/node/1: node 'conv' ('Conv'): the trainer pads"),
            std::string::npos)
      << untrainable(asymmetric);
  Builder eps;
  auto* e = eps.g->mutable_node(2)->add_attribute();
  e->set_name("epsilon");
  e->set_type(onnx::AttributeProto_AttributeType_FLOAT);
  e->set_f(1e-3f);
  EXPECT_NE(untrainable(eps).find("node 'bn' ('BatchNormalization'): epsilon"), std::string::npos)
      << untrainable(eps);
  Builder no_bias;  // Gemm without its bias: the trainer's dense layer has one
  no_bias.g->mutable_node(6)->mutable_input()->RemoveLast();
  const ImportedModel nb = import_onnx_model(no_bias.bytes(), "m");
  EXPECT_NE(nb.untrainable.find("('Gemm'): the trainer's dense layer has a bias"),
            std::string::npos)
      << nb.untrainable;
}

}  // namespace
}  // namespace ordo::import
