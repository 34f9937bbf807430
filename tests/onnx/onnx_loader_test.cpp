// The ONNX loader's refusals: a malformed, truncated or randomly damaged file, an unknown operator,
// attribute or opset each give one error line naming the problem and never crash; the C entry point
// (ANeuralNetworksNnrt_loadOnnxModel) returns the model and the names, or Android's result codes.
// Results are checked against values computed by hand.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>

#include "nnrt/nnrt.h"
#include "onnx/onnx_loader.hpp"

namespace nnrt::onnxfront {
namespace {

namespace fs = std::filesystem;

void addFloatInput(onnx::GraphProto* graph, const std::string& name, std::vector<int64_t> dims,
                   bool output = false) {
  auto* info = output ? graph->add_output() : graph->add_input();
  info->set_name(name);
  auto* tensor = info->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims)
    tensor->mutable_shape()->add_dim()->set_dim_value(d);
}

// y = Relu(x), x and y [2, 2].
onnx::ModelProto reluModel(int64_t opset = 13) {
  onnx::ModelProto model;
  model.set_ir_version(7);
  auto* entry = model.add_opset_import();
  entry->set_domain("");
  entry->set_version(opset);
  auto* graph = model.mutable_graph();
  graph->set_name("relu");
  addFloatInput(graph, "x", {2, 2});
  addFloatInput(graph, "y", {2, 2}, true);
  auto* node = graph->add_node();
  node->set_name("r1");
  node->set_op_type("Relu");
  node->add_input("x");
  node->add_output("y");
  return model;
}

fs::path write(const std::string& name, const std::string& bytes) {
  fs::path path = fs::path(testing::TempDir()) / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

fs::path write(const std::string& name, const onnx::ModelProto& model) {
  return write(name, model.SerializeAsString());
}

void expectOneLineError(const Result<LoadedModel>& result, const std::string& part) {
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ResultCode::BAD_DATA);
  EXPECT_NE(result.error().message.find(part), std::string::npos) << result.error().message;
  EXPECT_EQ(result.error().message.find('\n'), std::string::npos) << result.error().message;
}

// Output `which` of `model` (outputCount values); other outputs, of at most as many values, are dropped.
std::vector<float> run(const LoadedModel& model, const std::vector<std::vector<float>>& inputs,
                       size_t outputCount, size_t which = 0) {
  ANeuralNetworksCompilation* compilation = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_create(model.model.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* execution = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(ANeuralNetworksExecution_setInput(execution, static_cast<int32_t>(i), nullptr, inputs[i].data(),
                                                inputs[i].size() * 4),
              ANEURALNETWORKS_NO_ERROR);
  }
  std::vector<float> out(outputCount);
  std::vector<std::vector<float>> others(model.outputs.size(), std::vector<float>(outputCount));
  for (size_t k = 0; k < model.outputs.size(); ++k) {
    float* into = k == which ? out.data() : others[k].data();
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(execution, static_cast<int32_t>(k), nullptr, into, out.size() * 4),
              ANEURALNETWORKS_NO_ERROR);
  }
  EXPECT_EQ(ANeuralNetworksExecution_compute(execution), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution_free(execution);
  ANeuralNetworksCompilation_free(compilation);
  return out;
}

TEST(OnnxLoaderTest, RunsAReluModel) {
  auto model = loadOnnxModel(write("relu.onnx", reluModel()));
  ASSERT_TRUE(model.has_value()) << model.error().message;
  ASSERT_EQ(model->inputs.size(), 1u);
  EXPECT_EQ(model->inputs[0].name, "x");
  EXPECT_EQ(model->outputs[0].name, "y");
  EXPECT_EQ(run(*model, {{-1.5f, 2.0f, 0.0f, -0.25f}}, 4), (std::vector<float>{0.0f, 2.0f, 0.0f, 0.0f}));
}

// Opsets 18 to 21 load (Relu is unchanged in them): Relu of [-1, 2, -3, 4] is [0, 2, 0, 4].
TEST(OnnxLoaderTest, RunsAReluModelAtOpsets18To21) {
  for (int64_t opset : {18, 19, 20, 21}) {
    auto model = loadOnnxModel(write("relu21.onnx", reluModel(opset)));
    ASSERT_TRUE(model.has_value()) << model.error().message;
    EXPECT_EQ(model->opsetVersion, opset);
    EXPECT_EQ(run(*model, {{-1, 2, -3, 4}}, 4), (std::vector<float>{0, 2, 0, 4})) << "opset " << opset;
  }
}

// y = Gemm(a, B, C) with alpha 2, beta 0.5, transB, B and C constants: by hand,
// a = [[1, 2]], B^T = [[1, 3], [2, 4]] (B = [[1, 2], [3, 4]] given transposed), C = [10, 20]:
// a B^T = [1 + 4, 3 + 8] = [5, 11]; 2 * [5, 11] + 0.5 * [10, 20] = [10 + 5, 22 + 10] = [15, 32].
TEST(OnnxLoaderTest, GemmWithAlphaBetaAndTransposedWeights) {
  onnx::ModelProto model = reluModel();
  auto* graph = model.mutable_graph();
  graph->clear_node();
  graph->clear_input();
  graph->clear_output();
  addFloatInput(graph, "a", {1, 2});
  addFloatInput(graph, "y", {1, 2}, true);
  auto* b = graph->add_initializer();
  b->set_name("B");
  b->set_data_type(onnx::TensorProto::FLOAT);
  b->add_dims(2);
  b->add_dims(2);
  for (float v : {1.0f, 2.0f, 3.0f, 4.0f})
    b->add_float_data(v);
  auto* c = graph->add_initializer();
  c->set_name("C");
  c->set_data_type(onnx::TensorProto::FLOAT);
  c->add_dims(2);
  for (float v : {10.0f, 20.0f})
    c->add_float_data(v);
  auto* node = graph->add_node();
  node->set_name("g");
  node->set_op_type("Gemm");
  for (const char* in : {"a", "B", "C"})
    node->add_input(in);
  node->add_output("y");
  auto* alpha = node->add_attribute();
  alpha->set_name("alpha");
  alpha->set_type(onnx::AttributeProto::FLOAT);
  alpha->set_f(2.0f);
  auto* beta = node->add_attribute();
  beta->set_name("beta");
  beta->set_type(onnx::AttributeProto::FLOAT);
  beta->set_f(0.5f);
  auto* trans = node->add_attribute();
  trans->set_name("transB");
  trans->set_type(onnx::AttributeProto::INT);
  trans->set_i(1);
  auto loaded = loadOnnxModel(write("gemm.onnx", model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(run(*loaded, {{1.0f, 2.0f}}, 2), (std::vector<float>{15.0f, 32.0f}));
}

TEST(OnnxLoaderTest, RefusesAnUnknownOperatorNamingTheNode) {
  onnx::ModelProto model = reluModel();
  model.mutable_graph()->mutable_node(0)->set_op_type("FooBar");
  expectOneLineError(loadOnnxModel(write("foobar.onnx", model)),
                     "node 'r1' (FooBar): operator not supported");
}

TEST(OnnxLoaderTest, RefusesAnUnknownAttribute) {
  onnx::ModelProto model = reluModel();
  auto* a = model.mutable_graph()->mutable_node(0)->add_attribute();
  a->set_name("bogus");
  a->set_type(onnx::AttributeProto::INT);
  expectOneLineError(loadOnnxModel(write("attribute.onnx", model)),
                     "node 'r1' (Relu): attribute 'bogus' is not supported");
}

TEST(OnnxLoaderTest, RefusesAnUnknownOpsetOrDomain) {
  expectOneLineError(loadOnnxModel(write("opset99.onnx", reluModel(99))),
                     "opset 99 of the default domain is not supported");
  expectOneLineError(loadOnnxModel(write("opset22.onnx", reluModel(22))),
                     "opset 22 of the default domain is not supported (the loader knows 1 to 21)");
  onnx::ModelProto model = reluModel();
  model.mutable_graph()->mutable_node(0)->set_domain("com.example");
  expectOneLineError(loadOnnxModel(write("domain.onnx", model)), "domain 'com.example' is not supported");
  model = reluModel();
  model.clear_opset_import();
  expectOneLineError(loadOnnxModel(write("noopset.onnx", model)), "no opset_import");
}

TEST(OnnxLoaderTest, RefusesMissingAndMalformedFiles) {
  expectOneLineError(loadOnnxModel(fs::path(testing::TempDir()) / "absent.onnx"), "cannot open");
  expectOneLineError(loadOnnxModel(write("garbage.onnx", std::string("\xff\xff\xff\xff not protobuf", 18))),
                     "not a valid ONNX model");
  onnx::ModelProto model = reluModel();
  model.mutable_graph()->mutable_node(0)->set_input(0, "nowhere");
  expectOneLineError(loadOnnxModel(write("undefined.onnx", model)), "input 'nowhere' is not defined");
}

// Every prefix of a real model and 1000 randomly damaged copies: an error line or a model, never a
// crash (the damage is seeded, so a failure repeats).
TEST(OnnxLoaderTest, TruncatedAndDamagedFilesNeverCrash) {
  std::string bytes = reluModel().SerializeAsString();
  const fs::path conv = "/usr/share/libonnx-testdata/data/node/test_basic_conv_with_padding/model.onnx";
  if (fs::exists(conv)) {
    std::ifstream in(conv, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  int refused = 0;
  for (size_t length = 0; length < bytes.size(); ++length) {
    auto result = loadOnnxModel(write("truncated.onnx", bytes.substr(0, length)));
    if (!result.has_value()) {
      ++refused;
      EXPECT_EQ(result.error().message.find('\n'), std::string::npos) << result.error().message;
    }
  }
  EXPECT_GT(refused, 0);
  std::mt19937 random(17);
  for (int i = 0; i < 1000; ++i) {
    std::string damaged = bytes;
    int flips = 1 + static_cast<int>(random() % 4);
    for (int f = 0; f < flips; ++f)
      damaged[random() % damaged.size()] = static_cast<char>(random() & 0xff);
    auto result = loadOnnxModel(write("damaged.onnx", damaged));
    if (!result.has_value()) {
      EXPECT_EQ(result.error().message.find('\n'), std::string::npos) << result.error().message;
    }
  }
}

TEST(OnnxLoaderTest, CEntryPointReturnsTheModelAndNames) {
  const std::string path = write("capi.onnx", reluModel()).string();
  ANeuralNetworksModel* model = nullptr;
  uint32_t inputCount = 0, outputCount = 0;
  char** inputs = nullptr;
  char** outputs = nullptr;
  ASSERT_EQ(
      ANeuralNetworksNnrt_loadOnnxModel(path.c_str(), &model, &inputCount, &inputs, &outputCount, &outputs),
      ANEURALNETWORKS_NO_ERROR);
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(inputCount, 1u);
  ASSERT_EQ(outputCount, 1u);
  EXPECT_STREQ(inputs[0], "x");
  EXPECT_STREQ(outputs[0], "y");
  ANeuralNetworksNnrt_freeOnnxNames(inputs, inputCount);
  ANeuralNetworksNnrt_freeOnnxNames(outputs, outputCount);
  ANeuralNetworksModel_free(model);

  EXPECT_EQ(ANeuralNetworksNnrt_loadOnnxModel(nullptr, &model, &inputCount, &inputs, &outputCount, &outputs),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  const std::string bad = write("capi_bad.onnx", std::string("junk")).string();
  EXPECT_EQ(
      ANeuralNetworksNnrt_loadOnnxModel(bad.c_str(), &model, &inputCount, &inputs, &outputCount, &outputs),
      ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(model, nullptr);
  ANeuralNetworksNnrt_freeOnnxNames(nullptr, 0);
}

// One node `op` over float inputs `inputs` (name, dims) and int64 initializers `ints`, at `opset`.
struct NodeModel {
  onnx::ModelProto model;
  onnx::NodeProto* node;
};

NodeModel nodeModel(const std::string& op,
                    const std::vector<std::pair<std::string, std::vector<int64_t>>>& inputs,
                    const std::vector<std::pair<std::string, std::vector<int64_t>>>& outputs,
                    int64_t opset = 13) {
  NodeModel m{reluModel(opset), nullptr};
  auto* graph = m.model.mutable_graph();
  graph->clear_node();
  graph->clear_input();
  graph->clear_output();
  for (const auto& [name, dims] : inputs)
    addFloatInput(graph, name, dims);
  for (const auto& [name, dims] : outputs)
    addFloatInput(graph, name, dims, true);
  m.node = graph->add_node();
  m.node->set_name("n");
  m.node->set_op_type(op);
  for (const auto& [name, dims] : inputs)
    m.node->add_input(name);
  for (const auto& [name, dims] : outputs)
    m.node->add_output(name);
  return m;
}

// Adds float32 initializer `name`, and (asInput) makes it the next input of `m`'s node.
void addFloats(NodeModel& m, const std::string& name, const std::vector<int64_t>& dims,
               const std::vector<float>& values, bool asInput = true) {
  auto* t = m.model.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims)
    t->add_dims(d);
  for (float v : values)
    t->add_float_data(v);
  if (asInput) m.node->add_input(name);
}

void addInts(NodeModel& m, const std::string& name, const std::vector<int64_t>& values, bool asInput = true) {
  auto* t = m.model.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT64);
  t->add_dims(static_cast<int64_t>(values.size()));
  for (int64_t v : values)
    t->add_int64_data(v);
  if (asInput) m.node->add_input(name);
}

void setAttribute(onnx::NodeProto* node, const std::string& name, int64_t value) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}

void setAttribute(onnx::NodeProto* node, const std::string& name, const std::string& value) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(value);
}

void setAttribute(onnx::NodeProto* node, const std::string& name, const std::vector<int64_t>& values) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values)
    a->add_ints(v);
}

bool hasOperation(const LoadedModel& model, int32_t type) {
  return std::any_of(model.operations.begin(), model.operations.end(),
                     [&](const OperationRecord& r) { return r.type == type; });
}

size_t countOperations(const LoadedModel& model, int32_t type) {
  return static_cast<size_t>(std::count_if(model.operations.begin(), model.operations.end(),
                                           [&](const OperationRecord& r) { return r.type == type; }));
}

void setFloatAttribute(onnx::NodeProto* node, const std::string& name, float value) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(value);
}

// Appends node `op` to `m`'s graph, named after its first output.
onnx::NodeProto* addNode(NodeModel& m, const std::string& op, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs) {
  auto* n = m.model.mutable_graph()->add_node();
  n->set_name(outputs.at(0));
  n->set_op_type(op);
  for (const auto& in : inputs) n->add_input(in);
  for (const auto& out : outputs) n->add_output(out);
  return n;
}

void addOutput(NodeModel& m, const std::string& name, const std::vector<int64_t>& dims) {
  addFloatInput(m.model.mutable_graph(), name, dims, true);
}

// A Conv 1x1 of float input "x" (`dims`, NCHW) by `scale` times the identity (weights "w") into "c", and
// no graph output yet: the tests of the layouts the loader keeps read "c" with the operators they check.
NodeModel scaledConv(const std::vector<int64_t>& dims, float scale, int64_t opset = 13) {
  NodeModel m = nodeModel("Conv", {{"x", dims}}, {{"c", dims}}, opset);
  const int64_t channels = dims.at(1);
  std::vector<float> weights(static_cast<size_t>(channels * channels), 0.0f);
  for (int64_t k = 0; k < channels; ++k) weights[static_cast<size_t>(k * channels + k)] = scale;
  addFloats(m, "w", {channels, channels, 1, 1}, weights);
  m.model.mutable_graph()->clear_output();
  return m;
}

// CumSum of float32 (the node tests' are all double), exclusive and reverse along axis 1: by hand,
// [1, 2, 3] -> [2 + 3, 3, 0] = [5, 3, 0]; [4, 5, 6] -> [11, 6, 0].
TEST(OnnxLoaderTest, CumSumExclusiveReverse) {
  NodeModel m = nodeModel("CumSum", {{"x", {2, 3}}}, {{"y", {2, 3}}});
  addInts(m, "axis", {1});
  setAttribute(m.node, "exclusive", 1);
  setAttribute(m.node, "reverse", 1);
  auto loaded = loadOnnxModel(write("cumsum.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5, 6}}, 6), (std::vector<float>{5, 3, 0, 11, 6, 0}));
}

// CumSum along an axis longer than two blocks of 64 and not a whole number of them (300: padded to 320,
// five blocks), in all four forms, against sums in double: the blocks' own sums, then the totals of
// the blocks before each (after each, reverse) added.
TEST(OnnxLoaderTest, CumSumOfALongAxisInBlocks) {
  const size_t rows = 3, n = 300;
  std::vector<float> x(rows * n);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 19) * 0.25f - 2.0f;
  for (int exclusive : {0, 1}) {
    for (int reverse : {0, 1}) {
      SCOPED_TRACE("exclusive " + std::to_string(exclusive) + ", reverse " + std::to_string(reverse));
      NodeModel m = nodeModel("CumSum", {{"x", {3, 300}}}, {{"y", {3, 300}}});
      addInts(m, "axis", {1});
      setAttribute(m.node, "exclusive", exclusive);
      setAttribute(m.node, "reverse", reverse);
      auto loaded = loadOnnxModel(write("cumsum_long.onnx", m.model));
      ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
      const std::vector<float> got = run(*loaded, {x}, rows * n);
      ASSERT_EQ(got.size(), rows * n);
      for (size_t r = 0; r < rows; ++r) {
        for (size_t j = 0; j < n; ++j) {
          double want = 0.0;
          for (size_t i = 0; i < n; ++i) {
            const bool enters = (reverse != 0 ? i >= j : i <= j) && !(exclusive != 0 && i == j);
            if (enters) want += x[r * n + i];
          }
          ASSERT_NEAR(got[r * n + j], want, 1e-4 * (1.0 + std::fabs(want))) << "row " << r << ", element " << j;
        }
      }
    }
  }
}

// InstanceNormalization of a 3-D input [N, C, L], as PyTorch exports GroupNorm before opset 18 (x
// reshaped to [N, groups, -1]): each (n, c) row normalized over its L values, then scaled and shifted
// per channel; against the same in double.
TEST(OnnxLoaderTest, InstanceNormalizationOfThreeDimensions) {
  const size_t n = 2, c = 3, l = 50;
  NodeModel m = nodeModel("InstanceNormalization", {{"x", {2, 3, 50}}}, {{"y", {2, 3, 50}}});
  const std::vector<float> scale{0.5f, -1.0f, 2.0f}, bias{0.25f, 0.0f, -1.5f};
  addFloats(m, "scale", {3}, scale);
  addFloats(m, "bias", {3}, bias);
  setFloatAttribute(m.node, "epsilon", 0.01f);
  auto loaded = loadOnnxModel(write("instance_norm_3d.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  std::vector<float> x(n * c * l);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 29) % 23) * 0.1f - 1.0f;
  const std::vector<float> got = run(*loaded, {x}, x.size());
  ASSERT_EQ(got.size(), x.size());
  for (size_t row = 0; row < n * c; ++row) {
    double mean = 0.0, variance = 0.0;
    for (size_t i = 0; i < l; ++i) mean += x[row * l + i];
    mean /= static_cast<double>(l);
    for (size_t i = 0; i < l; ++i) variance += (x[row * l + i] - mean) * (x[row * l + i] - mean);
    variance /= static_cast<double>(l);
    for (size_t i = 0; i < l; ++i) {
      const double want = (x[row * l + i] - mean) / std::sqrt(variance + 0.01) * scale[row % c] + bias[row % c];
      ASSERT_NEAR(got[row * l + i], want, 1e-5 * (1.0 + std::fabs(want))) << "row " << row << ", element " << i;
    }
  }
}

// LpNormalization by hand on [[3, 4, 0], [1, -1, 2]]: p = 2 along the last axis (norms 5 and sqrt(6)),
// p = 1 along axis 0 (column sums of magnitudes 4, 5, 2).
TEST(OnnxLoaderTest, LpNormalizationByHand) {
  const std::vector<float> x{3, 4, 0, 1, -1, 2};
  const float r6 = 1.0f / std::sqrt(6.0f);
  struct Case {
    int64_t p, axis;
    std::vector<float> want;
  };
  for (const Case& c : {Case{2, -1, {0.6f, 0.8f, 0.0f, r6, -r6, 2 * r6}}, Case{1, 0, {0.75f, 0.8f, 0.0f, 0.25f, -0.2f, 1.0f}}}) {
    SCOPED_TRACE("p " + std::to_string(c.p));
    NodeModel m = nodeModel("LpNormalization", {{"x", {2, 3}}}, {{"y", {2, 3}}});
    setAttribute(m.node, "p", c.p);
    setAttribute(m.node, "axis", c.axis);
    auto loaded = loadOnnxModel(write("lp_norm.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    const std::vector<float> got = run(*loaded, {x}, 6);
    ASSERT_EQ(got.size(), 6u);
    for (size_t i = 0; i < 6; ++i) EXPECT_NEAR(got[i], c.want[i], 1e-6) << i;
  }
}

// Einsum by the definition: every assignment of the equation's letters (`letters` in order, sizes
// `sizes`) adds the product of the operands' elements it names to the output element it names.
std::vector<float> einsumBySums(const std::vector<std::string>& terms, const std::string& out,
                                const std::map<char, int>& sizes, const std::vector<std::vector<float>>& xs) {
  std::vector<char> letters;
  for (const auto& [c, n] : sizes) letters.push_back(c);
  auto offset = [&](const std::string& term, const std::map<char, int>& at) {
    size_t o = 0;
    for (char c : term) o = o * static_cast<size_t>(sizes.at(c)) + static_cast<size_t>(at.at(c));
    return o;
  };
  size_t outCount = 1;
  for (char c : out) outCount *= static_cast<size_t>(sizes.at(c));
  std::vector<double> sums(outCount, 0.0);
  std::map<char, int> at;
  for (char c : letters) at[c] = 0;
  while (true) {
    double product = 1.0;
    for (size_t i = 0; i < terms.size(); ++i) product *= xs[i][offset(terms[i], at)];
    sums[offset(out, at)] += product;
    size_t k = letters.size();
    while (k > 0 && ++at[letters[k - 1]] == sizes.at(letters[k - 1])) at[letters[--k]] = 0;
    if (k == 0) break;
  }
  return std::vector<float>(sums.begin(), sums.end());
}

// Einsum of float32 operands (the node tests' are all double) against the sums of its definition:
// batched products with either operand read adjoint (attention's scores), a contraction over two
// letters, an outer product, implicit outputs, a sum to a scalar, a transpose and an ellipsis diagonal.
TEST(OnnxLoaderTest, EinsumMatchesTheSumsOfItsDefinition) {
  struct Case {
    std::string equation;                     // as the model has it
    std::vector<std::string> terms;           // the same with letters only, for einsumBySums
    std::string out;
    std::map<char, int> sizes;
  };
  const std::vector<Case> cases = {
      {"bhqd,bhkd->bhqk", {"bhqd", "bhkd"}, "bhqk", {{'b', 2}, {'h', 2}, {'q', 3}, {'k', 4}, {'d', 5}}},
      {"bij, bjk -> bik", {"bij", "bjk"}, "bik", {{'b', 3}, {'i', 2}, {'j', 3}, {'k', 4}}},
      {"ji,jk->ik", {"ji", "jk"}, "ik", {{'i', 2}, {'j', 3}, {'k', 4}}},
      {"ijk,ikl->jl", {"ijk", "ikl"}, "jl", {{'i', 2}, {'j', 3}, {'k', 4}, {'l', 5}}},
      {"i,j->ij", {"i", "j"}, "ij", {{'i', 3}, {'j', 4}}},
      {"ij,jk", {"ij", "jk"}, "ik", {{'i', 2}, {'j', 3}, {'k', 4}}},
      {"ij->", {"ij"}, "", {{'i', 3}, {'j', 4}}},
      {"ij->ji", {"ij"}, "ji", {{'i', 3}, {'j', 4}}},
      {"...ii->...i", {"aii"}, "ai", {{'a', 3}, {'i', 4}}},
  };
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.equation);
    std::vector<std::pair<std::string, std::vector<int64_t>>> inputs;
    std::vector<std::vector<float>> xs;
    for (size_t i = 0; i < c.terms.size(); ++i) {
      std::vector<int64_t> dims;
      size_t count = 1;
      for (char letter : c.terms[i]) {
        dims.push_back(c.sizes.at(letter));
        count *= static_cast<size_t>(c.sizes.at(letter));
      }
      inputs.push_back({"x" + std::to_string(i), dims});
      std::vector<float> x(count);
      for (float& v : x) v = uniform(rng);
      xs.push_back(x);
    }
    std::vector<int64_t> outDims;
    for (char letter : c.out) outDims.push_back(c.sizes.at(letter));
    NodeModel m = nodeModel("Einsum", inputs, {{"y", outDims}}, 12);
    setAttribute(m.node, "equation", c.equation);
    auto loaded = loadOnnxModel(write("einsum.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    const std::vector<float> want = einsumBySums(c.terms, c.out, c.sizes, xs);
    const std::vector<float> got = run(*loaded, xs, want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "element " << i;
  }
}

// What Einsum cannot map says so: three operands, broadcasting, integers, a subscript only the output has.
TEST(OnnxLoaderTest, EinsumRefusesWhatItCannotMap) {
  struct Case {
    std::string equation;
    std::vector<std::pair<std::string, std::vector<int64_t>>> inputs;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {"i,i,i->i", {{"a", {2}}, {"b", {2}}, {"c", {2}}}, "only one or two operands"},
      {"ij,jk->ik", {{"a", {2, 3}}, {"b", {1, 4}}}, "broadcasting"},
      {"ij->ik", {{"a", {2, 3}}}, "no operand has"},
      {"ij->i", {{"a", {2, 3, 4}}}, "rank"},
  };
  for (const Case& c : cases) {
    NodeModel m = nodeModel("Einsum", c.inputs, {{"y", {2}}}, 12);
    setAttribute(m.node, "equation", c.equation);
    expectOneLineError(loadOnnxModel(write("einsum_refused.onnx", m.model)), c.reason);
  }
}

// ScatterElements' max and min reductions (opset 18; the node tests have none and add): two writes to
// position 1 combine in order, by hand max(max(2, 7), 0) = 7 and min(min(2, 7), 0) = 0; position 3 takes
// max(4, -1) = 4 and min(4, -1) = -1; the others keep the data.
TEST(OnnxLoaderTest, ScatterElementsMaxAndMinReductions) {
  for (const std::string reduction : {"max", "min"}) {
    NodeModel m = nodeModel("ScatterElements", {{"data", {1, 5}}}, {{"y", {1, 5}}}, 18);
    auto* t = m.model.mutable_graph()->add_initializer();
    t->set_name("indices");
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(1);
    t->add_dims(3);
    for (int64_t v : {1, 1, -2}) t->add_int64_data(v);  // -2: position 3
    m.node->add_input("indices");
    addFloats(m, "updates", {1, 3}, {7, 0, -1});
    setAttribute(m.node, "axis", int64_t{1});
    setAttribute(m.node, "reduction", reduction);
    auto loaded = loadOnnxModel(write("scatter_reduce.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5}}, 5),
              reduction == "max" ? (std::vector<float>{1, 7, 3, 4, 5}) : (std::vector<float>{1, 0, 3, -1, 5}));
  }
}

// ScatterND writes whole slices: index [-1] into data [2, 3] replaces its last row, by hand.
TEST(OnnxLoaderTest, ScatterNDReplacesSlices) {
  NodeModel m = nodeModel("ScatterND", {{"data", {2, 3}}}, {{"y", {2, 3}}}, 16);
  auto* t = m.model.mutable_graph()->add_initializer();
  t->set_name("indices");
  t->set_data_type(onnx::TensorProto::INT64);
  t->add_dims(1);
  t->add_dims(1);
  t->add_int64_data(-1);
  m.node->add_input("indices");
  addFloats(m, "updates", {1, 3}, {7, 8, 9});
  auto loaded = loadOnnxModel(write("scatternd.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5, 6}}, 6), (std::vector<float>{1, 2, 3, 7, 8, 9}));
}

// GridSample, bilinear with align_corners on the image [[1, 2, 3], [4, 5, 6]], by hand: grid (0, 0) is
// position (x 1, y 0.5), between 2 and 5: 3.5 in every padding mode; grid (1.5, -1) is (2.5, 0), past the
// right edge by 0.5: zeros weighs 3 and a 0 half each (1.5), border takes the edge (3), reflection
// reflects to 1.5 (2.5). The node tests check each mode against ONNX's own outputs.
TEST(OnnxLoaderTest, GridSamplePaddingModesByHand) {
  for (const auto& [padding, want] : std::vector<std::pair<std::string, float>>{
           {"zeros", 1.5f}, {"border", 3.0f}, {"reflection", 2.5f}}) {
    NodeModel m = nodeModel("GridSample", {{"x", {1, 1, 2, 3}}, {"grid", {1, 1, 2, 2}}}, {{"y", {1, 1, 1, 2}}}, 16);
    setAttribute(m.node, "align_corners", int64_t{1});
    setAttribute(m.node, "padding_mode", padding);
    auto loaded = loadOnnxModel(write("gridsample.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5, 6}, {0, 0, 1.5f, -1}}, 2), (std::vector<float>{3.5f, want})) << padding;
  }
}

// Before opset 7 Add broadcasts only with broadcast = 1, B lined up with A from `axis`: A [2, 3, 2] plus
// B = [10, 20, 30] at axis 1 adds 10, 20, 30 to A's rows of each batch entry (by hand); without axis B
// lines up with A's end. At opset 7 the attributes do not exist: refused.
TEST(OnnxLoaderTest, LegacyBroadcastLinesUpAtTheAxis) {
  for (const int64_t axis : {int64_t{1}, int64_t{-1}}) {
    NodeModel m = nodeModel("Add", {{"a", {2, 3, 2}}}, {{"y", {2, 3, 2}}}, 6);
    addFloats(m, "b", {axis == 1 ? 3 : 2}, axis == 1 ? std::vector<float>{10, 20, 30} : std::vector<float>{10, 20});
    setAttribute(m.node, "broadcast", int64_t{1});
    if (axis == 1) setAttribute(m.node, "axis", axis);
    auto loaded = loadOnnxModel(write("legacy_add.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(run(*loaded, {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}, 12),
              axis == 1 ? (std::vector<float>{10, 11, 22, 23, 34, 35, 16, 17, 28, 29, 40, 41})
                        : (std::vector<float>{10, 21, 12, 23, 14, 25, 16, 27, 18, 29, 20, 31}));
  }
  NodeModel m = nodeModel("Add", {{"a", {2, 3, 2}}}, {{"y", {2, 3, 2}}}, 7);
  addFloats(m, "b", {3}, {10, 20, 30});
  setAttribute(m.node, "broadcast", int64_t{1});
  expectOneLineError(loadOnnxModel(write("legacy_add7.onnx", m.model)), "attribute 'broadcast'");
}

// 5-D values as YOLOv5's head makes them (NNAPI's operations take rank 4 at most: held as [d0 * d1, d2,
// d3, d4]). x = [0..7] as [1, 4, 1, 2] reshaped to [1, 2, 2, 1, 2] (element (a, k, 0, w) = 4a + 2k + w),
// transposed by [0, 1, 3, 4, 2] to (a, 0, w, k), plus a 5-D constant of 100 a, split on the last axis and
// concatenated the other way round (k' = 1 - k), reshaped to [1, 8]: by hand 2 0 3 1 106 104 107 105.
// A Transpose that moves the first two axes, and an operator that cannot take 5-D values, are refused.
TEST(OnnxLoaderTest, FiveDimensionalValuesOfADetectionHead) {
  // x [1, 4, 1, 2] reshaped to "r" [1, 2, 2, 1, 2], no graph output yet.
  auto reshaped = [] {
    NodeModel m = nodeModel("Reshape", {{"x", {1, 4, 1, 2}}}, {}, 13);
    m.model.mutable_graph()->clear_output();
    addInts(m, "shape5", {1, 2, 2, 1, 2});
    m.node->add_output("r");
    return m;
  };
  NodeModel m = reshaped();
  setAttribute(addNode(m, "Transpose", {"r"}, {"t"}), "perm", std::vector<int64_t>{0, 1, 3, 4, 2});
  addFloats(m, "g", {1, 2, 1, 2, 2}, {0, 0, 0, 0, 100, 100, 100, 100}, false);
  addNode(m, "Add", {"t", "g"}, {"s"});
  addInts(m, "halves", {1, 1}, false);
  setAttribute(addNode(m, "Split", {"s", "halves"}, {"k0", "k1"}), "axis", int64_t{4});
  setAttribute(addNode(m, "Concat", {"k1", "k0"}, {"c"}), "axis", int64_t{4});
  addInts(m, "flat", {1, 8}, false);
  addNode(m, "Reshape", {"c", "flat"}, {"y"});
  addOutput(m, "y", {1, 8});
  auto loaded = loadOnnxModel(write("five_d.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(run(*loaded, {{0, 1, 2, 3, 4, 5, 6, 7}}, 8), (std::vector<float>{2, 0, 3, 1, 106, 104, 107, 105}));

  NodeModel moved = reshaped();
  setAttribute(addNode(moved, "Transpose", {"r"}, {"t"}), "perm", std::vector<int64_t>{1, 0, 2, 3, 4});
  addOutput(moved, "t", {2, 1, 2, 1, 2});
  expectOneLineError(loadOnnxModel(write("five_d_moved.onnx", moved.model)), "moves the first two axes");

  NodeModel other = reshaped();
  addNode(other, "Softmax", {"r"}, {"p"});
  addOutput(other, "p", {1, 2, 2, 1, 2});
  expectOneLineError(loadOnnxModel(write("five_d_softmax.onnx", other.model)), "5-D value");
}

// Hardmax before opset 13 takes the input as 2-D rows [before axis, from axis]: x = [[[1, 5], [3, 2]]]
// with axis 1 is one row [1, 5, 3, 2], whose maximum is element 1; opset 13 takes the maxima along
// axis 1 alone (columns [1, 3] and [5, 2]: elements (1, 0) and (0, 1)).
TEST(OnnxLoaderTest, HardmaxCoercesTo2DBeforeOpset13) {
  for (int64_t opset : {11, 13}) {
    NodeModel m = nodeModel("Hardmax", {{"x", {1, 2, 2}}}, {{"y", {1, 2, 2}}}, opset);
    setAttribute(m.node, "axis", 1);
    auto loaded = loadOnnxModel(write("hardmax.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(run(*loaded, {{1, 5, 3, 2}}, 4),
              opset == 11 ? (std::vector<float>{0, 1, 0, 0}) : (std::vector<float>{0, 1, 1, 0}))
        << "opset " << opset;
  }
}

// Resize nearest: where NNAPI's RESIZE_NEAREST_NEIGHBOR picks ONNX's pixels it runs (2x2 -> 4x4,
// asymmetric, floor: rows and columns 0, 0, 1, 1); where none does (asymmetric, ceil: source o / 2 =
// 0, 0.5, 1, 1.5 -> 0, 1, 1, 2 clamped to 1) the rows and columns are GATHERed.
TEST(OnnxLoaderTest, ResizeNearestNativeOrGathered) {
  for (const char* rounding : {"floor", "ceil"}) {
    NodeModel m = nodeModel("Resize", {{"x", {1, 1, 2, 2}}}, {{"y", {1, 1, 4, 4}}});
    m.node->add_input("");
    m.node->add_input("");
    addInts(m, "sizes", {1, 1, 4, 4});
    setAttribute(m.node, "mode", std::string("nearest"));
    setAttribute(m.node, "coordinate_transformation_mode", std::string("asymmetric"));
    setAttribute(m.node, "nearest_mode", std::string(rounding));
    auto loaded = loadOnnxModel(write("resize.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    const bool floor = std::string(rounding) == "floor";
    EXPECT_EQ(hasOperation(*loaded, ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR), floor) << rounding;
    EXPECT_EQ(hasOperation(*loaded, ANEURALNETWORKS_GATHER), !floor) << rounding;
    std::vector<float> want = floor ? std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}
                                    : std::vector<float>{1, 2, 2, 2, 3, 4, 4, 4, 3, 4, 4, 4, 3, 4, 4, 4};
    EXPECT_EQ(run(*loaded, {{1, 2, 3, 4}}, 16), want) << rounding;
  }
}

// Cos, Tan, Sinh and Cosh are compositions of SIN and EXP: compared with the C library's functions.
TEST(OnnxLoaderTest, TrigonometricCompositionsMatchTheCLibrary) {
  const std::vector<float> x{0.0f, 0.5f, -1.25f, 2.0f};
  for (const char* op : {"Cos", "Tan", "Sinh", "Cosh"}) {
    NodeModel m = nodeModel(op, {{"x", {4}}}, {{"y", {4}}});
    auto loaded = loadOnnxModel(write("trig.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    std::vector<float> got = run(*loaded, {x}, 4);
    for (size_t i = 0; i < x.size(); ++i) {
      double want = std::string(op) == "Cos"    ? std::cos(double{x[i]})
                    : std::string(op) == "Tan"  ? std::tan(double{x[i]})
                    : std::string(op) == "Sinh" ? std::sinh(double{x[i]})
                                                : std::cosh(double{x[i]});
      EXPECT_NEAR(got[i], want, 1e-7 + 1e-5 * std::fabs(want)) << op << "(" << x[i] << ")";
    }
  }
}

// Erf (a composition: NNAPI has none) against the C library's erf in double precision, over 4001
// points of [-5, 5] (both sides of the |x| = 0.5 seam, tiny values, the tails) and a few chosen ones.
TEST(OnnxLoaderTest, ErfMatchesTheCLibrary) {
  std::vector<float> x;
  for (int i = -2000; i <= 2000; ++i) x.push_back(static_cast<float>(i) / 400.0f);
  for (float v : {1e-6f, -3e-4f, 0.4999999f, 0.5f, 0.5000001f, -0.5f, 9.0f, -30.0f}) x.push_back(v);
  const int64_t n = static_cast<int64_t>(x.size());
  NodeModel m = nodeModel("Erf", {{"x", {n}}}, {{"y", {n}}});
  auto loaded = loadOnnxModel(write("erf.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  std::vector<float> got = run(*loaded, {x}, x.size());
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = std::erf(double{x[i]});
    worst = std::max(worst, std::fabs(got[i] - want) / (1e-7 + std::fabs(want)));
    ASSERT_NEAR(got[i], want, 2.5e-7 + 2e-6 * std::fabs(want)) << "erf(" << x[i] << ")";
  }
  std::printf("Erf: worst |error| / (1e-7 + |erf x|) = %.3g\n", worst);
}

// A one-node float32 model of `op` over `x` against the C library's `reference` in double: NaN and the
// infinities where it gives them, finite values within `relative` of the value (1e-30 floor, as exact
// zeros are); returns and prints the worst relative error.
double matchesTheCLibrary(const std::string& op, double (*reference)(double), const std::vector<float>& x,
                          double relative) {
  const int64_t n = static_cast<int64_t>(x.size());
  NodeModel m = nodeModel(op, {{"x", {n}}}, {{"y", {n}}});
  auto loaded = loadOnnxModel(write(op + ".onnx", m.model));
  EXPECT_TRUE(loaded.has_value()) << loaded.error().message;
  if (!loaded.has_value()) return 0;
  std::vector<float> got = run(*loaded, {x}, x.size());
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = reference(double{x[i]});
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got[i])) << op << "(" << x[i] << ") = " << got[i];
    } else if (std::isinf(want)) {
      EXPECT_EQ(got[i], want) << op << "(" << x[i] << ")";
    } else {
      const double error = std::fabs(got[i] - want) / std::max(std::fabs(want), 1e-30);
      worst = std::max(worst, error);
      EXPECT_LE(error, relative) << op << "(" << x[i] << ") = " << got[i] << ", not " << want;
    }
  }
  std::printf("%s: worst relative error %.3g over %zu inputs\n", op.c_str(), worst, x.size());
  return worst;
}

// Inputs of -limit..limit in steps of limit / 40000, +-10^(k/500) for k = -4000..4000 (1e-8..1e8), then
// `extra`.
std::vector<float> spanning(float limit, std::initializer_list<float> extra) {
  std::vector<float> x;
  for (int i = -40000; i <= 40000; ++i) x.push_back(limit * static_cast<float>(i) / 40000.0f);
  for (int k = -4000; k <= 4000; ++k) {
    x.push_back(static_cast<float>(std::pow(10.0, k / 500.0)));
    x.push_back(-x.back());
  }
  x.insert(x.end(), extra);
  return x;
}

const float kInfinity = std::numeric_limits<float>::infinity();

double cAsin(double v) { return std::asin(v); }
double cAcos(double v) { return std::acos(v); }
double cAtan(double v) { return std::atan(v); }
double cAsinh(double v) { return std::asinh(v); }
double cAcosh(double v) { return std::acosh(v); }
double cAtanh(double v) { return std::atanh(v); }

// The compositions of operators_elementwise.cpp (float32 rounding and NNAPI's LOG cost a few ulps) within
// 3e-7 of the value over about 1e5 inputs each (a sweep of 1e6 found at most 2.3e-7); NaN beyond +-1,
// +-pi/2, pi and 0 at the ends.
TEST(OnnxLoaderTest, AsinAndAcosMatchTheCLibrary) {
  const auto x = spanning(1.0f, {1e-30f, 0.99999994f, -0.99999994f, 0.9999f, -0.9999f, 1.0000001f,
                                 -1.0000001f, kInfinity, -kInfinity});
  matchesTheCLibrary("Asin", cAsin, x, 3e-7);
  matchesTheCLibrary("Acos", cAcos, x, 3e-7);
}

// Atan across its reductions (their edges tan(pi/8) and tan(3pi/8) included) out to the infinities.
TEST(OnnxLoaderTest, AtanMatchesTheCLibrary) {
  const float tan8 = static_cast<float>(std::tan(M_PI / 8));
  const float tan38 = static_cast<float>(std::tan(3 * M_PI / 8));
  const auto x = spanning(10.0f, {-1e-30f, tan8, std::nextafter(tan8, 1.0f), tan38,
                                  std::nextafter(tan38, 3.0f), 1e30f, 3e38f, kInfinity, -kInfinity});
  matchesTheCLibrary("Atan", cAtan, x, 3e-7);
}

// Asinh and Acosh on both sides of 2^12 (where log 2x takes over) out to the infinities, Acosh NaN below 1;
// Atanh +-inf at +-1, NaN beyond.
TEST(OnnxLoaderTest, AsinhAcoshAndAtanhMatchTheCLibrary) {
  matchesTheCLibrary("Asinh", cAsinh,
                     spanning(10.0f, {1e-30f, 4095.0f, 4096.0f, 4097.0f, -4097.0f, 1e30f, 3e38f, kInfinity,
                                      -kInfinity}),
                     3e-7);
  std::vector<float> x = {1.0000001f, 1.001f, 4095.0f, 4096.0f, 4097.0f, 1e30f, 3e38f, kInfinity,
                          0.99999994f, 0.0f, -1.0f, -5.0f, -kInfinity};
  for (int i = 0; i <= 80000; ++i) x.push_back(1.0f + static_cast<float>(i) / 4000.0f);
  for (int k = 0; k <= 4000; ++k) x.push_back(static_cast<float>(std::pow(10.0, k / 500.0)));  // 1..1e8
  matchesTheCLibrary("Acosh", cAcosh, x, 3e-7);
  matchesTheCLibrary("Atanh", cAtanh,
                     spanning(1.0f, {1e-30f, 0.99999994f, -0.99999994f, 0.9999f, -0.9999f, 1.0000001f, -2.0f,
                                     kInfinity}),
                     3e-7);
}

// The six are float32 compositions: an int32 input is refused, naming the node and the reason.
TEST(OnnxLoaderTest, InverseTrigonometricRefusesIntegers) {
  for (const char* op : {"Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh"}) {
    NodeModel m = nodeModel(op, {{"x", {2}}}, {{"y", {2}}});
    auto* graph = m.model.mutable_graph();
    graph->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT32);
    graph->mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT32);
    expectOneLineError(loadOnnxModel(write("inverse_int.onnx", m.model)),
                       "node 'n' (" + std::string(op) + "): only float32 tensors are supported");
  }
}

// MatMul of a 3-D A by a constant matrix B (a transformer's projection) is one FULLY_CONNECTED over
// A's rows: A [2, 2, 3] = 1..12, B [3, 2] = [[1, 0], [0, 1], [1, 1]] -> each row (a, b, c) to (a + c, b + c).
TEST(OnnxLoaderTest, MatMulOfABatchByAConstantMatrix) {
  NodeModel m = nodeModel("MatMul", {{"a", {2, 2, 3}}}, {{"y", {2, 2, 2}}});
  addFloats(m, "w", {3, 2}, {1, 0, 0, 1, 1, 1});
  auto loaded = loadOnnxModel(write("matmul3d.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_TRUE(hasOperation(*loaded, ANEURALNETWORKS_FULLY_CONNECTED));
  EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}, 8),
            (std::vector<float>{4, 5, 10, 11, 16, 17, 22, 23}));
}

// A 2-D A by a constant matrix (tf2onnx's dense layer) is the same FULLY_CONNECTED without reshapes, its
// weights packed by the cpu device instead of read in place by a BATCH_MATMUL: A [3, 3] = 1..9, B as above,
// then a one-row A [1, 3] = (2, -1, 5) -> (7, 4).
TEST(OnnxLoaderTest, MatMulOfAMatrixByAConstantMatrix) {
  NodeModel m = nodeModel("MatMul", {{"a", {3, 3}}}, {{"y", {3, 2}}});
  addFloats(m, "w", {3, 2}, {1, 0, 0, 1, 1, 1});
  auto loaded = loadOnnxModel(write("matmul2d.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_TRUE(hasOperation(*loaded, ANEURALNETWORKS_FULLY_CONNECTED));
  EXPECT_FALSE(hasOperation(*loaded, ANEURALNETWORKS_BATCH_MATMUL));
  EXPECT_FALSE(hasOperation(*loaded, ANEURALNETWORKS_RESHAPE));
  EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5, 6, 7, 8, 9}}, 6), (std::vector<float>{4, 5, 10, 11, 16, 17}));
  NodeModel row = nodeModel("MatMul", {{"a", {1, 3}}}, {{"y", {1, 2}}});
  addFloats(row, "w", {3, 2}, {1, 0, 0, 1, 1, 1});
  auto oneRow = loadOnnxModel(write("matmul_row.onnx", row.model));
  ASSERT_TRUE(oneRow.has_value()) << oneRow.error().message;
  EXPECT_EQ(run(*oneRow, {{2, -1, 5}}, 2), (std::vector<float>{7, 4}));
}

// The Add of a constant vector after such a MatMul becomes the FULLY_CONNECTED's bias (no ADD left):
// the rows above plus bias (100, 200); a second model whose MatMul result is also a graph output keeps its
// ADD, with the same sums.
TEST(OnnxLoaderTest, MatMulByAConstantMatrixTakesTheFollowingBias) {
  for (bool alsoOutput : {false, true}) {
    NodeModel m = nodeModel("MatMul", {{"a", {2, 2, 3}}}, {{"p", {2, 2, 2}}});
    addFloats(m, "w", {3, 2}, {1, 0, 0, 1, 1, 1});
    addFloats(m, "bias", {1, 2}, {100, 200}, false);
    auto* graph = m.model.mutable_graph();
    auto* add = graph->add_node();
    add->set_name("add");
    add->set_op_type("Add");
    add->add_input("bias");  // either side
    add->add_input("p");
    add->add_output("y");
    if (!alsoOutput) graph->clear_output();
    addFloatInput(graph, "y", {2, 2, 2}, true);
    auto loaded = loadOnnxModel(write("matmul_bias.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(hasOperation(*loaded, ANEURALNETWORKS_ADD), alsoOutput);
    EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}, 8, alsoOutput ? 1 : 0),
              (std::vector<float>{104, 205, 110, 211, 116, 217, 122, 223}));
  }
}

// A node without a name (exporters often leave it empty) is named in errors by its first output.
TEST(OnnxLoaderTest, AnUnnamedNodeIsNamedByItsOutput) {
  NodeModel mod = nodeModel("Mod", {{"a", {2}}, {"b", {2}}}, {{"y", {2}}});
  mod.node->clear_name();
  setAttribute(mod.node, "fmod", 1);
  expectOneLineError(loadOnnxModel(write("unnamed.onnx", mod.model)),
                     "the node writing 'y' (Mod): only integer tensors");
}

// What the new mappings cannot compute exactly is refused, naming the node and the reason.
TEST(OnnxLoaderTest, RefusesWhatTheNewMappingsCannotComputeExactly) {
  NodeModel crop = nodeModel("Resize", {{"x", {1, 1, 2, 2}}}, {{"y", {1, 1, 4, 4}}});
  crop.node->add_input("");
  crop.node->add_input("");
  addInts(crop, "sizes", {1, 1, 4, 4});
  setAttribute(crop.node, "coordinate_transformation_mode", std::string("tf_crop_and_resize"));
  expectOneLineError(loadOnnxModel(write("crop.onnx", crop.model)),
                     "node 'n' (Resize): tf_crop_and_resize is not supported");

  NodeModel mod = nodeModel("Mod", {{"a", {2}}, {"b", {2}}}, {{"y", {2}}});
  setAttribute(mod.node, "fmod", 1);
  expectOneLineError(loadOnnxModel(write("mod.onnx", mod.model)), "node 'n' (Mod): only integer tensors");

  NodeModel topk = nodeModel("TopK", {{"x", {4}}}, {{"v", {2}}, {"i", {2}}});
  addInts(topk, "k", {2});
  setAttribute(topk.node, "sorted", 0);
  expectOneLineError(loadOnnxModel(write("topk.onnx", topk.model)), "node 'n' (TopK): sorted 0");

  NodeModel norm = nodeModel("LayerNormalization", {{"x", {2, 2}}, {"s", {2}}}, {{"y", {2, 2}}}, 17);
  setAttribute(norm.node, "stash_type", 11);
  expectOneLineError(loadOnnxModel(write("layernorm.onnx", norm.model)),
                     "node 'n' (LayerNormalization): stash_type other than float");

  NodeModel deconv = nodeModel("ConvTranspose", {{"x", {1, 2, 2, 2}}}, {{"y", {1, 2, 3, 3}}});
  auto* w = deconv.model.mutable_graph()->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : {2, 1, 2, 2})
    w->add_dims(d);
  for (int i = 0; i < 8; ++i)
    w->add_float_data(1.0f);
  deconv.node->add_input("w");
  setAttribute(deconv.node, "group", 2);
  expectOneLineError(loadOnnxModel(write("deconv.onnx", deconv.model)),
                     "node 'n' (ConvTranspose): group other than 1 has no NNAPI operation");

  for (const auto& [op, direction] :
       {std::pair<std::string, std::string>{"RNN", "sideways"}, {"LSTM", "sideways"}}) {
    NodeModel recurrent = nodeModel(op, {{"x", {1, 1, 2}}}, {{"y", {1, 1, 1, 1}}});
    setAttribute(recurrent.node, "direction", direction);
    expectOneLineError(loadOnnxModel(write("recurrent.onnx", recurrent.model)),
                       "node 'n' (" + op + "): direction '" + direction + "' is not supported");
  }
}

// Add then Relu: the Relu joins ADD as its fused activation (one operation, as an NNAPI model written by
// hand), unless the sum is read elsewhere (here: also a graph output). By hand: [1, -2] + [-3, 1] =
// [-2, -1] -> relu [0, 0]; [1, 2] + [3, -4] = [4, -2] -> [4, 0].
TEST(OnnxLoaderTest, FusesAReluIntoTheOperationBefore) {
  for (bool sumIsOutput : {false, true}) {
    NodeModel m = nodeModel("Add", {{"a", {2, 2}}, {"b", {2, 2}}}, {{"s", {2, 2}}});
    auto* graph = m.model.mutable_graph();
    if (!sumIsOutput) graph->clear_output();
    addFloatInput(graph, "y", {2, 2}, true);
    auto* relu = graph->add_node();
    relu->set_name("r");
    relu->set_op_type("Relu");
    relu->add_input("s");
    relu->add_output("y");
    auto loaded = loadOnnxModel(write("fuse.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(loaded->operations.size(), sumIsOutput ? 2u : 1u);
    EXPECT_EQ(hasOperation(*loaded, ANEURALNETWORKS_RELU), sumIsOutput);
    ANeuralNetworksCompilation* compilation = nullptr;
    ASSERT_EQ(ANeuralNetworksCompilation_create(loaded->model.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution* execution = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
    std::vector<float> a{1, -2, 1, 2}, b{-3, 1, 3, -4}, sum(4), y(4);
    ANeuralNetworksExecution_setInput(execution, 0, nullptr, a.data(), 16);
    ANeuralNetworksExecution_setInput(execution, 1, nullptr, b.data(), 16);
    int32_t index = 0;
    if (sumIsOutput) ANeuralNetworksExecution_setOutput(execution, index++, nullptr, sum.data(), 16);
    ANeuralNetworksExecution_setOutput(execution, index, nullptr, y.data(), 16);
    EXPECT_EQ(ANeuralNetworksExecution_compute(execution), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(y, (std::vector<float>{0, 0, 4, 0}));
    if (sumIsOutput) {
      EXPECT_EQ(sum, (std::vector<float>{-2, -1, 4, -2}));
    }
    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
  }
}

// Convolutions run as NHWC inside the model; what reads their result in ONNX's NCHW gets it back in that
// layout. Conv 1x1 with weights 2 * identity over x [1, 2, 1, 2] gives 2x; Identity of it is 2x, the Sum
// of it and x is 3x (channel-major, as ONNX lays it out).
TEST(OnnxLoaderTest, NhwcConvolutionResultsReadInOnnxLayout) {
  for (const char* reader : {"Identity", "Sum"}) {
    NodeModel m = nodeModel("Conv", {{"x", {1, 2, 1, 2}}}, {{"c", {1, 2, 1, 2}}});
    auto* graph = m.model.mutable_graph();
    auto* w = graph->add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : {2, 2, 1, 1})
      w->add_dims(d);
    for (float v : {2.0f, 0.0f, 0.0f, 2.0f})
      w->add_float_data(v);
    m.node->add_input("w");
    graph->clear_output();
    addFloatInput(graph, "y", {1, 2, 1, 2}, true);
    auto* next = graph->add_node();
    next->set_name("r");
    next->set_op_type(reader);
    next->add_input("c");
    if (std::string(reader) == "Sum") next->add_input("x");
    next->add_output("y");
    auto loaded = loadOnnxModel(write("nhwc.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_TRUE(hasOperation(*loaded, ANEURALNETWORKS_TRANSPOSE)) << reader;
    const float k = std::string(reader) == "Sum" ? 3.0f : 2.0f;
    EXPECT_EQ(run(*loaded, {{1, 2, 3, 4}}, 4), (std::vector<float>{k * 1, k * 2, k * 3, k * 4})) << reader;
  }
}

// Element-wise arithmetic between NHWC images, or of one with a value per channel or a single value,
// stays NHWC: only the model input and output are TRANSPOSEd. x [1, 2, 1, 2] (channels [1, 2] and
// [3, 4]); c1 = Conv 1x1 2 * identity = 2x, c2 = Conv 1x1 3 * identity = 3x, s = c1 + c2 = 5x,
// m = s * [10, 100] per channel ([1, 2, 1, 1]), y = m - 1: [49, 99, 1499, 1999]; and 1 - m with the
// image second: [-49, -99, -1499, -1999].
TEST(OnnxLoaderTest, ElementwiseArithmeticBetweenNhwcImagesStaysNhwc) {
  for (bool imageFirst : {true, false}) {
    NodeModel m = nodeModel("Conv", {{"x", {1, 2, 1, 2}}}, {{"c1", {1, 2, 1, 2}}});
    auto* graph = m.model.mutable_graph();
    auto addInitializer = [&](const char* name, std::vector<int64_t> dims, std::vector<float> values) {
      auto* t = graph->add_initializer();
      t->set_name(name);
      t->set_data_type(onnx::TensorProto::FLOAT);
      for (int64_t d : dims) t->add_dims(d);
      for (float v : values) t->add_float_data(v);
    };
    addInitializer("w1", {2, 2, 1, 1}, {2, 0, 0, 2});
    addInitializer("w2", {2, 2, 1, 1}, {3, 0, 0, 3});
    addInitializer("scale", {1, 2, 1, 1}, {10, 100});
    addInitializer("one", {}, {1});
    m.node->add_input("w1");
    graph->clear_output();
    addFloatInput(graph, "y", {1, 2, 1, 2}, true);
    auto addNode = [&](const char* op, std::vector<std::string> inputs, const char* output) {
      auto* n = graph->add_node();
      n->set_name(std::string(op) + output);
      n->set_op_type(op);
      for (const std::string& in : inputs) n->add_input(in);
      n->add_output(output);
      return n;
    };
    addNode("Conv", {"x", "w2"}, "c2");
    addNode("Add", {"c1", "c2"}, "s");
    addNode("Mul", {"scale", "s"}, "m");
    if (imageFirst) {
      addNode("Sub", {"m", "one"}, "y");
    } else {
      addNode("Sub", {"one", "m"}, "y");
    }
    auto loaded = loadOnnxModel(write("nhwc_elementwise.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    size_t transposes = 0;
    for (const auto& op : loaded->operations) transposes += op.type == ANEURALNETWORKS_TRANSPOSE;
    EXPECT_EQ(transposes, 2u);  // x to NHWC, y back
    const float sign = imageFirst ? 1.0f : -1.0f;
    EXPECT_EQ(run(*loaded, {{1, 2, 3, 4}}, 4), (std::vector<float>{sign * 49, sign * 99, sign * 1499, sign * 1999}));
  }
}

// LeakyRelu and Elu of an NHWC image stay NHWC (element-wise): only x and y are TRANSPOSEd. x [1, 2, 1, 2]
// = [1, -2, 3, -4]; c = Conv 1x1 2 * identity = [2, -4, 6, -8]; LeakyRelu(0.1): [2, -0.4, 6, -0.8];
// Elu(1): [2, expm1(-4), 6, expm1(-8)].
TEST(OnnxLoaderTest, LeakyReluAndEluOfAnNhwcImageStayNhwc) {
  for (const char* op : {"LeakyRelu", "Elu"}) {
    NodeModel m = scaledConv({1, 2, 1, 2}, 2.0f);
    addOutput(m, "y", {1, 2, 1, 2});
    setFloatAttribute(addNode(m, op, {"c"}, {"y"}), "alpha", std::string(op) == "Elu" ? 1.0f : 0.1f);
    auto loaded = loadOnnxModel(write("nhwc_activation.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 2u) << op;  // x to NHWC, y back
    const std::vector<float> got = run(*loaded, {{1, -2, 3, -4}}, 4);
    const std::vector<double> want = std::string(op) == "Elu" ? std::vector<double>{2, std::expm1(-4.0), 6, std::expm1(-8.0)}
                                                              : std::vector<double>{2, -0.4, 6, -0.8};
    ASSERT_EQ(got.size(), 4u);
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], want[i], 1e-6) << op << " " << i;
  }
}

// ConvTranspose of an NHWC image stays NHWC: only x and y are TRANSPOSEd. x [1, 2, 1, 2]; c = Conv 1x1
// 2 * identity: channels [2, 4] and [6, 8]; ConvTranspose 2x2 stride 2 to one channel, weights
// W0 = [[1, 0], [0, 1]], W1 = [[0, 1], [1, 0]], bias 0.5: each input pixel w writes the block
// c0[w] * W0 + c1[w] * W1 + 0.5: rows [2.5, 6.5, 4.5, 8.5] and [6.5, 2.5, 8.5, 4.5].
TEST(OnnxLoaderTest, ConvTransposeOfAnNhwcImageStaysNhwc) {
  NodeModel m = scaledConv({1, 2, 1, 2}, 2.0f);
  addFloats(m, "wt", {2, 1, 2, 2}, {1, 0, 0, 1, 0, 1, 1, 0}, false);
  addFloats(m, "bt", {1}, {0.5f}, false);
  addOutput(m, "y", {1, 1, 2, 4});
  setAttribute(addNode(m, "ConvTranspose", {"c", "wt", "bt"}, {"y"}), "strides", std::vector<int64_t>{2, 2});
  auto loaded = loadOnnxModel(write("nhwc_convtranspose.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 2u);  // x to NHWC, y back
  EXPECT_EQ(run(*loaded, {{1, 2, 3, 4}}, 8), (std::vector<float>{2.5f, 6.5f, 4.5f, 8.5f, 6.5f, 2.5f, 8.5f, 4.5f}));
}

// BatchNormalization of an NHWC image stays NHWC, a following Relu fused into its ADD: only x and y are
// TRANSPOSEd and no RELU is left. x [1, 2, 1, 2] = [1, 2, 3, 4]; c = Relu(Conv 1x1 2 * identity): channels
// [2, 4] and [6, 8] (the Relu keeps the BatchNormalization from being folded into the Conv); scale [1, 2], bias [-3, -1], mean [0, 1], var [1, 3], epsilon 0: channel 0 is c - 3 =
// [-1, 1], channel 1 (c - 1) * 2 / sqrt(3) - 1; after Relu [0, 1, 4.7735027, 7.0829038].
TEST(OnnxLoaderTest, BatchNormalizationOfAnNhwcImageStaysNhwc) {
  NodeModel m = scaledConv({1, 2, 1, 2}, 2.0f);
  addFloats(m, "scale", {2}, {1, 2}, false);
  addFloats(m, "bias", {2}, {-3, -1}, false);
  addFloats(m, "mean", {2}, {0, 1}, false);
  addFloats(m, "var", {2}, {1, 3}, false);
  addOutput(m, "y", {1, 2, 1, 2});
  addNode(m, "Relu", {"c"}, {"r"});  // a pre-activation network's: the BatchNormalization reads a Relu
  setFloatAttribute(addNode(m, "BatchNormalization", {"r", "scale", "bias", "mean", "var"}, {"n"}), "epsilon", 0.0f);
  addNode(m, "Relu", {"n"}, {"y"});
  auto loaded = loadOnnxModel(write("nhwc_batchnorm.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 2u);  // x to NHWC, y back
  EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_RELU), 0u);
  const std::vector<float> got = run(*loaded, {{1, 2, 3, 4}}, 4);
  const std::vector<float> want{0.0f, 1.0f, 4.7735027f, 7.0829038f};
  ASSERT_EQ(got.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
}

// Element-wise activations the loader composes of single-value arithmetic (HardSigmoid, Softsign,
// Softplus, Mish, Selu) keep an NHWC image NHWC between two convolutions: only x and y are TRANSPOSEd.
// x [1, 2, 1, 2] = [0.5, -1, 1.5, -2]; c = Conv 1x1 2 * identity = [1, -2, 3, -4]; y = 2 * f(c) (the
// same Conv) against the formulas in double.
TEST(OnnxLoaderTest, ComposedActivationsOfAnNhwcImageStayNhwc) {
  const std::vector<double> c{1, -2, 3, -4};
  const std::vector<std::pair<const char*, double (*)(double)>> cases{
      {"HardSigmoid", [](double v) { return std::clamp(0.2 * v + 0.5, 0.0, 1.0); }},
      {"Softsign", [](double v) { return v / (1 + std::fabs(v)); }},
      {"Softplus", [](double v) { return std::log1p(std::exp(v)); }},
      {"Mish", [](double v) { return v * std::tanh(std::log1p(std::exp(v))); }},
      {"Selu", [](double v) {
         return 1.05070102214813232421875 * (v > 0 ? v : 1.67326319217681884765625 * std::expm1(v));
       }}};
  for (const auto& [op, f] : cases) {
    NodeModel m = scaledConv({1, 2, 1, 2}, 2.0f, 18);
    addOutput(m, "y", {1, 2, 1, 2});
    addNode(m, op, {"c"}, {"a"});
    addNode(m, "Conv", {"a", "w"}, {"y"});
    auto loaded = loadOnnxModel(write("nhwc_composed.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << op << ": " << loaded.error().message;
    EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 2u) << op;  // x to NHWC, y back
    const std::vector<float> got = run(*loaded, {{0.5f, -1.0f, 1.5f, -2.0f}}, 4);
    ASSERT_EQ(got.size(), 4u) << op;
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], 2 * f(c[i]), 2e-5) << op << " " << i;
  }
}

// x * HardSigmoid(x) with alpha 1/6 and beta 1/2 (PyTorch's Hardswish before opset 14) is one HARD_SWISH,
// the Mul's operands in either order, after a Conv (NHWC) too; with another alpha, a product by another
// value, or the HardSigmoid's result also a graph output, the five element-wise operations stay. Every
// case against x * clamp(alpha x + beta, 0, 1) in double, at values across the bends (-3, 3).
TEST(OnnxLoaderTest, HardSwishAsExportersWriteItIsOneOperation) {
  const std::vector<float> x{-4.0f, -3.0f, -1.5f, -0.25f, 0.0f, 0.5f, 2.9f, 3.0f, 5.0f, 7.5f};
  const int64_t n = static_cast<int64_t>(x.size());
  auto expected = [](double v, double alpha, double w) { return w * std::clamp(alpha * v + 0.5, 0.0, 1.0); };
  struct Case {
    const char* name;
    float alpha;
    bool swapped, byOther, sigmoidIsOutput, afterConv, fused;
  };
  for (const Case& c : {Case{"x*h", 1.0f / 6.0f, false, false, false, false, true},
                        Case{"h*x", 1.0f / 6.0f, true, false, false, false, true},
                        Case{"conv", 1.0f / 6.0f, false, false, false, true, true},
                        Case{"alpha 0.2", 0.2f, false, false, false, false, false},
                        Case{"by other", 1.0f / 6.0f, false, true, false, false, false},
                        Case{"h output", 1.0f / 6.0f, false, false, true, false, false}}) {
    NodeModel m = c.afterConv ? scaledConv({1, 1, 1, n}, 1.0f) : nodeModel("Identity", {{"x", {1, n}}}, {{"c", {1, n}}});
    const std::vector<int64_t> dims = c.afterConv ? std::vector<int64_t>{1, 1, 1, n} : std::vector<int64_t>{1, n};
    m.model.mutable_graph()->clear_output();
    if (c.byOther) addFloatInput(m.model.mutable_graph(), "o", dims);
    addOutput(m, "y", dims);
    if (c.sigmoidIsOutput) addOutput(m, "h", dims);
    setFloatAttribute(addNode(m, "HardSigmoid", {"c"}, {"h"}), "alpha", c.alpha);
    const std::string other = c.byOther ? "o" : "c";
    addNode(m, "Mul", c.swapped ? std::vector<std::string>{"h", other} : std::vector<std::string>{other, "h"}, {"y"});
    auto loaded = loadOnnxModel(write("hard_swish.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << c.name << ": " << loaded.error().message;
    EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_HARD_SWISH), c.fused ? 1u : 0u) << c.name;
    EXPECT_EQ(hasOperation(*loaded, ANEURALNETWORKS_MINIMUM), !c.fused) << c.name;
    std::vector<float> o(x.size());
    for (size_t i = 0; i < x.size(); ++i) o[i] = 0.5f - x[i];
    std::vector<std::vector<float>> inputs{x};
    if (c.byOther) inputs.push_back(o);
    const std::vector<float> got = run(*loaded, inputs, x.size());
    for (size_t i = 0; i < x.size(); ++i)
      EXPECT_NEAR(got[i], expected(x[i], c.alpha, c.byOther ? o[i] : x[i]), 2e-6) << c.name << " " << x[i];
    if (c.sigmoidIsOutput) {
      const std::vector<float> h = run(*loaded, inputs, x.size(), 1);
      for (size_t i = 0; i < x.size(); ++i)
        EXPECT_NEAR(h[i], std::clamp(c.alpha * x[i] + 0.5, 0.0, 1.0), 1e-6) << c.name << " " << x[i];
    }
  }
}

// A Transpose between ONNX's channels-first layout and channels-last of a value already held channels-last
// moves nothing (ConvNeXt's blocks: an image to [N, H, W, C] for work over its channels, and back). x [1, 2,
// 1, 3] = channels [1, 2, 3] and [4, 5, 6]; c = Conv 1x1 2 * identity = [2, 4, 6], [8, 10, 12]; t = c
// transposed by [0, 2, 3, 1], times [10, 100] along its last axis (the channels), transposed back by [0, 3,
// 1, 2] and added to c: [22, 44, 66], [808, 1010, 1212], by hand. Only x and y are TRANSPOSEd. And a plain
// [1, 1, 3, 2] input transposed by [0, 3, 1, 2] is read by a Conv as the NHWC image it already is: only y is.
TEST(OnnxLoaderTest, TransposesBetweenLayoutsOfAChannelsLastImageMoveNothing) {
  {
    NodeModel m = scaledConv({1, 2, 1, 3}, 2.0f);
    addOutput(m, "y", {1, 2, 1, 3});
    setAttribute(addNode(m, "Transpose", {"c"}, {"t"}), "perm", std::vector<int64_t>{0, 2, 3, 1});
    addFloats(m, "k", {2}, {10.0f, 100.0f}, false);
    addNode(m, "Mul", {"t", "k"}, {"s"});
    setAttribute(addNode(m, "Transpose", {"s"}, {"back"}), "perm", std::vector<int64_t>{0, 3, 1, 2});
    addNode(m, "Add", {"c", "back"}, {"y"});
    auto loaded = loadOnnxModel(write("layouts.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 2u);
    EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5, 6}}, 6), (std::vector<float>{22, 44, 66, 808, 1010, 1212}));
  }
  {
    NodeModel m = nodeModel("Transpose", {{"p", {1, 1, 3, 2}}}, {{"t", {1, 2, 1, 3}}});
    setAttribute(m.node, "perm", std::vector<int64_t>{0, 3, 1, 2});
    m.model.mutable_graph()->clear_output();
    addOutput(m, "y", {1, 2, 1, 3});
    addFloats(m, "w", {2, 2, 1, 1}, {2, 0, 0, 2}, false);
    addNode(m, "Conv", {"t", "w"}, {"y"});
    auto loaded = loadOnnxModel(write("layouts_plain.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 1u);
    EXPECT_EQ(run(*loaded, {{1, 4, 2, 5, 3, 6}}, 6), (std::vector<float>{2, 4, 6, 8, 10, 12}));
  }
}

// Softplus where exp(x) overflows float32 (x above 88.7) is x, as log(1 + exp(x)) is in exact arithmetic,
// not the +inf of the literal form; elsewhere log1p(exp(x)) in double (to 2e-6 relative).
TEST(OnnxLoaderTest, SoftplusOfLargeValuesIsTheValue) {
  NodeModel m = nodeModel("Softplus", {{"x", {6}}}, {{"y", {6}}});
  auto loaded = loadOnnxModel(write("softplus.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const std::vector<float> x{-30.0f, -2.0f, 0.0f, 3.0f, 100.0f, 3e38f};
  const std::vector<float> got = run(*loaded, {x}, 6);
  ASSERT_EQ(got.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    const double want = x[i] > 50 ? x[i] : std::log1p(std::exp(static_cast<double>(x[i])));
    EXPECT_NEAR(got[i], want, 2e-6 * std::max(1.0, std::fabs(want))) << x[i];
  }
}

// A BatchNormalization that alone reads a Conv's result is folded into the Conv's weights and bias, and
// the Relu after it becomes the Conv's fused activation: one CONV_2D, no MUL, ADD or RELU. x [1, 2, 1, 2]
// = [1, 2, 3, 4]; Conv 1x1 2 * identity with bias [1, -1]: channels [3, 5] and [5, 7]; scale [1, 2],
// B [-3, -1], mean [0, 1], var [1, 3], epsilon 0: channel 0 is c - 3, channel 1 (c - 1) * 2 / sqrt(3) - 1;
// after Relu [0, 2, 3.6188021, 5.9282032].
TEST(OnnxLoaderTest, BatchNormalizationAfterAConvIsFoldedIntoIt) {
  NodeModel m = scaledConv({1, 2, 1, 2}, 2.0f);
  addFloats(m, "cb", {2}, {1, -1});
  addFloats(m, "scale", {2}, {1, 2}, false);
  addFloats(m, "bias", {2}, {-3, -1}, false);
  addFloats(m, "mean", {2}, {0, 1}, false);
  addFloats(m, "var", {2}, {1, 3}, false);
  addOutput(m, "y", {1, 2, 1, 2});
  setFloatAttribute(addNode(m, "BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"n"}), "epsilon", 0.0f);
  addNode(m, "Relu", {"n"}, {"y"});
  auto loaded = loadOnnxModel(write("conv_batchnorm.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_CONV_2D), 1u);
  EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_MUL) + countOperations(*loaded, ANEURALNETWORKS_ADD) +
                countOperations(*loaded, ANEURALNETWORKS_RELU),
            0u);
  const std::vector<float> got = run(*loaded, {{1, 2, 3, 4}}, 4);
  const std::vector<float> want{0.0f, 2.0f, 3.6188021f, 5.9282032f};
  ASSERT_EQ(got.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
}

// ShuffleNet's channel shuffle as PyTorch exports it (Reshape [1, 4, 1, 2] -> [1, 2, 2, 1, 2], Transpose
// [0, 2, 1, 3, 4], Reshape back; NNAPI has no 5-D TRANSPOSE) is one CHANNEL_SHUFFLE of 2 groups, and the
// Split of its channels in halves after it stays NHWC: only x and the outputs are TRANSPOSEd. x [1, 4, 1, 2]
// (channels [1, 2], [3, 4], [5, 6], [7, 8]); c = Conv 1x1 identity; shuffled channels 0, 2, 1, 3:
// [1, 2, 5, 6, 3, 4, 7, 8]; the halves [1, 2, 5, 6] and [3, 4, 7, 8].
TEST(OnnxLoaderTest, ChannelShuffleAndSplitOfAnNhwcImage) {
  NodeModel m = scaledConv({1, 4, 1, 2}, 1.0f);
  addInts(m, "five", {1, 2, 2, 1, 2}, false);
  addInts(m, "four", {1, -1, 1, 2}, false);
  addInts(m, "halves", {2, 2}, false);
  addOutput(m, "a", {1, 2, 1, 2});
  addOutput(m, "b", {1, 2, 1, 2});
  addNode(m, "Reshape", {"c", "five"}, {"r5"});
  setAttribute(addNode(m, "Transpose", {"r5"}, {"t5"}), "perm", std::vector<int64_t>{0, 2, 1, 3, 4});
  addNode(m, "Reshape", {"t5", "four"}, {"s"});
  setAttribute(addNode(m, "Split", {"s", "halves"}, {"a", "b"}), "axis", 1);
  auto loaded = loadOnnxModel(write("shuffle.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_CHANNEL_SHUFFLE), 1u);
  EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 3u);  // x to NHWC, a and b back
  EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5, 6, 7, 8}}, 4, 0), (std::vector<float>{1, 2, 5, 6}));
  EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5, 6, 7, 8}}, 4, 1), (std::vector<float>{3, 4, 7, 8}));
}

// An AveragePool that counts its padding (count_include_pad: a PAD_V2 of zeros first, since NNAPI's
// averages leave padding out) keeps an NHWC image NHWC between two convolutions: only x and y are
// TRANSPOSEd. x [1, 1, 2, 2] = [1, 2, 3, 4]; Conv 1x1 by 1 both times; every 3x3 window (pads 1) holds
// all four values and five zeros: 10 / 9 each.
TEST(OnnxLoaderTest, AveragePoolCountingItsPaddingStaysNhwc) {
  NodeModel m = scaledConv({1, 1, 2, 2}, 1.0f);
  addOutput(m, "y", {1, 1, 2, 2});
  auto* pool = addNode(m, "AveragePool", {"c"}, {"p"});
  setAttribute(pool, "kernel_shape", std::vector<int64_t>{3, 3});
  setAttribute(pool, "pads", std::vector<int64_t>{1, 1, 1, 1});
  setAttribute(pool, "count_include_pad", 1);
  addNode(m, "Conv", {"p", "w"}, {"y"});
  auto loaded = loadOnnxModel(write("nhwc_pool_pad.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 2u);  // x to NHWC, y back
  const std::vector<float> got = run(*loaded, {{1, 2, 3, 4}}, 4);
  ASSERT_EQ(got.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], 10.0 / 9.0, 1e-6) << i;
}

// A vision transformer's patch embedding: the Conv's NHWC image flattened to [N, C, H * W] and
// transposed to tokens [N, H * W, C] is the NHWC tensor reshaped: one TRANSPOSE (x's, into NHWC) in all.
// x [1, 2, 1, 2] = [1, 2, 3, 4]; c = Conv 1x1 2 * identity: channels [2, 4], [6, 8]; tokens [2, 6], [4, 8].
TEST(OnnxLoaderTest, PatchEmbeddingTokensAreTheNhwcImageReshaped) {
  NodeModel m = scaledConv({1, 2, 1, 2}, 2.0f);
  addInts(m, "shape", {1, 2, -1}, false);
  addOutput(m, "y", {1, 2, 2});
  addNode(m, "Reshape", {"c", "shape"}, {"flat"});
  setAttribute(addNode(m, "Transpose", {"flat"}, {"y"}), "perm", std::vector<int64_t>{0, 2, 1});
  auto loaded = loadOnnxModel(write("patch_tokens.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 1u);
  EXPECT_EQ(run(*loaded, {{1, 2, 3, 4}}, 4), (std::vector<float>{2, 6, 4, 8}));
}

// Squeeze-and-excitation's scaling of an NHWC image by its own per-channel values (a [1, C, 1, 1] NHWC
// value) stays NHWC: only x and y are TRANSPOSEd. x [1, 2, 1, 2]; c = Conv 1x1 2 * identity = 2x
// (channels [2, 4], [6, 8]); g = GlobalAveragePool(c) = [3, 7]; y = c * g (both orders):
// [6, 12, 42, 56].
TEST(OnnxLoaderTest, ScalingAnNhwcImageByNhwcPerChannelValuesStaysNhwc) {
  for (bool imageFirst : {true, false}) {
    NodeModel m = scaledConv({1, 2, 1, 2}, 2.0f);
    addOutput(m, "y", {1, 2, 1, 2});
    addNode(m, "GlobalAveragePool", {"c"}, {"g"});
    addNode(m, "Mul", {imageFirst ? "c" : "g", imageFirst ? "g" : "c"}, {"y"});
    auto loaded = loadOnnxModel(write("nhwc_excitation.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 2u) << imageFirst;  // x to NHWC, y back
    EXPECT_EQ(run(*loaded, {{1, 2, 3, 4}}, 4), (std::vector<float>{6, 12, 42, 56})) << imageFirst;
  }
}

// A global pool of an image held NCHW (the model input) is MEAN or REDUCE_MAX over its planes, with no
// TRANSPOSE: x [1, 2, 2, 2] = planes [1, 2, 3, 4] and [-5, 6, 7, -8] -> averages [2.5, 0], maxima [4, 7].
// After a convolution (an NHWC image) it stays the pool: c = 2x, averages [5, 0].
TEST(OnnxLoaderTest, GlobalPoolsOfAnNchwImageReduceItsPlanes) {
  const std::vector<float> x{1, 2, 3, 4, -5, 6, 7, -8};
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool"}) {
    const bool average = std::string(op) == "GlobalAveragePool";
    NodeModel m = nodeModel(op, {{"x", {1, 2, 2, 2}}}, {{"y", {1, 2, 1, 1}}});
    auto loaded = loadOnnxModel(write("global_nchw.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_TRUE(hasOperation(*loaded, average ? ANEURALNETWORKS_MEAN : ANEURALNETWORKS_REDUCE_MAX)) << op;
    EXPECT_FALSE(hasOperation(*loaded, ANEURALNETWORKS_TRANSPOSE)) << op;
    const std::vector<float> want = average ? std::vector<float>{2.5f, 0.0f} : std::vector<float>{4.0f, 7.0f};
    EXPECT_EQ(run(*loaded, {x}, 2), want) << op;
  }
  NodeModel m = scaledConv({1, 2, 2, 2}, 2.0f);
  addOutput(m, "y", {1, 2, 1, 1});
  addNode(m, "GlobalAveragePool", {"c"}, {"y"});
  auto loaded = loadOnnxModel(write("global_nhwc.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_TRUE(hasOperation(*loaded, ANEURALNETWORKS_AVERAGE_POOL_2D));
  EXPECT_EQ(run(*loaded, {x}, 2), (std::vector<float>{5.0f, 0.0f}));
}

// A YOLO head: an NHWC image [1, 6, 2, 2] (c = 2x of x = 0..23) split into [1, 2, 3, 2, 2] (2 anchors of 3
// predictions) and transposed to [1, 2, 2, 2, 3] is one TRANSPOSE of the NHWC tensor (two in all, with x's to
// NHWC): y[a][h][w][k] = c[a * 3 + k][h][w].
TEST(OnnxLoaderTest, AnchorsOfAnNhwcImageAreMovedByOneTranspose) {
  NodeModel m = scaledConv({1, 6, 2, 2}, 2.0f);
  addOutput(m, "y", {1, 2, 2, 2, 3});
  addInts(m, "split", {1, 2, 3, 2, 2}, false);
  addNode(m, "Reshape", {"c", "split"}, {"r"});
  setAttribute(addNode(m, "Transpose", {"r"}, {"y"}), "perm", std::vector<int64_t>{0, 1, 3, 4, 2});
  auto loaded = loadOnnxModel(write("yolo_head.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 2u);
  std::vector<float> x(24), want(24);
  for (size_t i = 0; i < 24; ++i) x[i] = static_cast<float>(i);
  for (size_t a = 0; a < 2; ++a)
    for (size_t h = 0; h < 2; ++h)
      for (size_t w = 0; w < 2; ++w)
        for (size_t k = 0; k < 3; ++k) want[((a * 2 + h) * 2 + w) * 3 + k] = 2.0f * static_cast<float>((a * 3 + k) * 4 + h * 2 + w);
  EXPECT_EQ(run(*loaded, {x}, 24), want);
}

// Concat of NHWC images (SqueezeNet's fire modules: two convolutions concatenated over channels) stays
// NHWC, on the NHWC axis that is ONNX's `axis`: only x and y are TRANSPOSEd. x [1, 2, 1, 2] (channels
// [1, 2] and [3, 4]); c1 = 2x, c2 = 3x (Conv 1x1), y = Concat(c1, c2, x). Over channels (axis 1):
// [2, 4, 6, 8, 3, 6, 9, 12, 1, 2, 3, 4]; over the width (axis 3 and -1), per channel c1, c2, x:
// [2, 4, 3, 6, 1, 2, 6, 8, 9, 12, 3, 4]; over the height (axis 2, rows of 2) the same values.
TEST(OnnxLoaderTest, ConcatOfNhwcImagesStaysNhwc) {
  for (int64_t axis : {1, 3, -1, 2}) {
    NodeModel m = scaledConv({1, 2, 1, 2}, 2.0f);  // c1 is "c"
    addFloats(m, "w2", {2, 2, 1, 1}, {3, 0, 0, 3}, false);
    const bool width = axis == 3 || axis == -1;
    addOutput(m, "y", axis == 1 ? std::vector<int64_t>{1, 6, 1, 2}
                                : width ? std::vector<int64_t>{1, 2, 1, 6} : std::vector<int64_t>{1, 2, 3, 2});
    addNode(m, "Conv", {"x", "w2"}, {"c2"});
    setAttribute(addNode(m, "Concat", {"c", "c2", "x"}, {"y"}), "axis", axis);
    auto loaded = loadOnnxModel(write("nhwc_concat.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), 2u) << axis;  // x to NHWC, y back
    const std::vector<float> expected =
        axis != 1 ? std::vector<float>{2, 4, 3, 6, 1, 2, 6, 8, 9, 12, 3, 4}
              : std::vector<float>{2, 4, 6, 8, 3, 6, 9, 12, 1, 2, 3, 4};
    EXPECT_EQ(run(*loaded, {{1, 2, 3, 4}}, 12), expected) << axis;
  }
}

// A constant's host values are freed once every node reading it is mapped (the loader keeps no second
// copy of a model's weights), not before: weights two convolutions share, a constant read twice by one
// node and again by a later one. By hand: c = Conv 1x1 2 * identity of x = 2x, c2 = the same of c = 4x =
// [4, 8, 12, 16] for x = [1, 2, 3, 4]; k = [2, 3]: k * k = [4, 9], x * k = [2, 6] for x = [1, 2], their sum
// [6, 15].
TEST(OnnxLoaderTest, SharedConstantsLastUntilTheirLastReader) {
  NodeModel shared = scaledConv({1, 2, 1, 2}, 2.0f);
  addNode(shared, "Conv", {"c", "w"}, {"c2"});
  addOutput(shared, "c2", {1, 2, 1, 2});
  auto convs = loadOnnxModel(write("shared_weights.onnx", shared.model));
  ASSERT_TRUE(convs.has_value()) << convs.error().message;
  EXPECT_EQ(run(*convs, {{1, 2, 3, 4}}, 4), (std::vector<float>{4, 8, 12, 16}));

  NodeModel twice = nodeModel("Mul", {{"k", {2}}, {"k", {2}}}, {{"kk", {2}}});
  twice.model.mutable_graph()->clear_input();
  twice.model.mutable_graph()->clear_output();
  addFloatInput(twice.model.mutable_graph(), "x", {2});
  addFloats(twice, "k", {2}, {2, 3}, false);
  addNode(twice, "Mul", {"x", "k"}, {"xk"});
  addNode(twice, "Add", {"kk", "xk"}, {"y"});
  addOutput(twice, "y", {2});
  auto sums = loadOnnxModel(write("constant_read_twice.onnx", twice.model));
  ASSERT_TRUE(sums.has_value()) << sums.error().message;
  EXPECT_EQ(run(*sums, {{1, 2}}, 2), (std::vector<float>{6, 15}));
}

// 1-D images ([N, C, L]) stay channels last ([N, L, C], run as the NHWC image [N, 1, L, C]) from the
// convolution that makes them through an Add of two of them, a MaxPool and a ReduceMean over L: the only
// TRANSPOSEs are x's into that layout and p's back (when p is the output). By hand, x = [[1, 2, 3], [4, 5, 6]] (channels 0
// and 1): c = Conv k1 with 2 * identity = 2x; c2 = Conv k3 pad 1 summing channel 0's three neighbours
// (zeros beyond the ends) into channel 0 and taking channel 1's middle one into channel 1 = [[3, 6, 5],
// [4, 5, 6]]; s = c + c2 = [[5, 10, 11], [12, 15, 18]]; p = MaxPool k2 = [[10, 11], [15, 18]]; m = the
// means of p's rows = [10.5, 16.5].
TEST(OnnxLoaderTest, OneDimensionalImagesStayChannelsLast) {
  for (bool means : {false, true}) {
    NodeModel m = nodeModel("Conv", {{"x", {1, 2, 3}}}, {{"c", {1, 2, 3}}});
    addFloats(m, "w", {2, 2, 1}, {2, 0, 0, 2});
    m.model.mutable_graph()->clear_output();
    addFloats(m, "w2", {2, 2, 3}, {1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0}, false);
    setAttribute(addNode(m, "Conv", {"x", "w2"}, {"c2"}), "pads", std::vector<int64_t>{1, 1});
    addNode(m, "Add", {"c", "c2"}, {"s"});
    setAttribute(addNode(m, "MaxPool", {"s"}, {"p"}), "kernel_shape", std::vector<int64_t>{2});
    if (means) {
      auto* mean = addNode(m, "ReduceMean", {"p"}, {"m"});
      setAttribute(mean, "axes", std::vector<int64_t>{2});
      setAttribute(mean, "keepdims", 0);
      addOutput(m, "m", {1, 2});
    } else {
      addOutput(m, "p", {1, 2, 2});
    }
    auto loaded = loadOnnxModel(write("channels_last_1d.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    // x into the channels-last layout; p back (the means come out in either layout's order).
    EXPECT_EQ(countOperations(*loaded, ANEURALNETWORKS_TRANSPOSE), means ? 1u : 2u);
    const std::vector<float> expected = means ? std::vector<float>{10.5f, 16.5f} : std::vector<float>{10, 11, 15, 18};
    EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5, 6}}, expected.size()), expected);
  }
}

// uint8 tensors are quantized operands of scale 1 and zero point 0. DequantizeLinear per axis 1 with
// scales [0.5, 2] and zero points [128, 0], by hand: [[0, 10], [255, 128]] -> [[(0 - 128) / 2, 10 * 2],
// [(255 - 128) / 2, 128 * 2]] = [[-64, 20], [63.5, 256]].
TEST(OnnxLoaderTest, DequantizesUint8) {
  NodeModel m = nodeModel("DequantizeLinear", {}, {{"y", {2, 2}}});
  auto* graph = m.model.mutable_graph();
  auto* x = graph->add_input();
  x->set_name("x");
  x->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::UINT8);
  for (int64_t d : {2, 2})
    x->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(d);
  auto* scale = graph->add_initializer();
  scale->set_name("scale");
  scale->set_data_type(onnx::TensorProto::FLOAT);
  scale->add_dims(2);
  scale->add_float_data(0.5f);
  scale->add_float_data(2.0f);
  auto* zero = graph->add_initializer();
  zero->set_name("zero");
  zero->set_data_type(onnx::TensorProto::UINT8);
  zero->add_dims(2);
  zero->add_int32_data(128);
  zero->add_int32_data(0);
  for (const char* in : {"x", "scale", "zero"})
    m.node->add_input(in);
  setAttribute(m.node, "axis", 1);
  auto loaded = loadOnnxModel(write("dequantize.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  ANeuralNetworksCompilation* compilation = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(loaded->model.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* execution = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
  const uint8_t in[4] = {0, 10, 255, 128};
  std::vector<float> y(4);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(execution, 0, nullptr, in, 4), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(execution, 0, nullptr, y.data(), 16),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(execution), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(y, (std::vector<float>{-64.0f, 20.0f, 63.5f, 256.0f}));
  ANeuralNetworksExecution_free(execution);
  ANeuralNetworksCompilation_free(compilation);
}

// Round and QuantizeLinear round halves to even, as ONNX (NNAPI's QUANTIZE would round them away from
// zero). By hand: Round [0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6, 2^23 + 1] = [0, 2, 2, -0, -2, 2, -3,
// 2^23 + 1]; QuantizeLinear with scale 2, zero point 128 of [1, 3, -3, 5, 1000] = round([0.5, 1.5, -1.5,
// 2.5, 500]) + 128 saturated = [128, 130, 126, 130, 255].
TEST(OnnxLoaderTest, RoundsHalvesToEven) {
  NodeModel round = nodeModel("Round", {{"x", {8}}}, {{"y", {8}}});
  auto loaded = loadOnnxModel(write("round.onnx", round.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(run(*loaded, {{0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f, -2.6f, 8388609.0f}}, 8),
            (std::vector<float>{0, 2, 2, -0.0f, -2, 2, -3, 8388609.0f}));

  NodeModel m = nodeModel("QuantizeLinear", {{"x", {5}}}, {});
  auto* graph = m.model.mutable_graph();
  auto* y = graph->add_output();
  y->set_name("y");
  y->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::UINT8);
  y->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(5);
  m.node->add_output("y");
  auto* scale = graph->add_initializer();
  scale->set_name("scale");
  scale->set_data_type(onnx::TensorProto::FLOAT);
  scale->add_float_data(2.0f);
  auto* zero = graph->add_initializer();
  zero->set_name("zero");
  zero->set_data_type(onnx::TensorProto::UINT8);
  zero->add_int32_data(128);
  m.node->add_input("scale");
  m.node->add_input("zero");
  auto quantize = loadOnnxModel(write("quantize.onnx", m.model));
  ASSERT_TRUE(quantize.has_value()) << quantize.error().message;
  ANeuralNetworksCompilation* compilation = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(quantize->model.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* execution = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
  const float in[5] = {1, 3, -3, 5, 1000};
  uint8_t out[5] = {};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(execution, 0, nullptr, in, sizeof in),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(execution, 0, nullptr, out, sizeof out),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(execution), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(std::vector<int>(out, out + 5), (std::vector<int>{128, 130, 126, 130, 255}));
  ANeuralNetworksExecution_free(execution);
  ANeuralNetworksCompilation_free(compilation);
}

// If with branches reading values of the enclosing graph: s = x + x, r = Relu(s) (which must not absorb s:
// the branches read it too), then y = s - x (= x), else y = Neg(x). By hand, x = [1.5, -2]: r = [3, 0];
// cond true gives [1.5, -2], false [-1.5, 2]. Branches of different types or shapes (else Shape(x)) are
// refused.
TEST(OnnxLoaderTest, IfRunsBranchesReadingTheEnclosingGraph) {
  auto branch = [](onnx::NodeProto* node, const std::string& attribute, const std::string& op,
                   std::vector<std::string> inputs, int64_t size) {
    auto* a = node->add_attribute();
    a->set_name(attribute);
    a->set_type(onnx::AttributeProto::GRAPH);
    auto* g = a->mutable_g();
    g->set_name(attribute);
    auto* n = g->add_node();
    n->set_op_type(op);
    for (const auto& input : inputs)
      n->add_input(input);
    n->add_output(attribute + "_out");
    addFloatInput(g, attribute + "_out", {size}, true);
  };
  auto ifModel = [&](const std::string& elseOp) {
    NodeModel m = nodeModel("Add", {{"x", {2}}}, {{"y", {2}}});
    auto* graph = m.model.mutable_graph();
    m.node->add_input("x");
    m.node->set_output(0, "s");
    auto* cond = graph->add_input();
    cond->set_name("c");
    cond->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
    cond->mutable_type()->mutable_tensor_type()->mutable_shape();
    auto* relu = graph->add_node();
    relu->set_op_type("Relu");
    relu->add_input("s");
    relu->add_output("r");
    addFloatInput(graph, "r", {2}, true);
    auto* node = graph->add_node();
    node->set_name("choose");
    node->set_op_type("If");
    node->add_input("c");
    node->add_output("y");
    branch(node, "then_branch", "Sub", {"s", "x"}, 2);
    branch(node, "else_branch", elseOp, {"x"}, 2);
    return m.model;
  };
  auto loaded = loadOnnxModel(write("if.onnx", ifModel("Neg")));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_TRUE(hasOperation(*loaded, ANEURALNETWORKS_IF));
  EXPECT_TRUE(hasOperation(*loaded, ANEURALNETWORKS_RELU));
  for (bool c : {true, false}) {
    ANeuralNetworksCompilation* compilation = nullptr;
    ASSERT_EQ(ANeuralNetworksCompilation_create(loaded->model.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution* execution = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
    const float x[2] = {1.5f, -2.0f};
    const uint8_t flag = c ? 1 : 0;
    float y[2] = {}, r[2] = {};
    EXPECT_EQ(ANeuralNetworksExecution_setInput(execution, 0, nullptr, x, sizeof x),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(execution, 1, nullptr, &flag, 1), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(execution, 0, nullptr, y, sizeof y),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(execution, 1, nullptr, r, sizeof r),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_compute(execution), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(std::vector<float>(y, y + 2),
              c ? (std::vector<float>{1.5f, -2.0f}) : (std::vector<float>{-1.5f, 2.0f}));
    EXPECT_EQ(std::vector<float>(r, r + 2), (std::vector<float>{3.0f, 0.0f}));
    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
  }
  expectOneLineError(loadOnnxModel(write("if_shapes.onnx", ifModel("Shape"))),
                     "node 'choose' (If): output 0 differs in type or shape between the branches");
}

// RNN in reverse and both directions, hidden and input size 1, Relu, x = [1, 3] (time-major [2, 1, 1]).
// By hand, forward (W 1, R 0.5, Wb 0.25, Rb 0): h = Relu(x + 0.5 h + 0.25): 1.25, then 3 + 0.625 + 0.25 =
// 3.875. Reverse (W 2, R 0.5, Wb 0, Rb 0.5) from the last step: 6 + 0.5 = 6.5, then 2 + 3.25 + 0.5 = 5.75,
// so Y = [5.75, 6.5] in time order and Y_h = 5.75. With initial_h [0.5, 1]: forward 1 + 0.25 + 0.25 = 1.5,
// 3 + 0.75 + 0.25 = 4; reverse 6 + 0.5 + 0.5 = 7, 2 + 3.5 + 0.5 = 6.
TEST(OnnxLoaderTest, RnnReverseAndBidirectional) {
  struct Case {
    std::string direction;
    bool initial;
    std::vector<float> y, yh;
  };
  const std::vector<Case> cases = {{"reverse", false, {5.75f, 6.5f}, {5.75f}},
                                   {"bidirectional", false, {1.25f, 5.75f, 3.875f, 6.5f}, {3.875f, 5.75f}},
                                   {"bidirectional", true, {1.5f, 6.0f, 4.0f, 7.0f}, {4.0f, 6.0f}}};
  for (const Case& c : cases) {
    const bool both = c.direction == "bidirectional";
    const int64_t dirs = both ? 2 : 1;
    NodeModel m = nodeModel("RNN", {{"x", {2, 1, 1}}}, {{"y", {2, dirs, 1, 1}}, {"yh", {dirs, 1, 1}}});
    addFloats(m, "W", {dirs, 1, 1}, both ? std::vector<float>{1, 2} : std::vector<float>{2});
    addFloats(m, "R", {dirs, 1, 1}, both ? std::vector<float>{0.5f, 0.5f} : std::vector<float>{0.5f});
    addFloats(m, "B", {dirs, 2}, both ? std::vector<float>{0.25f, 0, 0, 0.5f} : std::vector<float>{0, 0.5f});
    if (c.initial) {
      m.node->add_input("");
      addFloats(m, "h0", {dirs, 1, 1}, {0.5f, 1.0f});
    }
    setAttribute(m.node, "hidden_size", 1);
    setAttribute(m.node, "direction", c.direction);
    auto* a = m.node->add_attribute();
    a->set_name("activations");
    a->set_type(onnx::AttributeProto::STRINGS);
    for (int64_t d = 0; d < dirs; ++d)
      a->add_strings("Relu");
    auto loaded = loadOnnxModel(write("rnn.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    ANeuralNetworksCompilation* compilation = nullptr;
    ASSERT_EQ(ANeuralNetworksCompilation_create(loaded->model.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution* execution = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
    const float x[2] = {1, 3};
    std::vector<float> y(c.y.size()), yh(c.yh.size());
    EXPECT_EQ(ANeuralNetworksExecution_setInput(execution, 0, nullptr, x, sizeof x),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(execution, 0, nullptr, y.data(), y.size() * 4),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(execution, 1, nullptr, yh.data(), yh.size() * 4),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_compute(execution), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(y, c.y) << c.direction << (c.initial ? " with initial_h" : "");
    EXPECT_EQ(yh, c.yh) << c.direction << (c.initial ? " with initial_h" : "");
    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
  }
}

// MatMulInteger in float32 is exact while K * 255 * 255 <= 2^24 (K <= 258): by hand, A = [[1, 2]] with zero
// point 1 and B = [[3], [5]] give (1 - 1) 3 + (2 - 1) 5 = 5; K = 259 is refused. (ConvInteger is checked
// against ONNX's own node tests.)
TEST(OnnxLoaderTest, MatMulIntegerExactOrRefused) {
  for (int64_t k : {2, 259}) {
    NodeModel m = nodeModel("MatMulInteger", {{"a", {1, k}}, {"b", {k, 1}}}, {{"y", {1, 1}}});
    auto* graph = m.model.mutable_graph();
    for (int i = 0; i < 2; ++i)
      graph->mutable_input(i)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::UINT8);
    graph->mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT32);
    auto* zero = graph->add_initializer();
    zero->set_name("a_zero");
    zero->set_data_type(onnx::TensorProto::UINT8);
    zero->add_int32_data(1);
    m.node->add_input("a_zero");
    auto loaded = loadOnnxModel(write("matmulinteger.onnx", m.model));
    if (k == 259) {
      expectOneLineError(loaded,
                         "node 'n' (MatMulInteger): a sum of 259 products of 8-bit integers may round");
      continue;
    }
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    ANeuralNetworksCompilation* compilation = nullptr;
    ASSERT_EQ(ANeuralNetworksCompilation_create(loaded->model.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution* execution = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
    const uint8_t a[2] = {1, 2}, bValues[2] = {3, 5};
    int32_t y = 0;
    EXPECT_EQ(ANeuralNetworksExecution_setInput(execution, 0, nullptr, a, sizeof a),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(execution, 1, nullptr, bValues, sizeof bValues),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(execution, 0, nullptr, &y, sizeof y),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_compute(execution), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(y, 5);
    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
  }
}

// ConvInteger's bound: C / group * kH * kW = 65 * 2 * 2 = 260 sums of products are refused.
TEST(OnnxLoaderTest, ConvIntegerRefusesSumsThatMayRound) {
  NodeModel m = nodeModel("ConvInteger", {{"x", {1, 65, 2, 2}}, {"w", {1, 65, 2, 2}}}, {{"y", {1, 1, 1, 1}}});
  auto* graph = m.model.mutable_graph();
  for (int i = 0; i < 2; ++i)
    graph->mutable_input(i)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::UINT8);
  expectOneLineError(loadOnnxModel(write("convinteger.onnx", m.model)),
                     "node 'n' (ConvInteger): a sum of 260 products of 8-bit integers may round");
}

// An empty slice of a constant shape stays on the host and folds into the next constant (the expanded
// LayerNormalization with axis 0 builds its shape from Shape(x)[0:0]): y = Reshape(x, Concat(
// Slice(Shape(x), 0, 0), [6])) is x flattened. An empty graph input and a rank NNAPI lacks are refused.
TEST(OnnxLoaderTest, EmptyConstantsFoldAndEmptyInputsAreRefused) {
  NodeModel m = nodeModel("Shape", {{"x", {2, 3}}}, {});
  auto* graph = m.model.mutable_graph();
  m.node->add_output("shape");
  addInts(m, "zero", {0}, false);
  addInts(m, "six", {6}, false);
  auto addNode = [&](const std::string& op, std::vector<std::string> inputs, const std::string& output) {
    auto* node = graph->add_node();
    node->set_op_type(op);
    for (const auto& input : inputs)
      node->add_input(input);
    node->add_output(output);
    return node;
  };
  addNode("Slice", {"shape", "zero", "zero"}, "prefix");
  setAttribute(addNode("Concat", {"prefix", "six"}, "flat"), "axis", 0);
  addNode("Reshape", {"x", "flat"}, "y");
  addFloatInput(graph, "y", {6}, true);
  auto loaded = loadOnnxModel(write("emptyslice.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->outputs[0].dimensions, (std::vector<uint32_t>{6}));
  EXPECT_EQ(run(*loaded, {{1, 2, 3, 4, 5, 6}}, 6), (std::vector<float>{1, 2, 3, 4, 5, 6}));

  NodeModel empty = nodeModel("Relu", {{"x", {2, 0}}}, {{"y", {2, 0}}});
  expectOneLineError(loadOnnxModel(write("emptyinput.onnx", empty.model)),
                     "input 'x': an empty tensor (a dimension of 0) has no NNAPI shape");

  NodeModel rank5 =
      nodeModel("Sub", {{"a", {1, 1, 1, 1, 2}}, {"b", {1, 1, 1, 1, 2}}}, {{"y", {1, 1, 1, 1, 2}}});
  expectOneLineError(loadOnnxModel(write("rank5.onnx", rank5.model)),
                     "node 'n' (Sub): NNAPI's SUB refused a tensor of rank 5");
}

// Runs `model` with raw input buffers and fills raw output buffers (their sizes given).
void runBytes(const LoadedModel& model, const std::vector<std::vector<uint8_t>>& inputs,
              std::vector<std::vector<uint8_t>>& outputs) {
  ANeuralNetworksCompilation* compilation = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(model.model.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* execution = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(ANeuralNetworksExecution_setInput(execution, static_cast<int32_t>(i), nullptr, inputs[i].data(),
                                                inputs[i].size()),
              ANEURALNETWORKS_NO_ERROR);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(execution, static_cast<int32_t>(i), nullptr,
                                                 outputs[i].data(), outputs[i].size()),
              ANEURALNETWORKS_NO_ERROR);
  }
  EXPECT_EQ(ANeuralNetworksExecution_compute(execution), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution_free(execution);
  ANeuralNetworksCompilation_free(compilation);
}

void setElementType(onnx::ValueInfoProto* info, int32_t type) {
  info->mutable_type()->mutable_tensor_type()->set_elem_type(type);
}

void addScalar(NodeModel& m, const std::string& name, int32_t type, float value) {
  auto* t = m.model.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(type);
  if (type == onnx::TensorProto::FLOAT)
    t->add_float_data(value);
  else
    t->add_int32_data(static_cast<int32_t>(value));  // uint8 and int32 values are stored as int32_data
  m.node->add_input(name);
}

// Pow of an int32 base by constant whole exponents, exact by squaring: x = [2, -3, 5, 7] ([2, 2]) to
// exponents [3, 0] broadcast along the last axis gives [8, 1, 125, 1]; to float exponents [0, 1, 2, 10]
// [1, -3, 25, 282475249] (7^10, beyond float32's exact integers). By hand. Negative or fractional
// exponents are refused.
TEST(OnnxLoaderTest, IntegerPowByConstantExponents) {
  auto model = [](const std::function<void(NodeModel&)>& exponents) {
    NodeModel m = nodeModel("Pow", {{"x", {2, 2}}}, {{"z", {2, 2}}}, 13);
    setElementType(m.model.mutable_graph()->mutable_input(0), onnx::TensorProto::INT32);
    setElementType(m.model.mutable_graph()->mutable_output(0), onnx::TensorProto::INT32);
    exponents(m);
    return m;
  };
  auto runInts = [](const LoadedModel& loaded, std::vector<int32_t> x) {
    std::vector<std::vector<uint8_t>> inputs{std::vector<uint8_t>(16)}, outputs{std::vector<uint8_t>(16)};
    std::memcpy(inputs[0].data(), x.data(), 16);
    runBytes(loaded, inputs, outputs);
    std::vector<int32_t> z(4);
    std::memcpy(z.data(), outputs[0].data(), 16);
    return z;
  };
  NodeModel ints = model([](NodeModel& m) { addInts(m, "y", {3, 0}); });
  auto loaded = loadOnnxModel(write("pow_int.onnx", ints.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(runInts(*loaded, {2, -3, 5, 7}), (std::vector<int32_t>{8, 1, 125, 1}));
  NodeModel floats = model([](NodeModel& m) { addFloats(m, "y", {2, 2}, {0, 1, 2, 10}); });
  loaded = loadOnnxModel(write("pow_float.onnx", floats.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(runInts(*loaded, {2, -3, 5, 7}), (std::vector<int32_t>{1, -3, 25, 282475249}));
  for (float bad : {-1.0f, 0.5f}) {
    NodeModel refused = model([&](NodeModel& m) { addFloats(m, "y", {1}, {bad}); });
    expectOneLineError(loadOnnxModel(write("pow_bad.onnx", refused.model)), "whole exponents of 0 or more");
  }
}

// QLinearMatMul rounds (sum of products) * a_scale * b_scale / y_scale half to even, then adds y_zero_point:
// a = [3, 6] - 1 = [2, 5], b = [[4, 5], [3, 3]] - 2 = [[2, 3], [1, 1]]; sums [2*2 + 5*1, 2*3 + 5*1] = [9,
// 11]; times 0.5 * 0.25 / 0.25 = 0.5: [4.5, 5.5] -> [4, 6]; plus 10: [14, 16].
TEST(OnnxLoaderTest, QLinearMatMulRoundsHalvesToEven) {
  NodeModel m = nodeModel("QLinearMatMul", {{"a", {1, 2}}}, {{"y", {1, 2}}}, 10);
  auto* graph = m.model.mutable_graph();
  addScalar(m, "a_scale", onnx::TensorProto::FLOAT, 0.5f);
  addScalar(m, "a_zero", onnx::TensorProto::UINT8, 1);
  addFloatInput(graph, "b", {2, 2});
  m.node->add_input("b");
  addScalar(m, "b_scale", onnx::TensorProto::FLOAT, 0.25f);
  addScalar(m, "b_zero", onnx::TensorProto::UINT8, 2);
  addScalar(m, "y_scale", onnx::TensorProto::FLOAT, 0.25f);
  addScalar(m, "y_zero", onnx::TensorProto::UINT8, 10);
  setElementType(graph->mutable_input(0), onnx::TensorProto::UINT8);
  setElementType(graph->mutable_input(1), onnx::TensorProto::UINT8);
  setElementType(graph->mutable_output(0), onnx::TensorProto::UINT8);
  auto loaded = loadOnnxModel(write("qlinearmatmul.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(2)};
  runBytes(*loaded, {{3, 6}, {4, 5, 3, 3}}, outputs);
  EXPECT_EQ(outputs[0], (std::vector<uint8_t>{14, 16}));
}

// QLinearConv with a constant int32 bias: x = [1, 2, 3, 4], w = [2], bias 3, scales 1, 1, 2:
// (2x + 3) / 2 = [2.5, 3.5, 4.5, 5.5] -> [2, 4, 4, 6]. A bias that may take the sums past 2^24 is refused.
TEST(OnnxLoaderTest, QLinearConvAddsItsBiasExactly) {
  for (int32_t bias : {3, 1 << 24}) {
    NodeModel m = nodeModel("QLinearConv", {{"x", {1, 1, 2, 2}}}, {{"y", {1, 1, 2, 2}}}, 10);
    auto* graph = m.model.mutable_graph();
    addScalar(m, "x_scale", onnx::TensorProto::FLOAT, 1.0f);
    addScalar(m, "x_zero", onnx::TensorProto::UINT8, 0);
    auto* w = graph->add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::UINT8);
    for (int i = 0; i < 4; ++i)
      w->add_dims(1);
    w->add_int32_data(2);
    m.node->add_input("w");
    addScalar(m, "w_scale", onnx::TensorProto::FLOAT, 1.0f);
    addScalar(m, "w_zero", onnx::TensorProto::UINT8, 0);
    addScalar(m, "y_scale", onnx::TensorProto::FLOAT, 2.0f);
    addScalar(m, "y_zero", onnx::TensorProto::UINT8, 0);
    auto* b = graph->add_initializer();
    b->set_name("bias");
    b->set_data_type(onnx::TensorProto::INT32);
    b->add_dims(1);
    b->add_int32_data(bias);
    m.node->add_input("bias");
    setElementType(graph->mutable_input(0), onnx::TensorProto::UINT8);
    setElementType(graph->mutable_output(0), onnx::TensorProto::UINT8);
    auto loaded = loadOnnxModel(write("qlinearconv.onnx", m.model));
    if (bias != 3) {
      expectOneLineError(loaded,
                         "node 'n' (QLinearConv): a sum of 1 products of 8-bit integers and a bias up to "
                         "16777216 may round in float32");
      continue;
    }
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(4)};
    runBytes(*loaded, {{1, 2, 3, 4}}, outputs);
    EXPECT_EQ(outputs[0], (std::vector<uint8_t>{2, 4, 4, 6}));
  }
}

// DynamicQuantizeLinear of x = [-1, 0, 1, 2.5]: y_scale = (2.5 - -1) / 255, y_zero_point = round(1 / y_scale)
// = round(72.86) = 73, y = saturate(round(x / y_scale) + 73) = [-73 + 73, 73, 73 + 73, 182 + 73] =
// [0, 73, 146, 255].
TEST(OnnxLoaderTest, DynamicQuantizeLinear) {
  NodeModel m =
      nodeModel("DynamicQuantizeLinear", {{"x", {4}}}, {{"y", {4}}, {"y_scale", {}}, {"y_zero", {}}}, 11);
  auto* graph = m.model.mutable_graph();
  setElementType(graph->mutable_output(0), onnx::TensorProto::UINT8);
  setElementType(graph->mutable_output(2), onnx::TensorProto::UINT8);
  auto loaded = loadOnnxModel(write("dynamicquantizelinear.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const float x[4] = {-1.0f, 0.0f, 1.0f, 2.5f};
  std::vector<uint8_t> in(sizeof x);
  std::memcpy(in.data(), x, sizeof x);
  std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(4), std::vector<uint8_t>(4),
                                            std::vector<uint8_t>(1)};
  runBytes(*loaded, {in}, outputs);
  EXPECT_EQ(outputs[0], (std::vector<uint8_t>{0, 73, 146, 255}));
  float scale;
  std::memcpy(&scale, outputs[1].data(), 4);
  EXPECT_EQ(scale, 3.5f / 255.0f);
  EXPECT_EQ(outputs[2][0], 73);
}

double sigmoid(double v) {
  return 1.0 / (1.0 + std::exp(-v));
}

// LSTM in reverse and both directions, hidden and input size 1, against ONNX's equations evaluated here
// (i, o, f, c gates in ONNX's order, each with its own weights so that a mixed-up order shows).
TEST(OnnxLoaderTest, LstmReverseAndBidirectional) {
  const std::vector<float> x{0.5f, -1.0f, 2.0f};  // time-major [3, 1, 1]
  // Per direction: W (i, o, f, c), R (i, o, f, c), Wb, Rb.
  const std::vector<float> w{0.5f, -0.25f, 0.75f, 1.0f, -0.5f, 0.25f, 1.5f, -1.0f};
  const std::vector<float> r{0.1f, 0.2f, -0.3f, 0.4f, 0.3f, -0.2f, 0.1f, 0.5f};
  const std::vector<float> bias{0.1f,  0.0f, -0.1f, 0.2f, 0.05f, 0.1f,   0.0f, -0.2f,
                                -0.1f, 0.2f, 0.1f,  0.0f, 0.0f,  -0.05f, 0.3f, 0.1f};
  // Direction `d` over x in time order (reverse: from the last step), h and c starting at `h0`, `c0`.
  auto reference = [&](int d, bool reverse, double h0, double c0, std::vector<double>& y, double& h,
                       double& c) {
    h = h0;
    c = c0;
    y.assign(x.size(), 0.0);
    auto gate = [&](int g, double xt) {
      return w[4 * d + g] * xt + r[4 * d + g] * h + bias[8 * d + g] + bias[8 * d + 4 + g];
    };
    for (size_t s = 0; s < x.size(); ++s) {
      size_t t = reverse ? x.size() - 1 - s : s;
      double i = sigmoid(gate(0, x[t])), o = sigmoid(gate(1, x[t])), f = sigmoid(gate(2, x[t]));
      double candidate = std::tanh(gate(3, x[t]));
      c = f * c + i * candidate;
      h = o * std::tanh(c);
      y[t] = h;
    }
  };
  for (const std::string direction : {"reverse", "bidirectional"}) {
    const bool both = direction == "bidirectional";
    const int64_t dirs = both ? 2 : 1;
    NodeModel m = nodeModel("LSTM", {{"x", {3, 1, 1}}},
                            {{"y", {3, dirs, 1, 1}}, {"yh", {dirs, 1, 1}}, {"yc", {dirs, 1, 1}}});
    // The reverse test takes direction 1's weights as its only direction.
    const size_t first = both ? 0 : 1;
    addFloats(m, "W", {dirs, 4, 1}, std::vector<float>(w.begin() + 4 * first, w.end()));
    addFloats(m, "R", {dirs, 4, 1}, std::vector<float>(r.begin() + 4 * first, r.end()));
    addFloats(m, "B", {dirs, 8}, std::vector<float>(bias.begin() + 8 * first, bias.end()));
    m.node->add_input("");
    addFloats(m, "h0", {dirs, 1, 1}, both ? std::vector<float>{0.25f, -0.5f} : std::vector<float>{-0.5f});
    addFloats(m, "c0", {dirs, 1, 1}, both ? std::vector<float>{0.5f, 1.0f} : std::vector<float>{1.0f});
    setAttribute(m.node, "hidden_size", 1);
    setAttribute(m.node, "direction", direction);
    auto loaded = loadOnnxModel(write("lstm.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(3 * dirs * 4),
                                              std::vector<uint8_t>(dirs * 4), std::vector<uint8_t>(dirs * 4)};
    std::vector<uint8_t> in(x.size() * 4);
    std::memcpy(in.data(), x.data(), in.size());
    runBytes(*loaded, {in}, outputs);
    std::vector<float> got[3];
    for (int i = 0; i < 3; ++i) {
      got[i].resize(outputs[i].size() / 4);
      std::memcpy(got[i].data(), outputs[i].data(), outputs[i].size());
    }
    const double h0[2] = {0.25, -0.5}, c0[2] = {0.5, 1.0};
    for (int64_t k = 0; k < dirs; ++k) {
      const int d = both ? static_cast<int>(k) : 1;
      std::vector<double> y;
      double h, c;
      reference(d, d == 1, h0[d], c0[d], y, h, c);
      for (size_t t = 0; t < x.size(); ++t)
        EXPECT_NEAR(got[0][t * dirs + k], y[t], 1e-5) << direction << " direction " << k << " step " << t;
      EXPECT_NEAR(got[1][k], h, 1e-5) << direction << " Y_h " << k;
      EXPECT_NEAR(got[2][k], c, 1e-5) << direction << " Y_c " << k;
    }
  }
}

// GRU (unrolled: no NNAPI operation) in both directions, with and without linear_before_reset, hidden and
// input size 1, batch 1 (the step's input projections as the state products' biases) and 2, against
// ONNX's equations evaluated here (z, r, h blocks, each with its own weights).
TEST(OnnxLoaderTest, GruBidirectionalUnrolled) {
  const std::vector<float> xs{0.5f, -1.0f, 2.0f, 1.5f, -0.5f, 0.25f};   // time-major [3, batch, 1]
  const std::vector<float> w{0.5f, -0.25f, 0.75f, -0.5f, 0.25f, 1.5f};  // per direction: z, r, h
  const std::vector<float> r{0.1f, 0.2f, -0.3f, 0.3f, -0.2f, 0.5f};     // per direction: z, r, h
  const std::vector<float> bias{
      0.1f,  0.0f, -0.1f, 0.2f, 0.05f,  0.1f,  // per direction: Wb z, r, h, Rb z, r, h
      -0.1f, 0.2f, 0.1f,  0.0f, -0.05f, 0.3f};
  const std::vector<float> h0s{0.25f, -0.5f, 0.1f, 0.4f};  // [2 directions, batch, 1]
  for (uint32_t batch : {1u, 2u}) {
    const std::vector<float> x(xs.begin(), xs.begin() + 3 * batch);
    const std::vector<float> h0(h0s.begin(), h0s.begin() + 2 * batch);
    for (int64_t linearBeforeReset : {0, 1}) {
      SCOPED_TRACE("batch " + std::to_string(batch) + ", linear_before_reset " + std::to_string(linearBeforeReset));
      NodeModel m = nodeModel("GRU", {{"x", {3, batch, 1}}}, {{"y", {3, 2, batch, 1}}, {"yh", {2, batch, 1}}});
      addFloats(m, "W", {2, 3, 1}, w);
      addFloats(m, "R", {2, 3, 1}, r);
      addFloats(m, "B", {2, 6}, bias);
      m.node->add_input("");
      addFloats(m, "h0", {2, batch, 1}, h0);
      setAttribute(m.node, "hidden_size", 1);
      setAttribute(m.node, "direction", std::string("bidirectional"));
      setAttribute(m.node, "linear_before_reset", linearBeforeReset);
      auto loaded = loadOnnxModel(write("gru.onnx", m.model));
      ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
      std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(6 * batch * 4), std::vector<uint8_t>(2 * batch * 4)};
      std::vector<uint8_t> in(x.size() * 4);
      std::memcpy(in.data(), x.data(), in.size());
      runBytes(*loaded, {in}, outputs);
      std::vector<float> y(6 * batch), yh(2 * batch);
      std::memcpy(y.data(), outputs[0].data(), y.size() * 4);
      std::memcpy(yh.data(), outputs[1].data(), yh.size() * 4);
      for (uint32_t d = 0; d < 2; ++d) {
        for (uint32_t n = 0; n < batch; ++n) {
          double h = h0[d * batch + n];
          for (uint32_t s = 0; s < 3; ++s) {
            const uint32_t t = d == 1 ? 2 - s : s;
            const double xt = x[t * batch + n];
            const float* wb = &bias[6 * d];
            double z = sigmoid(w[3 * d] * xt + r[3 * d] * h + wb[0] + wb[3]);
            double reset = sigmoid(w[3 * d + 1] * xt + r[3 * d + 1] * h + wb[1] + wb[4]);
            double candidate = linearBeforeReset != 0
                                   ? std::tanh(w[3 * d + 2] * xt + reset * (r[3 * d + 2] * h + wb[5]) + wb[2])
                                   : std::tanh(w[3 * d + 2] * xt + r[3 * d + 2] * (reset * h) + wb[5] + wb[2]);
            h = (1 - z) * candidate + z * h;
            EXPECT_NEAR(y[(t * 2 + d) * batch + n], h, 1e-5) << "direction " << d << " batch " << n << " step " << t;
          }
          EXPECT_NEAR(yh[d * batch + n], h, 1e-5) << "Y_h, direction " << d << " batch " << n;
        }
      }
    }
  }
}

// A Loop whose iterations are known at load time is unrolled: M = 3, cond true, y carried from [1, 2]
// plus the enclosing graph's x = [10, 20] each iteration, scan of y: by hand y = [31, 62], scan =
// [[11, 22], [21, 42], [31, 62]]. A condition computed at run time is refused, unless the node gives no
// cond (ONNX then ignores cond_out: a for loop over M).
TEST(OnnxLoaderTest, LoopUnrolledWhenItsIterationsAreKnown) {
  for (auto [runTimeCondition, condGiven] : {std::pair{false, true}, {true, true}, {true, false}}) {
    NodeModel m = nodeModel("Loop", {}, {});
    auto* graph = m.model.mutable_graph();
    addInts(m, "M", {3});
    if (condGiven) {
      auto* cond = graph->add_initializer();
      cond->set_name("cond");
      cond->set_data_type(onnx::TensorProto::BOOL);
      cond->add_int32_data(1);
      m.node->add_input("cond");
    } else {
      m.node->add_input("");
    }
    addFloatInput(graph, "y0", {2});
    addFloatInput(graph, "x", {2});
    m.node->add_input("y0");
    m.node->add_output("y");
    m.node->add_output("scan");
    addFloatInput(graph, "y", {2}, true);
    addFloatInput(graph, "scan", {3, 2}, true);
    auto* a = m.node->add_attribute();
    a->set_name("body");
    a->set_type(onnx::AttributeProto::GRAPH);
    auto* body = a->mutable_g();
    body->set_name("body");
    auto scalarInput = [&](const std::string& name, int32_t type) {
      auto* info = body->add_input();
      info->set_name(name);
      info->mutable_type()->mutable_tensor_type()->set_elem_type(type);
      info->mutable_type()->mutable_tensor_type()->mutable_shape();
    };
    scalarInput("i", onnx::TensorProto::INT64);
    scalarInput("cond_in", onnx::TensorProto::BOOL);
    addFloatInput(body, "y_in", {2});
    auto addNode = [&](const std::string& op, std::vector<std::string> inputs, const std::string& output) {
      auto* node = body->add_node();
      node->set_op_type(op);
      for (const auto& input : inputs)
        node->add_input(input);
      node->add_output(output);
    };
    addNode("Add", {"y_in", "x"}, "y_out");
    if (runTimeCondition) {
      addNode("ReduceMax", {"y_out"}, "largest");
      addNode("ReduceMin", {"x"}, "smallest");
      addNode("Less", {"largest", "smallest"}, "cond_out");
    } else {
      addNode("Identity", {"cond_in"}, "cond_out");
    }
    addNode("Identity", {"y_out"}, "scan_out");
    for (const char* name : {"cond_out", "y_out", "scan_out"})
      body->add_output()->set_name(name);
    auto loaded = loadOnnxModel(write("loop.onnx", m.model));
    if (runTimeCondition && condGiven) {
      ASSERT_FALSE(loaded.has_value());
      EXPECT_NE(loaded.error().message.find("(Loop): the body's condition is computed at run time"),
                std::string::npos)
          << loaded.error().message;
      continue;
    }
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_FALSE(hasOperation(*loaded, ANEURALNETWORKS_WHILE));
    std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(2 * 4), std::vector<uint8_t>(6 * 4)};
    const float y0[2] = {1, 2}, x[2] = {10, 20};
    std::vector<uint8_t> y0Bytes(8), xBytes(8);
    std::memcpy(y0Bytes.data(), y0, 8);
    std::memcpy(xBytes.data(), x, 8);
    runBytes(*loaded, {y0Bytes, xBytes}, outputs);
    std::vector<float> y(2), scan(6);
    std::memcpy(y.data(), outputs[0].data(), 8);
    std::memcpy(scan.data(), outputs[1].data(), 24);
    EXPECT_EQ(y, (std::vector<float>{31, 62}));
    EXPECT_EQ(scan, (std::vector<float>{11, 22, 21, 42, 31, 62}));
  }
}

// Casts to and from bool, which NNAPI's CAST does not take: x != 0 (NaN too is true), then SELECT 1, 0.
TEST(OnnxLoaderTest, CastsToAndFromBool) {
  NodeModel m = nodeModel("Cast", {{"x", {4}}}, {});
  setAttribute(m.node, "to", int64_t{onnx::TensorProto::BOOL});
  m.node->add_output("flags");
  auto* back = m.model.mutable_graph()->add_node();
  back->set_op_type("Cast");
  back->add_input("flags");
  back->add_output("y");
  setAttribute(back, "to", int64_t{onnx::TensorProto::FLOAT});
  addFloatInput(m.model.mutable_graph(), "y", {4}, true);
  auto loaded = loadOnnxModel(write("castbool.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(run(*loaded, {{0.0f, -2.0f, std::nanf(""), 0.5f}}, 4), (std::vector<float>{0, 1, 1, 1}));
}

// DepthToSpace of channels 0..7 (C' = 2, blocksize 2): CRD puts channel c * 4 + i * 2 + j at (c, i, j),
// so the output reads 0..7 in order; DCR puts channel (i * 2 + j) * 2 + c there: 0, 2, 4, 6, 1, 3, 5, 7.
TEST(OnnxLoaderTest, DepthToSpaceCrdAndDcr) {
  for (const std::string mode : {"CRD", "DCR"}) {
    NodeModel m = nodeModel("DepthToSpace", {{"x", {1, 8, 1, 1}}}, {{"y", {1, 2, 2, 2}}});
    setAttribute(m.node, "blocksize", 2);
    setAttribute(m.node, "mode", mode);
    auto loaded = loadOnnxModel(write("depthtospace.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(run(*loaded, {{0, 1, 2, 3, 4, 5, 6, 7}}, 8), mode == "CRD"
                                                               ? (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7})
                                                               : (std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7}))
        << mode;
  }
}

// Pad in edge mode repeats the border: x = [[1, 2], [3, 4]] with one row before and one column after:
// [[1, 2, 2], [1, 2, 2], [3, 4, 4]].
TEST(OnnxLoaderTest, PadRepeatsTheEdge) {
  NodeModel m = nodeModel("Pad", {{"x", {2, 2}}}, {{"y", {3, 3}}});
  addInts(m, "pads", {1, 0, 0, 1});
  setAttribute(m.node, "mode", std::string("edge"));
  auto loaded = loadOnnxModel(write("edgepad.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(run(*loaded, {{1, 2, 3, 4}}, 9), (std::vector<float>{1, 2, 2, 1, 2, 2, 3, 4, 4}));
}

// 8-bit integer arithmetic wraps around, as ONNX's (NNAPI's quantized operations would saturate). By hand,
// uint8 a = [200, 3], b = [100, 5]: Add [300 - 256, 8] = [44, 8], Sub [100, -2 + 256] = [100, 254], Mul
// [20000 - 78 * 256, 15] = [32, 15], Div [2, 0]; int8 a = [-7, 7], b = [2, -2]: Div (toward zero) [-3, -3],
// Mod (the divisor's sign) [1, -1], Mod with fmod 1 (the dividend's) [-1, 1].
TEST(OnnxLoaderTest, Integer8ArithmeticWrapsAround) {
  struct Case {
    std::string op;
    int32_t type;
    int64_t fmod;
    std::vector<uint8_t> a, b, want;
  };
  auto bytes = [](std::vector<int> v) { return std::vector<uint8_t>(v.begin(), v.end()); };
  const std::vector<Case> cases = {
      {"Add", onnx::TensorProto::UINT8, -1, {200, 3}, {100, 5}, {44, 8}},
      {"Sub", onnx::TensorProto::UINT8, -1, {200, 3}, {100, 5}, {100, 254}},
      {"Mul", onnx::TensorProto::UINT8, -1, {200, 3}, {100, 5}, {32, 15}},
      {"Div", onnx::TensorProto::UINT8, -1, {200, 3}, {100, 5}, {2, 0}},
      {"Div", onnx::TensorProto::INT8, -1, bytes({-7, 7}), bytes({2, -2}), bytes({-3, -3})},
      {"Mod", onnx::TensorProto::INT8, 0, bytes({-7, 7}), bytes({2, -2}), bytes({1, -1})},
      {"Mod", onnx::TensorProto::INT8, 1, bytes({-7, 7}), bytes({2, -2}), bytes({-1, 1})}};
  for (const Case& c : cases) {
    NodeModel m = nodeModel(c.op, {{"a", {2}}, {"b", {2}}}, {{"y", {2}}});
    auto* graph = m.model.mutable_graph();
    for (auto* info : {graph->mutable_input(0), graph->mutable_input(1), graph->mutable_output(0)})
      setElementType(info, c.type);
    if (c.fmod >= 0) setAttribute(m.node, "fmod", c.fmod);
    auto loaded = loadOnnxModel(write("wrap.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(2)};
    runBytes(*loaded, {c.a, c.b}, outputs);
    EXPECT_EQ(outputs[0], c.want) << c.op << " fmod " << c.fmod;
  }
}

// Casts to 8-bit integers keep the whole part and wrap around, as ONNX's (NNAPI's CAST would saturate):
// float32 [-1.5, 300.7, 7.9] -> uint8 [-1 + 256, 300 - 256, 7] = [255, 44, 7]; int32 [200, -129, 5] ->
// int8 [200 - 256, -129 + 256, 5] = [-56, 127, 5]; uint8 [255, 0, 9] -> int32 [255, 0, 9].
TEST(OnnxLoaderTest, CastsTo8BitIntegersWrapAround) {
  struct Case {
    int32_t from, to;
    std::vector<uint8_t> in, want;
  };
  auto floats = [](std::vector<float> v) {
    std::vector<uint8_t> out(v.size() * 4);
    std::memcpy(out.data(), v.data(), out.size());
    return out;
  };
  auto ints = [](std::vector<int32_t> v) {
    std::vector<uint8_t> out(v.size() * 4);
    std::memcpy(out.data(), v.data(), out.size());
    return out;
  };
  const std::vector<Case> cases = {
      {onnx::TensorProto::FLOAT, onnx::TensorProto::UINT8, floats({-1.5f, 300.7f, 7.9f}), {255, 44, 7}},
      {onnx::TensorProto::INT32, onnx::TensorProto::INT8, ints({200, -129, 5}), {200, 127, 5}},
      {onnx::TensorProto::UINT8, onnx::TensorProto::INT32, {255, 0, 9}, ints({255, 0, 9})}};
  for (const Case& c : cases) {
    NodeModel m = nodeModel("Cast", {{"x", {3}}}, {{"y", {3}}});
    setElementType(m.model.mutable_graph()->mutable_input(0), c.from);
    setElementType(m.model.mutable_graph()->mutable_output(0), c.to);
    setAttribute(m.node, "to", int64_t{c.to});
    auto loaded = loadOnnxModel(write("cast8.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(c.want.size())};
    runBytes(*loaded, {c.in}, outputs);
    EXPECT_EQ(outputs[0], c.want) << c.from << " to " << c.to;
  }
}

// QuantizeLinear with its scale and zero point given at run time (one each): x = [2.5, 7], scale 2, zero
// point 10: round([1.25, 3.5]) + 10 = [11, 14].
TEST(OnnxLoaderTest, QuantizeLinearScaleGivenAtRunTime) {
  NodeModel m = nodeModel("QuantizeLinear", {{"x", {2}}, {"scale", {1}}, {"zero", {1}}}, {{"y", {2}}});
  auto* graph = m.model.mutable_graph();
  setElementType(graph->mutable_input(2), onnx::TensorProto::UINT8);
  setElementType(graph->mutable_output(0), onnx::TensorProto::UINT8);
  auto loaded = loadOnnxModel(write("quantizeruntime.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const float x[2] = {2.5f, 7.0f}, scale = 2.0f;
  std::vector<uint8_t> xBytes(8), scaleBytes(4);
  std::memcpy(xBytes.data(), x, 8);
  std::memcpy(scaleBytes.data(), &scale, 4);
  std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(2)};
  runBytes(*loaded, {xBytes, scaleBytes, {10}}, outputs);
  EXPECT_EQ(outputs[0], (std::vector<uint8_t>{11, 14}));
}

// BatchNormalization in training mode: x = [1, 3] over the batch (one channel): mean 2, variance 1; with
// epsilon 0, scale 2, B 0.5: y = (x - 2) / 1 * 2 + 0.5 = [-1.5, 2.5]; momentum 0.5 with the running mean 10
// and variance 3: 10 * 0.5 + 2 * 0.5 = 6 and 3 * 0.5 + 1 * 0.5 = 2.
TEST(OnnxLoaderTest, BatchNormalizationTrainingMode) {
  NodeModel m = nodeModel("BatchNormalization", {{"x", {2, 1, 1, 1}}},
                          {{"y", {2, 1, 1, 1}}, {"rm", {1}}, {"rv", {1}}}, 15);
  addFloats(m, "scale", {1}, {2.0f});
  addFloats(m, "bias", {1}, {0.5f});
  addFloats(m, "mean", {1}, {10.0f});
  addFloats(m, "var", {1}, {3.0f});
  setAttribute(m.node, "training_mode", 1);
  auto* eps = m.node->add_attribute();
  eps->set_name("epsilon");
  eps->set_type(onnx::AttributeProto::FLOAT);
  eps->set_f(0.0f);
  auto* momentum = m.node->add_attribute();
  momentum->set_name("momentum");
  momentum->set_type(onnx::AttributeProto::FLOAT);
  momentum->set_f(0.5f);
  auto loaded = loadOnnxModel(write("batchnormtraining.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const float x[2] = {1.0f, 3.0f};
  std::vector<uint8_t> in(8);
  std::memcpy(in.data(), x, 8);
  std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(8), std::vector<uint8_t>(4),
                                            std::vector<uint8_t>(4)};
  runBytes(*loaded, {in}, outputs);
  float got[4];
  std::memcpy(got, outputs[0].data(), 8);
  std::memcpy(got + 2, outputs[1].data(), 4);
  std::memcpy(got + 3, outputs[2].data(), 4);
  EXPECT_EQ(std::vector<float>(got, got + 4), (std::vector<float>{-1.5f, 2.5f, 6.0f, 2.0f}));
}

// MaxPool's Indices, flat over N, C, H, W as ONNX counts them, by hand. 2x2 windows, stride 1, over
// channel 0 = [[1, 2, 3], [4, 5, 6], [7, 8, 9]] and channel 1 = [[9, 8, 7], [6, 5, 4], [3, 2, 1]]:
// maxima [5, 6, 8, 9] at 4, 5, 7, 8 and [9, 8, 6, 5] at 9 + (0, 1, 3, 4); storage_order 1 (column-major
// within each image): 4, 7, 5, 8 and 9 + (0, 3, 1, 4). With one row and column of padding before, over
// -1 .. -9, padding never wins: [-1, -1, -2, -1, -1, -2, -4, -4, -5] at [0, 0, 1, 0, 0, 1, 3, 3, 4].
TEST(OnnxLoaderTest, MaxPoolIndices) {
  struct Case {
    int64_t storageOrder;
    bool padded;
    std::vector<float> x, y;
    std::vector<int32_t> indices;
  };
  const std::vector<Case> cases = {{0,
                                    false,
                                    {1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1},
                                    {5, 6, 8, 9, 9, 8, 6, 5},
                                    {4, 5, 7, 8, 9, 10, 12, 13}},
                                   {1,
                                    false,
                                    {1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1},
                                    {5, 6, 8, 9, 9, 8, 6, 5},
                                    {4, 7, 5, 8, 9, 12, 10, 13}},
                                   {0,
                                    true,
                                    {-1, -2, -3, -4, -5, -6, -7, -8, -9},
                                    {-1, -1, -2, -1, -1, -2, -4, -4, -5},
                                    {0, 0, 1, 0, 0, 1, 3, 3, 4}}};
  for (const Case& c : cases) {
    const int64_t channels = c.padded ? 1 : 2, side = c.padded ? 3 : 2;
    NodeModel m = nodeModel("MaxPool", {{"x", {1, channels, 3, 3}}}, {{"y", {1, channels, side, side}}});
    m.node->add_output("i");
    auto* info = m.model.mutable_graph()->add_output();
    info->set_name("i");
    info->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
    for (int64_t d : {int64_t{1}, channels, side, side})
      info->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(d);
    auto* kernel = m.node->add_attribute();
    kernel->set_name("kernel_shape");
    kernel->set_type(onnx::AttributeProto::INTS);
    kernel->add_ints(2);
    kernel->add_ints(2);
    if (c.padded) {
      auto* pads = m.node->add_attribute();
      pads->set_name("pads");
      pads->set_type(onnx::AttributeProto::INTS);
      for (int64_t p : {1, 1, 0, 0})
        pads->add_ints(p);
    }
    setAttribute(m.node, "storage_order", c.storageOrder);
    auto loaded = loadOnnxModel(write("maxpoolindices.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    std::vector<uint8_t> in(c.x.size() * 4);
    std::memcpy(in.data(), c.x.data(), in.size());
    std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(c.y.size() * 4),
                                              std::vector<uint8_t>(c.y.size() * 4)};
    runBytes(*loaded, {in}, outputs);
    std::vector<float> y(c.y.size());
    std::vector<int32_t> indices(c.y.size());
    std::memcpy(y.data(), outputs[0].data(), outputs[0].size());
    std::memcpy(indices.data(), outputs[1].data(), outputs[1].size());
    EXPECT_EQ(y, c.y) << "storage_order " << c.storageOrder << (c.padded ? " padded" : "");
    EXPECT_EQ(indices, c.indices) << "storage_order " << c.storageOrder << (c.padded ? " padded" : "");
  }
}

// Gather with indices given at run time, negative ones counting from the end: [10, 20, 30] at [-1, 0, -3]
// is [30, 10, 10].
TEST(OnnxLoaderTest, GatherNegativeIndicesAtRunTime) {
  NodeModel m = nodeModel("Gather", {{"x", {3}}, {"i", {3}}}, {{"y", {3}}});
  setElementType(m.model.mutable_graph()->mutable_input(1), onnx::TensorProto::INT64);
  auto loaded = loadOnnxModel(write("gathernegative.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const float x[3] = {10, 20, 30};
  const int32_t indices[3] = {-1, 0, -3};  // int64 tensors are int32 operands
  std::vector<uint8_t> xBytes(12), iBytes(12);
  std::memcpy(xBytes.data(), x, 12);
  std::memcpy(iBytes.data(), indices, 12);
  std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(12)};
  runBytes(*loaded, {xBytes, iBytes}, outputs);
  std::vector<float> y(3);
  std::memcpy(y.data(), outputs[0].data(), 12);
  EXPECT_EQ(y, (std::vector<float>{30, 10, 10}));
}

// A Loop without scan outputs whose iterations are known only at run time is NNAPI's WHILE: y doubles
// while below the run-time limit (cond = y0 < limit; cond_out = y < limit, the limit read from the
// enclosing graph), or M times when only a run-time M is given. By hand: from 3 under 50: 6, 12, 24, 48,
// 96 -> 96; from 60: no iteration -> 60; M = 2 from 3 -> 12.
TEST(OnnxLoaderTest, LoopWithRunTimeIterationsIsWhile) {
  for (bool byCount : {false, true}) {
    NodeModel m = nodeModel("Loop", {}, {});
    auto* graph = m.model.mutable_graph();
    addFloatInput(graph, "y0", {1});
    if (byCount) {
      auto* info = graph->add_input();
      info->set_name("m");
      info->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
      info->mutable_type()->mutable_tensor_type()->mutable_shape();
      m.node->add_input("m");
      m.node->add_input("");
    } else {
      addFloatInput(graph, "limit", {1});
      auto* less = graph->add_node();
      less->set_op_type("Less");
      less->add_input("y0");
      less->add_input("limit");
      less->add_output("c0");
      // The Loop must follow the node computing its cond.
      graph->mutable_node()->SwapElements(0, 1);
      m.node = graph->mutable_node(1);
      m.node->add_input("");
      m.node->add_input("c0");
    }
    m.node->add_input("y0");
    m.node->add_output("y");
    addFloatInput(graph, "y", {1}, true);
    auto* a = m.node->add_attribute();
    a->set_name("body");
    a->set_type(onnx::AttributeProto::GRAPH);
    auto* body = a->mutable_g();
    body->set_name("body");
    for (auto [name, type] : {std::pair<const char*, int32_t>{"i", onnx::TensorProto::INT64},
                              {"cond_in", onnx::TensorProto::BOOL}}) {
      auto* info = body->add_input();
      info->set_name(name);
      info->mutable_type()->mutable_tensor_type()->set_elem_type(type);
      info->mutable_type()->mutable_tensor_type()->mutable_shape();
    }
    addFloatInput(body, "y_in", {1});
    auto* two = body->add_initializer();
    two->set_name("two");
    two->set_data_type(onnx::TensorProto::FLOAT);
    two->add_dims(1);
    two->add_float_data(2.0f);
    auto addNode = [&](const std::string& op, std::vector<std::string> inputs, const std::string& output) {
      auto* node = body->add_node();
      node->set_op_type(op);
      for (const auto& input : inputs)
        node->add_input(input);
      node->add_output(output);
    };
    addNode("Mul", {"y_in", "two"}, "y_out");
    if (byCount)
      addNode("Identity", {"cond_in"}, "cond_out");
    else
      addNode("Less", {"y_out", "limit"}, "cond_out");
    for (const char* name : {"cond_out", "y_out"})
      body->add_output()->set_name(name);
    auto loaded = loadOnnxModel(write("while.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_TRUE(hasOperation(*loaded, ANEURALNETWORKS_WHILE));
    auto bytes = [](const void* p, size_t n) {
      std::vector<uint8_t> v(n);
      std::memcpy(v.data(), p, n);
      return v;
    };
    const std::vector<std::pair<float, float>> runs =
        byCount ? std::vector<std::pair<float, float>>{{3.0f, 12.0f}}
                : std::vector<std::pair<float, float>>{{3.0f, 96.0f}, {60.0f, 60.0f}};
    for (auto [start, want] : runs) {
      const float limit = 50.0f;
      const int32_t count = 2;  // int64 tensors are int32 operands
      std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(4)};
      runBytes(*loaded, {bytes(&start, 4), byCount ? bytes(&count, 4) : bytes(&limit, 4)}, outputs);
      float y;
      std::memcpy(&y, outputs[0].data(), 4);
      EXPECT_EQ(y, want) << (byCount ? "M" : "cond") << " from " << start;
    }
  }
}

// Opset 18's reductions take their axes as an input. x = [[1, 2, 3], [4, 5, 6]]: the means of the rows
// (axes [1], keepdims 0) are [2, 5] by hand, the same at opset 17 from the attribute; of the columns
// (axes [-2], kept) [2.5, 3.5, 4.5]; with no axes every element, 21 / 6 = 3.5.
TEST(OnnxLoaderTest, ReduceMeanAxesInputFromOpset18) {
  const std::vector<float> x{1, 2, 3, 4, 5, 6};
  struct Case {
    int64_t opset;
    std::vector<int64_t> axes;  // given as the input at 18, as the attribute before
    bool none;                  // no axes at all
    int64_t keep;
    std::vector<int64_t> outDims;
    std::vector<float> want;
  };
  const Case cases[] = {{18, {1}, false, 0, {2}, {2, 5}},
                        {17, {1}, false, 0, {2}, {2, 5}},
                        {18, {-2}, false, 1, {1, 3}, {2.5f, 3.5f, 4.5f}},
                        {18, {}, true, 1, {1, 1}, {3.5f}}};
  for (const Case& c : cases) {
    NodeModel m = nodeModel("ReduceMean", {{"x", {2, 3}}}, {{"y", c.outDims}}, c.opset);
    if (!c.none) {
      if (c.opset >= 18)
        addInts(m, "axes", c.axes);
      else
        setAttribute(m.node, "axes", c.axes);
    }
    setAttribute(m.node, "keepdims", c.keep);
    auto loaded = loadOnnxModel(write("reducemean18.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(run(*loaded, {x}, c.want.size()), c.want) << "opset " << c.opset;
  }
}

// Empty axes with noop_with_empty_axes reduce nothing, but the steps around the reduction stay (ONNX's
// definition): ReduceSumSquare squares, ReduceL1 takes magnitudes, ReduceMean copies.
TEST(OnnxLoaderTest, ReduceWithNoAxesAndNoopKeepsTheElementwiseSteps) {
  const std::vector<float> x{-1, 2, -3, 4};
  const std::pair<const char*, std::vector<float>> cases[] = {
      {"ReduceSumSquare", {1, 4, 9, 16}}, {"ReduceL1", {1, 2, 3, 4}}, {"ReduceMean", {-1, 2, -3, 4}}};
  for (const auto& [op, want] : cases) {
    NodeModel m = nodeModel(op, {{"x", {2, 2}}}, {{"y", {2, 2}}}, 18);
    setAttribute(m.node, "noop_with_empty_axes", 1);
    auto loaded = loadOnnxModel(write("reducenoop.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(run(*loaded, {x}, 4), want) << op;
  }
}

// What the opset-18 reductions refuse: axes computed at run time, the axes attribute opset 18 removed,
// and noop_with_empty_axes before opset 18 (ReduceSum has had it since 13).
TEST(OnnxLoaderTest, ReduceRefusesRunTimeAxesAndAttributesOfOtherOpsets) {
  NodeModel runtime = nodeModel("ReduceMax", {{"x", {2, 3}}, {"axes", {1}}}, {{"y", {2, 1}}}, 18);
  setElementType(runtime.model.mutable_graph()->mutable_input(1), onnx::TensorProto::INT64);
  expectOneLineError(loadOnnxModel(write("reduceruntime.onnx", runtime.model)),
                     "node 'n' (ReduceMax): input 1 ('axes') must be a constant");
  NodeModel attribute = nodeModel("ReduceMean", {{"x", {2, 3}}}, {{"y", {2, 1}}}, 18);
  setAttribute(attribute.node, "axes", std::vector<int64_t>{1});
  expectOneLineError(loadOnnxModel(write("reduceattribute.onnx", attribute.model)),
                     "node 'n' (ReduceMean): attribute 'axes' is an input since opset 18");
  NodeModel noop = nodeModel("ReduceProd", {{"x", {2, 3}}}, {{"y", {1, 1}}}, 17);
  setAttribute(noop.node, "noop_with_empty_axes", 1);
  expectOneLineError(
      loadOnnxModel(write("reducenoop17.onnx", noop.model)),
      "node 'n' (ReduceProd): attribute 'noop_with_empty_axes' is not defined before opset 18");
}

// ReduceMax and ReduceMin of booleans (opset 20, false < true): any and all. Rows [true, false] and
// [false, false]: maxima [true, false], minima [false, false]. Opset 19 refuses booleans.
TEST(OnnxLoaderTest, ReduceMaxMinOfBooleansFromOpset20) {
  for (int64_t opset : {19, 20}) {
    for (const char* op : {"ReduceMax", "ReduceMin"}) {
      NodeModel m = nodeModel(op, {{"x", {2, 2}}}, {{"y", {2}}}, opset);
      setElementType(m.model.mutable_graph()->mutable_input(0), onnx::TensorProto::BOOL);
      setElementType(m.model.mutable_graph()->mutable_output(0), onnx::TensorProto::BOOL);
      addInts(m, "axes", {1});
      setAttribute(m.node, "keepdims", int64_t{0});
      auto loaded = loadOnnxModel(write("reducebool.onnx", m.model));
      if (opset == 19) {
        expectOneLineError(loaded, "bool inputs are not supported");
        continue;
      }
      ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
      std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(2)};
      runBytes(*loaded, {{1, 0, 0, 0}}, outputs);
      EXPECT_EQ(outputs[0],
                std::string(op) == "ReduceMax" ? (std::vector<uint8_t>{1, 0}) : (std::vector<uint8_t>{0, 0}))
          << op;
    }
  }
}

// Split with num_outputs (opset 18): 7 elements into 3 parts of ceil(7 / 3) = 3, the last taking the rest,
// 7 - 2 * 3 = 1: [1, 2, 3], [4, 5, 6], [7]. Opset 17 refuses the attribute, and 7 does not split evenly
// there without sizes.
TEST(OnnxLoaderTest, SplitNumOutputsFromOpset18) {
  NodeModel m = nodeModel("Split", {{"x", {7}}}, {{"a", {3}}, {"b", {3}}, {"c", {1}}}, 18);
  setAttribute(m.node, "num_outputs", 3);
  auto loaded = loadOnnxModel(write("split18.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const std::vector<float> x{1, 2, 3, 4, 5, 6, 7};
  std::vector<uint8_t> in(28);
  std::memcpy(in.data(), x.data(), 28);
  std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(12), std::vector<uint8_t>(12),
                                            std::vector<uint8_t>(4)};
  runBytes(*loaded, {in}, outputs);
  std::vector<float> a(3), b(3), c(1);
  std::memcpy(a.data(), outputs[0].data(), 12);
  std::memcpy(b.data(), outputs[1].data(), 12);
  std::memcpy(c.data(), outputs[2].data(), 4);
  EXPECT_EQ(a, (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(b, (std::vector<float>{4, 5, 6}));
  EXPECT_EQ(c, (std::vector<float>{7}));

  NodeModel mismatch = nodeModel("Split", {{"x", {7}}}, {{"a", {4}}, {"b", {3}}}, 18);
  setAttribute(mismatch.node, "num_outputs", 3);
  expectOneLineError(loadOnnxModel(write("splitmismatch.onnx", mismatch.model)),
                     "attribute 'num_outputs' is 3 where the node has 2 outputs");
  NodeModel old = nodeModel("Split", {{"x", {7}}}, {{"a", {3}}, {"b", {3}}, {"c", {1}}}, 17);
  setAttribute(old.node, "num_outputs", 3);
  expectOneLineError(loadOnnxModel(write("split17.onnx", old.model)),
                     "attribute 'num_outputs' is not defined before opset 18");
  NodeModel uneven = nodeModel("Split", {{"x", {7}}}, {{"a", {3}}, {"b", {3}}, {"c", {1}}}, 17);
  expectOneLineError(loadOnnxModel(write("splituneven.onnx", uneven.model)),
                     "the axis does not split evenly");
  NodeModel neither = nodeModel("Split", {{"x", {6}}}, {{"a", {3}}, {"b", {3}}}, 18);
  expectOneLineError(loadOnnxModel(write("splitneither.onnx", neither.model)),
                     "from opset 18 Split needs the split input or attribute 'num_outputs'");
}

// Pad with an axes input (opset 18): pads [1, 2] of axis 1 alone put one 0 before and two after each row
// of [[1, 2, 3], [4, 5, 6]]; wrap (opset 19) with pads [2, 1] takes positions o - 2 modulo 3 of each
// row: [1, 2, 3] -> [2, 3, 1, 2, 3, 1].
TEST(OnnxLoaderTest, PadAxesInputFromOpset18AndWrapFrom19) {
  const std::vector<float> x{1, 2, 3, 4, 5, 6};
  for (const char* mode : {"constant", "wrap"}) {
    const bool wrap = std::string(mode) == "wrap";
    NodeModel m = nodeModel("Pad", {{"x", {2, 3}}}, {{"y", {2, 6}}}, wrap ? 19 : 18);
    addInts(m, "pads", wrap ? std::vector<int64_t>{2, 1} : std::vector<int64_t>{1, 2});
    m.node->add_input("");  // constant_value: 0
    addInts(m, "axes", {-1});
    setAttribute(m.node, "mode", std::string(mode));
    auto loaded = loadOnnxModel(write("pad18.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    const std::vector<float> want = wrap ? std::vector<float>{2, 3, 1, 2, 3, 1, 5, 6, 4, 5, 6, 4}
                                         : std::vector<float>{0, 1, 2, 3, 0, 0, 0, 4, 5, 6, 0, 0};
    EXPECT_EQ(run(*loaded, {x}, 12), want) << mode;
  }
  NodeModel wrap18 = nodeModel("Pad", {{"x", {2, 3}}}, {{"y", {2, 6}}}, 18);
  addInts(wrap18, "pads", {0, 2, 0, 1});
  setAttribute(wrap18.node, "mode", std::string("wrap"));
  expectOneLineError(loadOnnxModel(write("padwrap18.onnx", wrap18.model)),
                     "mode 'wrap' has no NNAPI operation");
  NodeModel odd = nodeModel("Pad", {{"x", {2, 3}}}, {{"y", {2, 6}}}, 18);
  addInts(odd, "pads", {1, 2, 3});
  odd.node->add_input("");
  addInts(odd, "axes", {1});
  expectOneLineError(loadOnnxModel(write("padodd.onnx", odd.model)),
                     "pads must have 2 entries per axis in axes");
}

// Gelu (opset 20) against its definition in double precision with the C library's erf and tanh, over
// negative values, zero and large ones: 0.5 x (1 + erf(x / sqrt 2)), or 0.5 x (1 + tanh(sqrt(2 / pi) (x +
// 0.044715 x^3))). The tolerance allows Erf's error (2.5e-7, met by the factor 0.5 |x|) and a few float32
// roundings of the result.
TEST(OnnxLoaderTest, GeluNoneAndTanhMatchTheCLibrary) {
  std::vector<float> x;
  for (int i = -80; i <= 80; ++i)
    x.push_back(static_cast<float>(i) / 10.0f);
  for (float v : {0.0f, -0.0f, 1e-6f, -1e-3f, 30.0f, -30.0f, 100.0f})
    x.push_back(v);
  const int64_t n = static_cast<int64_t>(x.size());
  for (const char* approximate : {"none", "tanh"}) {
    const bool tanh = std::string(approximate) == "tanh";
    NodeModel m = nodeModel("Gelu", {{"x", {n}}}, {{"y", {n}}}, 20);
    setAttribute(m.node, "approximate", std::string(approximate));
    auto loaded = loadOnnxModel(write("gelu.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(hasOperation(*loaded, ANEURALNETWORKS_TANH), tanh);
    std::vector<float> got = run(*loaded, {x}, x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const double v = x[i];
      const double want = tanh ? 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)))
                               : 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
      ASSERT_NEAR(got[i], want, 1e-7 + 1e-6 * std::fabs(want) + 2.5e-7 * std::fabs(v))
          << "Gelu " << approximate << "(" << x[i] << ")";
    }
  }
  NodeModel unknown = nodeModel("Gelu", {{"x", {2}}}, {{"y", {2}}}, 20);
  setAttribute(unknown.node, "approximate", std::string("fast"));
  expectOneLineError(loadOnnxModel(write("gelufast.onnx", unknown.model)),
                     "node 'n' (Gelu): attribute 'approximate' 'fast' is neither");
  expectOneLineError(
      loadOnnxModel(write("gelu17.onnx", nodeModel("Gelu", {{"x", {2}}}, {{"y", {2}}}, 17).model)),
      "Gelu is not defined before opset 20");
}

// Mish (opset 18): x tanh(log(1 + e^x)) against the C library in double precision.
TEST(OnnxLoaderTest, MishMatchesTheCLibrary) {
  const std::vector<float> x{-3, -1, -0.25f, 0, 0.5f, 2, 5, 12};
  NodeModel m = nodeModel("Mish", {{"x", {8}}}, {{"y", {8}}}, 18);
  auto loaded = loadOnnxModel(write("mish.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  std::vector<float> got = run(*loaded, {x}, x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i], want = v * std::tanh(std::log1p(std::exp(v)));
    EXPECT_NEAR(got[i], want, 1e-6 + 1e-5 * std::fabs(want)) << "Mish(" << x[i] << ")";
  }
}

// Resize with the axes attribute (opset 18): scales [2, 2] of axes [2, 3] are [1, 1, 2, 2], as in
// ResizeNearestNativeOrGathered (asymmetric, floor: rows and columns 0, 0, 1, 1).
// half_pixel_symmetric (opset 19) of [0, 10] by 1.75 (3.5 columns, 3 whole): the offset is
// 1 * (1 - 3 / 3.5) = 1/7, column 1 reads 1/7 + 1.5 / 1.75 - 0.5 = 0.5 -> 5; column 0 reads below 0 ->
// 0, column 2 beyond 1 -> 10 (half_pixel would read 0.357 for column 1).
TEST(OnnxLoaderTest, ResizeAxesFromOpset18AndHalfPixelSymmetricFrom19) {
  NodeModel m = nodeModel("Resize", {{"x", {1, 1, 2, 2}}}, {{"y", {1, 1, 4, 4}}}, 18);
  m.node->add_input("");
  addFloats(m, "scales", {2}, {2, 2});
  setAttribute(m.node, "axes", std::vector<int64_t>{2, -1});
  setAttribute(m.node, "coordinate_transformation_mode", std::string("asymmetric"));
  setAttribute(m.node, "nearest_mode", std::string("floor"));
  auto loaded = loadOnnxModel(write("resizeaxes.onnx", m.model));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(run(*loaded, {{1, 2, 3, 4}}, 16),
            (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));

  for (int64_t opset : {18, 19}) {
    NodeModel s = nodeModel("Resize", {{"x", {1, 1, 1, 2}}}, {{"y", {1, 1, 1, 3}}}, opset);
    s.node->add_input("");
    addFloats(s, "scales", {4}, {1, 1, 1, 1.75f});
    setAttribute(s.node, "mode", std::string("linear"));
    setAttribute(s.node, "coordinate_transformation_mode", std::string("half_pixel_symmetric"));
    auto symmetric = loadOnnxModel(write("resizesymmetric.onnx", s.model));
    if (opset == 18) {
      expectOneLineError(symmetric, "coordinate_transformation_mode 'half_pixel_symmetric' is not supported");
      continue;
    }
    ASSERT_TRUE(symmetric.has_value()) << symmetric.error().message;
    std::vector<float> got = run(*symmetric, {{0, 10}}, 3);
    EXPECT_FLOAT_EQ(got[0], 0);
    EXPECT_NEAR(got[1], 5, 1e-5);
    EXPECT_FLOAT_EQ(got[2], 10);
  }
}

// New attributes at values the mappings cannot compute are refused by name; where they change nothing
// (Cast's saturate outside float8) they are accepted, and older opsets refuse them.
TEST(OnnxLoaderTest, RefusesUnsupportedValuesOfTheNewAttributesByName) {
  auto resize = [](const char* attribute, const std::string& value, bool sizes) {
    NodeModel m = nodeModel("Resize", {{"x", {1, 1, 2, 2}}}, {{"y", {1, 1, 1, 1}}}, 18);
    m.node->add_input("");
    if (sizes) {
      m.node->add_input("");
      addInts(m, "sizes", {1, 1, 1, 1});
    } else {
      addFloats(m, "scales", {4}, {1, 1, 0.5f, 0.5f});
    }
    setAttribute(m.node, "mode", std::string("linear"));
    if (std::string(attribute) == "antialias")
      setAttribute(m.node, attribute, int64_t{1});
    else
      setAttribute(m.node, attribute, value);
    return loadOnnxModel(write("resizenew.onnx", m.model));
  };
  expectOneLineError(resize("antialias", "", false), "node 'n' (Resize): attribute 'antialias'");
  expectOneLineError(resize("keep_aspect_ratio_policy", "not_larger", true),
                     "node 'n' (Resize): attribute 'keep_aspect_ratio_policy' 'not_larger' is not supported");
  EXPECT_TRUE(resize("keep_aspect_ratio_policy", "not_larger", false).has_value());  // scales: no effect
  expectOneLineError(resize("coordinate_transformation_mode", "bogus", false),
                     "coordinate_transformation_mode 'bogus' is not supported");

  for (int64_t opset : {18, 19}) {
    NodeModel pool = nodeModel("AveragePool", {{"x", {1, 1, 4, 4}}}, {{"y", {1, 1, 2, 2}}}, opset);
    setAttribute(pool.node, "kernel_shape", std::vector<int64_t>{2, 2});
    setAttribute(pool.node, "dilations", std::vector<int64_t>{2, 2});
    expectOneLineError(loadOnnxModel(write("avgdilated.onnx", pool.model)),
                       opset == 18 ? "attribute 'dilations' is not defined before opset 19"
                                   : "dilated pooling has no NNAPI operation");
  }

  NodeModel blocked = nodeModel("QuantizeLinear", {{"x", {2, 4}}}, {}, 21);
  addFloats(blocked, "scale", {2, 2}, {1, 1, 1, 1});
  setAttribute(blocked.node, "axis", 1);
  setAttribute(blocked.node, "block_size", 2);
  addFloatInput(blocked.model.mutable_graph(), "y", {2, 4}, true);
  blocked.node->add_output("y");
  expectOneLineError(
      loadOnnxModel(write("blocked.onnx", blocked.model)),
      "node 'n' (QuantizeLinear): attribute 'block_size' (blocked quantization) is not supported");

  for (int64_t opset : {18, 19}) {
    NodeModel cast = nodeModel("Cast", {{"x", {2}}}, {{"y", {2}}}, opset);
    setAttribute(cast.node, "to", int64_t{onnx::TensorProto::FLOAT});
    setAttribute(cast.node, "saturate", int64_t{0});
    auto loaded = loadOnnxModel(write("castsaturate.onnx", cast.model));
    if (opset == 18) {
      expectOneLineError(loaded, "node 'n' (Cast): attribute 'saturate' is not defined before opset 19");
      continue;
    }
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    EXPECT_EQ(run(*loaded, {{1.5f, -2}}, 2), (std::vector<float>{1.5f, -2}));
  }
}


// GroupNormalization of x [1, 4, 2] in 2 groups, epsilon 0: group 0 holds 1, 2, 3, 4 (mean 2.5, var 7.5 -
// 6.25 = 1.25), group 1 holds 10, 10, 10, 14 (mean 11, var 124 - 121 = 3). Opset 18 scales and shifts
// per group, 21 per channel: compared with those statistics computed here in double.
TEST(OnnxLoaderTest, GroupNormalizationPerGroupAt18AndPerChannelAt21) {
  const std::vector<float> x{1, 2, 3, 4, 10, 10, 10, 14};
  for (int64_t opset : {18, 21}) {
    const bool perChannel = opset == 21;
    const std::vector<float> scale = perChannel ? std::vector<float>{1, 2, 3, 4} : std::vector<float>{2, -1};
    const std::vector<float> bias = perChannel ? std::vector<float>{0, 0, 0, 1} : std::vector<float>{1, 0};
    NodeModel m = nodeModel("GroupNormalization", {{"x", {1, 4, 2}}}, {{"y", {1, 4, 2}}}, opset);
    addFloats(m, "scale", {static_cast<int64_t>(scale.size())}, scale);
    addFloats(m, "bias", {static_cast<int64_t>(bias.size())}, bias);
    setAttribute(m.node, "num_groups", 2);
    auto* eps = m.node->add_attribute();
    eps->set_name("epsilon");
    eps->set_type(onnx::AttributeProto::FLOAT);
    eps->set_f(0.0f);
    auto loaded = loadOnnxModel(write("groupnorm.onnx", m.model));
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    std::vector<float> got = run(*loaded, {x}, 8);
    const double mean[2] = {2.5, 11}, deviation[2] = {std::sqrt(1.25), std::sqrt(3.0)};
    for (size_t i = 0; i < 8; ++i) {
      const size_t group = i / 4, k = perChannel ? i / 2 : group;
      const double want = scale[k] * (x[i] - mean[group]) / deviation[group] + bias[k];
      EXPECT_NEAR(got[i], want, 1e-5) << "opset " << opset << " element " << i;
    }
  }
  NodeModel stash = nodeModel("GroupNormalization", {{"x", {1, 4, 2}}}, {{"y", {1, 4, 2}}}, 18);
  addFloats(stash, "scale", {2}, {1, 1});
  addFloats(stash, "bias", {2}, {0, 0});
  setAttribute(stash.node, "num_groups", 2);
  setAttribute(stash.node, "stash_type", 1);
  expectOneLineError(loadOnnxModel(write("groupnormstash.onnx", stash.model)),
                     "attribute 'stash_type' is not defined before opset 21");
}


// QuantizeLinear's output_dtype (opset 21) names the output type when no zero point does: int8, zero point
// 0, scale 1: round half to even then saturate, [-1.5, 0.5, 200, -300] -> [-2, 0, 127, -128]. A
// different type than the zero point's, or one other than 8-bit, is refused by name.
TEST(OnnxLoaderTest, QuantizeLinearOutputDtypeFromOpset21) {
  auto model = [](int64_t dtype, bool zeroPoint) {
    NodeModel m = nodeModel("QuantizeLinear", {{"x", {4}}}, {}, 21);
    addFloats(m, "scale", {}, {1});
    if (zeroPoint) {
      auto* zero = m.model.mutable_graph()->add_initializer();
      zero->set_name("zero");
      zero->set_data_type(onnx::TensorProto::UINT8);
      zero->add_int32_data(0);
      m.node->add_input("zero");
    }
    setAttribute(m.node, "output_dtype", dtype);
    auto* y = m.model.mutable_graph()->add_output();
    y->set_name("y");
    y->mutable_type()->mutable_tensor_type()->set_elem_type(static_cast<int32_t>(dtype));
    y->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(4);
    m.node->add_output("y");
    return loadOnnxModel(write("quantizedtype.onnx", m.model));
  };
  auto loaded = model(onnx::TensorProto::INT8, false);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->outputs[0].type, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED);
  const std::vector<float> x{-1.5f, 0.5f, 200, -300};
  std::vector<uint8_t> in(16);
  std::memcpy(in.data(), x.data(), 16);
  std::vector<std::vector<uint8_t>> outputs{std::vector<uint8_t>(4)};
  runBytes(*loaded, {in}, outputs);
  std::vector<int> y;
  for (uint8_t v : outputs[0]) y.push_back(static_cast<int8_t>(v));
  EXPECT_EQ(y, (std::vector<int>{-2, 0, 127, -128}));
  expectOneLineError(model(onnx::TensorProto::INT8, true),
                     "attribute 'output_dtype' differs from the zero point's type");
  expectOneLineError(model(onnx::TensorProto::UINT16, false), "attribute 'output_dtype'");
}

}  // namespace
}  // namespace nnrt::onnxfront
