// The model-file loader (tools/nnrt/model_file.hpp): good files build the model the file describes
// through the C API; every kind of mistake is reported with the file, the line, the key and, when
// the runtime refused a call, the function and its result code. Messages are compared exactly:
// they are the loader's user interface.
//
// Runs with the build tree's configuration (build/etc/nnrt/runtime.yaml) and NNRT_APP_ID set to an
// allowlisted id, so the Fibonacci extension is usable.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "core/capi/handles.hpp"
#include "tools/nnrt/element_codec.hpp"
#include "tools/nnrt/model_file.hpp"

namespace nnrt::tools {
namespace {

const std::filesystem::path kSource = NNRT_TEST_SOURCE_DIR;

// A fresh folder for files of one test.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("nnrt_model_file_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path_ / name, std::ios::binary) << bytes;
    return path_ / name;
  }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

std::string loadError(const std::string& yaml, const std::filesystem::path& file = "bad.yaml") {
  auto loaded = loadModelText(yaml, file);
  EXPECT_FALSE(loaded.has_value());
  return loaded.has_value() ? "(loaded)" : loaded.error().message;
}

// The bytes the finished model holds for a constant operand (small values only).
std::vector<uint8_t> constantBytes(const ModelFile& file, uint32_t operand) {
  const auto finished = file.model->builder.finishedModel();
  const Operand& o = finished->operands.at(operand);
  if (o.lifetime == NNRT_LIFETIME_CONSTANT_COPY) {
    const uint8_t* p = finished->smallValues.data() + o.location.offset;
    return {p, p + o.location.length};
  }
  if (o.lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE && o.location.pool_index == 0) {
    const uint8_t* p = finished->largeValues.data() + o.location.offset;
    return {p, p + o.location.length};
  }
  return {};
}

std::vector<uint8_t> floatBytes(std::initializer_list<float> values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

constexpr const char* kAddModel = R"(version: 1
description: a + b
operands:
  - {name: a, type: TENSOR_FLOAT32, dims: [2, 2]}
  - name: b
    type: TENSOR_FLOAT32
    dims: [2, 2]
    value: [[1, 2], [3.5, -4]]
  - {name: act, type: INT32, value: 0}
  - {name: sum, type: TENSOR_FLOAT32, dims: [2, 2]}
operations:
  - {name: add, type: ADD, inputs: [a, b, act], outputs: [sum]}
inputs: [a]
outputs: [sum]
)";

TEST(ModelFileTest, InlineValues) {
  auto loaded = loadModelText(kAddModel, "add.yaml");
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const ModelFile& f = *loaded;
  EXPECT_EQ(f.description, "a + b");
  ASSERT_EQ(f.operands.size(), 4u);
  EXPECT_EQ(f.operands[1].name, "b");
  EXPECT_EQ(f.operands[1].type, ANEURALNETWORKS_TENSOR_FLOAT32);
  EXPECT_EQ(f.operands[1].dimensions, (std::vector<uint32_t>{2, 2}));
  EXPECT_EQ(f.operands[1].element, ElementType::F32);
  EXPECT_EQ(f.operands[1].line, 5);
  EXPECT_TRUE(f.operands[1].hasValue);
  EXPECT_FALSE(f.operands[0].hasValue);
  ASSERT_EQ(f.operations.size(), 1u);
  EXPECT_EQ(f.operations[0].type, ANEURALNETWORKS_ADD);
  EXPECT_EQ(f.operations[0].inputs, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(f.operationLabel(0), "ADD 'add'");
  EXPECT_EQ(f.inputs, (std::vector<uint32_t>{0}));
  EXPECT_EQ(f.outputs, (std::vector<uint32_t>{3}));
  EXPECT_EQ(f.findOperand("sum"), 3u);
  EXPECT_EQ(f.byteSize(3, {2, 2}), 16u);
  ASSERT_TRUE(f.model->builder.finished());
  EXPECT_EQ(constantBytes(f, 1), floatBytes({1, 2, 3.5f, -4}));
  int32_t zero = 0;
  std::vector<uint8_t> act(4);
  std::memcpy(act.data(), &zero, 4);
  EXPECT_EQ(constantBytes(f, 2), act);
}

TEST(ModelFileTest, ValuesFromASideFile) {
  TempDir dir;
  std::vector<float> weights(40);
  for (size_t i = 0; i < weights.size(); ++i)
    weights[i] = static_cast<float>(i) * 0.5f;
  std::string bin(reinterpret_cast<const char*>(weights.data()), weights.size() * sizeof(float));
  dir.write("weights.bin", "HEADER__" + bin);
  auto path = dir.write("model.yaml", R"(operands:
  - {name: x, type: TENSOR_FLOAT32, dims: [1, 4]}
  - {name: w, type: TENSOR_FLOAT32, dims: [8, 4], file: weights.bin, offset: 8, length: 128}
  - {name: b, type: TENSOR_FLOAT32, dims: [8], file: weights.bin, offset: 136}
  - {name: act, type: INT32, value: 0}
  - {name: y, type: TENSOR_FLOAT32, dims: [1, 8]}
operations:
  - {type: FULLY_CONNECTED, inputs: [x, w, b, act], outputs: [y]}
inputs: [x]
outputs: [y]
)");
  auto loaded = loadModelFile(path);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  std::vector<uint8_t> all(bin.begin(), bin.end());
  EXPECT_EQ(constantBytes(*loaded, 1),
            std::vector<uint8_t>(all.begin(), all.begin() + 128));  // over 128: copied at finish
  EXPECT_EQ(constantBytes(*loaded, 2),
            std::vector<uint8_t>(all.begin() + 128, all.end()));  // to the end of the file
  EXPECT_EQ(loaded->operationLabel(0), "FULLY_CONNECTED");
}

TEST(ModelFileTest, ExtensionOperands) {
  auto loaded = loadModelFile(kSource / "examples/models/fibonacci.yaml");
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const ModelFile& f = *loaded;
  EXPECT_TRUE(f.usesExtensions);
  ASSERT_EQ(f.operands.size(), 2u);
  EXPECT_NE(f.operands[0].type >> 16, 0) << "an extension type carries the model's prefix";
  EXPECT_EQ(f.operands[0].type & 0xFFFF, 0);  // EXAMPLE_INT64
  EXPECT_EQ(f.operands[1].type & 0xFFFF, 1);  // EXAMPLE_TENSOR_QUANT64_ASYMM
  EXPECT_EQ(f.operands[0].element, ElementType::I64);
  EXPECT_EQ(f.operands[1].element, ElementType::U64);
  EXPECT_EQ(f.operations[0].type & 0xFFFF, 0);  // EXAMPLE_FIBONACCI
  const auto finished = f.model->builder.finishedModel();
  const Operand& fib = finished->operands[1];
  ASSERT_TRUE(fib.hasExtensionData);
  ASSERT_EQ(fib.extensionData.size(), 16u);  // {double scale; int64_t zeroPoint;}
  double scale = 0;
  std::memcpy(&scale, fib.extensionData.data(), sizeof scale);
  EXPECT_EQ(scale, 1.0);
}

TEST(ModelFileTest, DeclaredExtensionNamesElementTypesAndBase64) {
  auto loaded = loadModelText(R"(extensions:
  com.example.fibonacci:
    operand_types:
      COUNT: {code: 0, element_type: i64}
      FIXED: 1
    operation_types: {FIB: 0}
operands:
  - {name: n, type: "com.example.fibonacci:COUNT", value: 7}
  - name: fib
    type: com.example.fibonacci:FIXED
    dims: [7]
    extension_data: {base64: "AAAAAAAA8D8AAAAAAAAAAA=="}
operations:
  - {type: "com.example.fibonacci:FIB", inputs: [n], outputs: [fib]}
outputs: [fib]
)",
                              "ext.yaml");
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->operands[0].element, ElementType::I64);
  EXPECT_EQ(loaded->operands[1].element, std::nullopt);
  int64_t seven = 7;
  std::vector<uint8_t> bytes(8);
  std::memcpy(bytes.data(), &seven, 8);
  EXPECT_EQ(constantBytes(*loaded, 0), bytes);
  EXPECT_EQ(loaded->model->builder.finishedModel()->operands[1].extensionData.size(), 16u);
}

// The loader knows no extension by itself: the example extension's names are refused until the file
// declares them, and its types are reachable by number without a declaration.
TEST(ModelFileTest, ExtensionNamesComeOnlyFromTheFile) {
  EXPECT_EQ(loadError("operands:\n  - {name: n, type: \"com.example.fibonacci:EXAMPLE_INT64\"}\n"
                      "operations: []\noutputs: []\n"),
            "bad.yaml:2: operands[0].type: extension 'com.example.fibonacci' has no operand type named "
            "'EXAMPLE_INT64' (declare it under extensions.com.example.fibonacci.operand_types, or give its "
            "number)");
  EXPECT_EQ(loadError("operands:\n  - {name: n, type: \"com.example.fibonacci:0\"}\n"
                      "  - {name: fib, type: \"com.example.fibonacci:1\", dims: [3]}\n"
                      "operations:\n  - {type: \"com.example.fibonacci:EXAMPLE_FIBONACCI\", inputs: [n], "
                      "outputs: [fib]}\noutputs: [fib]\n"),
            "bad.yaml:5: operations[0].type: extension 'com.example.fibonacci' has no operation named "
            "'EXAMPLE_FIBONACCI' (declare it under extensions.com.example.fibonacci.operation_types, or give "
            "its number)");
  // Declared for another extension: still unknown for this one.
  EXPECT_EQ(loadError("extensions:\n  com.example.other: {operand_types: {EXAMPLE_INT64: 0}}\n"
                      "operands:\n  - {name: n, type: \"com.example.fibonacci:EXAMPLE_INT64\"}\n"
                      "operations: []\noutputs: []\n"),
            "bad.yaml:4: operands[0].type: extension 'com.example.fibonacci' has no operand type named "
            "'EXAMPLE_INT64' (declare it under extensions.com.example.fibonacci.operand_types, or give its "
            "number)");
  // By number, no declaration: the types are the extension's 0 and 1, and no element type is known.
  auto loaded = loadModelText("operands:\n  - {name: n, type: \"com.example.fibonacci:0\"}\n"
                              "  - {name: fib, type: \"com.example.fibonacci:1\", dims: [3]}\n"
                              "operations:\n  - {type: \"com.example.fibonacci:0\", inputs: [n], outputs: [fib]}\n"
                              "inputs: [n]\noutputs: [fib]\n",
                              "numbers.yaml");
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->operands[0].type & 0xFFFF, 0);
  EXPECT_EQ(loaded->operands[1].type & 0xFFFF, 1);
  EXPECT_EQ(loaded->operands[0].element, std::nullopt);
  EXPECT_EQ(loaded->operations[0].type & 0xFFFF, 0);
}

TEST(ModelFileTest, UnknownKey) {
  EXPECT_EQ(
      loadError("operands:\n  - {name: x, type: TENSOR_FLOAT32, dim: [1]}\noperations: []\noutputs: []\n"),
      "bad.yaml:2: operands[0].dim: unknown key (expected one of: name, type, dims, scale, zero_point, "
      "value, "
      "file, offset, length, omitted, element_type, channel_quant, extension_data)");
  EXPECT_EQ(loadError("operand: []\n"),
            "bad.yaml:1: operand: unknown key (expected one of: version, description, relaxed, extensions, "
            "subgraphs, operands, "
            "operations, inputs, outputs)");
}

TEST(ModelFileTest, UnknownOperandName) {
  std::string yaml = kAddModel;
  yaml.replace(yaml.find("inputs: [a, b, act]"), 19, "inputs: [a, bb, act]");
  EXPECT_EQ(loadError(yaml), "bad.yaml:12: operations[0].inputs[1]: unknown operand 'bb'");
  yaml = kAddModel;
  yaml.replace(yaml.find("outputs: [sum]\n", yaml.find("inputs: [a]")), 15, "outputs: [total]\n");
  EXPECT_EQ(loadError(yaml), "bad.yaml:14: outputs[0]: unknown operand 'total'");
}

TEST(ModelFileTest, WrongValueCount) {
  std::string yaml = kAddModel;
  yaml.replace(yaml.find("[[1, 2], [3.5, -4]]"), 19, "[1, 2, 3]");
  EXPECT_EQ(
      loadError(yaml),
      "bad.yaml:8: operands[1].value: ANeuralNetworksModel_setOperandValue returned ANEURALNETWORKS_BAD_DATA "
      "(3 values, 12 bytes, for TENSOR_FLOAT32 [2, 2])");
  auto loaded = loadModelText(yaml, "bad.yaml");
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code, ResultCode::BAD_DATA);
}

TEST(ModelFileTest, MissingSideFile) {
  TempDir dir;
  auto path = dir.write("model.yaml", R"(operands:
  - {name: x, type: TENSOR_FLOAT32, dims: [4]}
  - {name: w, type: TENSOR_FLOAT32, dims: [4], file: missing.bin}
operations: []
outputs: []
)");
  auto loaded = loadModelFile(path);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().message, path.string() + ":3: operands[1].file: cannot open 'missing.bin' (" +
                                        (dir.path() / "missing.bin").string() +
                                        "): No such file or directory");
}

TEST(ModelFileTest, SideFileTooShort) {
  TempDir dir;
  dir.write("w.bin", std::string(16, '\0'));
  auto path = dir.write("model.yaml", R"(operands:
  - {name: w, type: TENSOR_FLOAT32, dims: [4], file: w.bin, offset: 8, length: 16}
  - {name: v, type: TENSOR_FLOAT32, dims: [4], file: w.bin, offset: 20}
operations: []
outputs: []
)");
  auto loaded = loadModelFile(path);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(
      loaded.error().message,
      path.string() + ":2: operands[0].length: offset 8 + length 16 goes past the end of 'w.bin' (16 bytes)");
}

TEST(ModelFileTest, BadTypeName) {
  EXPECT_EQ(loadError("operands:\n  - {name: x, type: TENSOR_FLOAT33}\noperations: []\noutputs: []\n"),
            "bad.yaml:2: operands[0].type: 'TENSOR_FLOAT33' is not an NNAPI operand type (e.g. "
            "TENSOR_FLOAT32) or an "
            "extension type (extension.name:TYPE)");
  std::string yaml = kAddModel;
  yaml.replace(yaml.find("type: ADD"), 9, "type: ADDD");
  EXPECT_EQ(
      loadError(yaml),
      "bad.yaml:12: operations[0].type: 'ADDD' is not an NNAPI operation type (e.g. CONV_2D) or an extension "
      "operation (extension.name:OPERATION)");
  EXPECT_EQ(
      loadError("operands:\n  - {name: x, type: \"com.example.fibonacci:EXAMPLE_INT32\"}\noperations: []\n"
                "outputs: []\n"),
      "bad.yaml:2: operands[0].type: extension 'com.example.fibonacci' has no operand type named "
      "'EXAMPLE_INT32' (declare it under extensions.com.example.fibonacci.operand_types, or give its "
      "number)");
}

TEST(ModelFileTest, RuntimeRefusals) {
  // An extension the runtime does not know: the C API refuses it; the loader names the call.
  EXPECT_EQ(
      loadError("operands:\n  - {name: x, type: \"com.example.nothing:0\"}\noperations: []\noutputs: []\n"),
      "bad.yaml:2: operands[0].type: ANeuralNetworksModel_getExtensionOperandType returned "
      "ANEURALNETWORKS_BAD_DATA (is a device offering this extension loaded, and may this program use "
      "extensions? see `nnrt devices`, NNRT_APP_ID and the allowlist)");
  // A scalar with dimensions.
  EXPECT_EQ(loadError("operands:\n  - {name: x, type: INT32, dims: [2]}\noperations: []\noutputs: []\n"),
            "bad.yaml:2: operands[0]: ANeuralNetworksModel_addOperand returned ANEURALNETWORKS_BAD_DATA "
            "(INT32 [2])");
  // ADD with two inputs: refused by addOperation's validation or by finish.
  std::string yaml = kAddModel;
  yaml.replace(yaml.find("inputs: [a, b, act]"), 19, "inputs: [a, b]");
  std::string message = loadError(yaml);
  EXPECT_TRUE(
      message.rfind("bad.yaml:12: operations[0]: ANeuralNetworksModel_addOperation returned "
                    "ANEURALNETWORKS_BAD_DATA",
                    0) == 0 ||
      message.rfind("bad.yaml:11: operations: ANeuralNetworksModel_finish returned ANEURALNETWORKS_BAD_DATA",
                    0) == 0)
      << message;
  // No operation at all: finish refuses.
  EXPECT_EQ(
      loadError("operands:\n  - {name: x, type: TENSOR_FLOAT32, dims: [1]}\noperations: []\noutputs: [x]\n"),
      "bad.yaml:3: operations: ANeuralNetworksModel_finish returned ANEURALNETWORKS_BAD_DATA (the runtime "
      "numbers operands and operations from 0 in the order of this file)");
}

TEST(ModelFileTest, OtherMistakes) {
  EXPECT_EQ(loadError("operands: [\n"), "bad.yaml:2: YAML syntax error: end of sequence flow not found");
  EXPECT_EQ(loadError("operands: []\noutputs: []\n"), "bad.yaml:1: operations: missing (required)");
  EXPECT_EQ(loadError("version: 2\noperands: []\noperations: []\noutputs: []\n"),
            "bad.yaml:1: version: only version 1 exists");
  EXPECT_EQ(
      loadError("operands:\n  - {name: x, type: TENSOR_FLOAT32, dims: [1]}\n  - {name: x, type: INT32}\n"
                "operations: []\noutputs: []\n"),
      "bad.yaml:3: operands[1].name: operand 'x' is already defined at line 2");
  EXPECT_EQ(
      loadError(
          "operands:\n  - {name: x, type: TENSOR_QUANT8_ASYMM, dims: [2], scale: 0.5, value: [1, 300]}\n"
          "operations: []\noutputs: []\n"),
      "bad.yaml:2: operands[0].value[1]: '300' is out of range for u8");
  EXPECT_EQ(
      loadError("operands:\n  - {name: x, type: TENSOR_FLOAT32, dims: [2], value: [1, 2], file: a.bin}\n"
                "operations: []\noutputs: []\n"),
      "bad.yaml:2: operands[0]: give at most one of value, file and omitted: true");
  EXPECT_EQ(loadError("operands:\n  - {name: x, type: TENSOR_FLOAT32, dims: [2], element_type: f64}\n"
                      "operations: []\noutputs: []\n"),
            "bad.yaml:2: operands[0].element_type: only extension operands take element_type; TENSOR_FLOAT32 "
            "values "
            "are always f32");
  EXPECT_EQ(
      loadError("operands:\n  - {name: x, type: TENSOR_FLOAT32, dims: [two]}\noperations: []\noutputs: []\n"),
      "bad.yaml:2: operands[0].dims[0]: 'two' is not a number");
  EXPECT_EQ(loadError("operands:\n  - name: q\n    type: TENSOR_QUANT8_SYMM_PER_CHANNEL\n    dims: [2, 1]\n"
                      "    channel_quant: {dim: 0, scales: [0.5]}\noperations: []\noutputs: []\n"),
            "bad.yaml:5: operands[0].channel_quant: ANeuralNetworksModel_setOperandSymmPerChannelQuantParams "
            "returned ANEURALNETWORKS_BAD_DATA");
  EXPECT_EQ(loadModelFile("/nonexistent/model.yaml").error().message,
            "cannot open model file '/nonexistent/model.yaml': No such file or directory");
}

TEST(ModelFileTest, SubgraphsOfAWhileLoop) {
  auto loaded = loadModelFile(kSource / "examples/models/while_sum.yaml");
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  // Loaded when the first SUBGRAPH operand names them: the condition, then the body.
  ASSERT_EQ(loaded->subgraphs.size(), 2u);
  const ModelFileSubgraph& condition = loaded->subgraphs[0];
  const ModelFileSubgraph& body = loaded->subgraphs[1];
  EXPECT_EQ(condition.name, "less_than_n");
  EXPECT_EQ(condition.line, 12);
  EXPECT_EQ(condition.operationLabel(0), "LESS 'check'");
  EXPECT_EQ(condition.inputs, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(condition.outputs, (std::vector<uint32_t>{3}));
  EXPECT_EQ(body.name, "add_next");
  ASSERT_EQ(body.operands.size(), 7u);
  EXPECT_EQ(body.findOperand("next_sum"), 6u);
  EXPECT_EQ(body.outputs, (std::vector<uint32_t>{5, 6}));
  EXPECT_EQ(loaded->operationLabel(0), "WHILE 'loop'");
  EXPECT_EQ(loaded->operands[1].typeName, "SUBGRAPH");

  // The finished main model refers to exactly the two models the loader finished.
  const auto finished = loaded->model->builder.finishedModel();
  ASSERT_EQ(finished->referenced.size(), 2u);
  const Operand& conditionOperand = finished->operands[1];
  const Operand& bodyOperand = finished->operands[2];
  EXPECT_EQ(conditionOperand.lifetime, NNRT_LIFETIME_SUBGRAPH);
  EXPECT_EQ(finished->referencedModels[conditionOperand.location.offset],
            condition.model->builder.finishedModel());
  EXPECT_EQ(finished->referencedModels[bodyOperand.location.offset], body.model->builder.finishedModel());
  // The body's constant `one` is its own.
  const auto bodyModel = body.model->builder.finishedModel();
  const Operand& one = bodyModel->operands.at(3);
  ASSERT_EQ(one.lifetime, NNRT_LIFETIME_CONSTANT_COPY);
  const uint8_t* bytes = bodyModel->smallValues.data() + one.location.offset;
  EXPECT_EQ(std::vector<uint8_t>(bytes, bytes + one.location.length), floatBytes({1.0f}));
}

// A subgraph that refers to another: the inner one is finished first, and shared when named twice.
TEST(ModelFileTest, NestedAndSharedSubgraphs) {
  const std::string yaml = R"(subgraphs:
  outer:
    operands:
      - {name: c, type: TENSOR_BOOL8, dims: [1]}
      - {name: x, type: TENSOR_FLOAT32, dims: [1]}
      - {name: branch, type: SUBGRAPH, value: copy}
      - {name: y, type: TENSOR_FLOAT32, dims: [1]}
    operations:
      - {type: IF, inputs: [c, branch, branch, x], outputs: [y]}
    inputs: [c, x]
    outputs: [y]
  copy:
    operands:
      - {name: x, type: TENSOR_FLOAT32, dims: [1]}
      - {name: y, type: TENSOR_FLOAT32, dims: [1]}
    operations:
      - {type: RELU, inputs: [x], outputs: [y]}
    inputs: [x]
    outputs: [y]
operands:
  - {name: c, type: TENSOR_BOOL8, dims: [1]}
  - {name: x, type: TENSOR_FLOAT32, dims: [1]}
  - {name: outer, type: SUBGRAPH, value: outer}
  - {name: y, type: TENSOR_FLOAT32, dims: [1]}
operations:
  - {type: IF, inputs: [c, outer, outer, c, x], outputs: [y]}
inputs: [c, x]
outputs: [y]
)";
  auto loaded = loadModelText(yaml, "nested.yaml");
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  ASSERT_EQ(loaded->subgraphs.size(), 2u);
  EXPECT_EQ(loaded->subgraphs[0].name, "copy");   // finished before the subgraph that refers to it
  EXPECT_EQ(loaded->subgraphs[1].name, "outer");
  // Flattened as Android does: each model once, however often it is referenced.
  EXPECT_EQ(loaded->model->builder.finishedModel()->referenced.size(), 2u);
}

TEST(ModelFileTest, SubgraphMistakes) {
  const std::string main = "operands:\n  - {name: s, type: SUBGRAPH, value: nosuch}\noperations: []\noutputs: []\n";
  EXPECT_EQ(loadError(main), "bad.yaml:2: operands[0].value: no subgraph named 'nosuch' (subgraphs: none)");
  const std::string graph =
      "    operands:\n      - {name: x, type: TENSOR_FLOAT32, dims: [1]}\n"
      "      - {name: y, type: TENSOR_FLOAT32, dims: [1]}\n"
      "    operations:\n      - {type: RELU, inputs: [x], outputs: [y]}\n"
      "    inputs: [x]\n    outputs: [y]\n";
  EXPECT_EQ(loadError("subgraphs:\n  a:\n" + graph +
                      "operands:\n  - {name: s, type: SUBGRAPH, value: b}\noperations: []\noutputs: []\n"),
            "bad.yaml:11: operands[0].value: no subgraph named 'b' (subgraphs: a)");
  EXPECT_EQ(loadError("subgraphs:\n  a:\n" + graph + "  unused:\n" + graph +
                      "operands:\n  - {name: s, type: SUBGRAPH, value: a}\noperations: []\noutputs: []\n"),
            "bad.yaml:10: subgraphs.unused: no SUBGRAPH operand refers to it (value: unused)");
  // a -> b -> a: a model can only refer to finished models.
  EXPECT_EQ(loadError("subgraphs:\n"
                      "  a:\n    operands:\n      - {name: s, type: SUBGRAPH, value: b}\n"
                      "    operations: []\n    outputs: []\n"
                      "  b:\n    operands:\n      - {name: s, type: SUBGRAPH, value: a}\n"
                      "    operations: []\n    outputs: []\n"
                      "operands:\n  - {name: s, type: SUBGRAPH, value: a}\noperations: []\noutputs: []\n"),
            "bad.yaml:9: subgraphs.b.operands[0].value: subgraph 'a' refers to itself (a -> b -> a); a model "
            "can only refer to finished models");
  // Keys inside a subgraph carry its path.
  EXPECT_EQ(loadError("subgraphs:\n  a:\n    operands:\n      - {name: x, type: TENSOR_FLOAT33}\n"
                      "    operations: []\n    outputs: []\n"
                      "operands:\n  - {name: s, type: SUBGRAPH, value: a}\noperations: []\noutputs: []\n"),
            "bad.yaml:4: subgraphs.a.operands[0].type: 'TENSOR_FLOAT33' is not an NNAPI operand type (e.g. "
            "TENSOR_FLOAT32) or an extension type (extension.name:TYPE)");
  EXPECT_EQ(loadError("subgraphs:\n  a:\n    operand: []\n"
                      "operands:\n  - {name: s, type: SUBGRAPH, value: a}\noperations: []\noutputs: []\n"),
            "bad.yaml:3: subgraphs.a.operand: unknown key (expected one of: operands, operations, inputs, outputs)");
  EXPECT_EQ(loadError("subgraphs: [a]\noperands: []\noperations: []\noutputs: []\n"),
            "bad.yaml:1: subgraphs: expected a mapping of subgraph names to models");
  // The runtime's own checks of IF against its branches, reported where the file finishes the model.
  EXPECT_EQ(loadError("subgraphs:\n  a:\n" + graph +
                      "operands:\n  - {name: c, type: TENSOR_BOOL8, dims: [1]}\n"
                      "  - {name: s, type: SUBGRAPH, value: a}\n  - {name: x, type: TENSOR_INT32, dims: [1]}\n"
                      "  - {name: y, type: TENSOR_FLOAT32, dims: [1]}\n"
                      "operations:\n  - {type: IF, inputs: [c, s, s, x], outputs: [y]}\ninputs: [c, x]\n"
                      "outputs: [y]\n"),
            "bad.yaml:16: operations[0]: ANeuralNetworksModel_addOperation returned ANEURALNETWORKS_BAD_DATA (IF)");
}

TEST(ElementCodecTest, EncodesAndFormats) {
  std::vector<uint8_t> bytes;
  EXPECT_EQ(appendElement(ElementType::I8, "-128", bytes), "");
  EXPECT_EQ(appendElement(ElementType::I8, "128", bytes), "'128' is out of range for i8");
  EXPECT_EQ(appendElement(ElementType::U16, "0x1f", bytes), "");
  EXPECT_EQ(appendElement(ElementType::I32, "1.5", bytes), "'1.5' is not a whole number (i32)");
  EXPECT_EQ(appendElement(ElementType::U32, "-1", bytes), "'-1' is out of range for u32");
  EXPECT_EQ(appendElement(ElementType::I64, "-9223372036854775808", bytes), "");
  EXPECT_EQ(appendElement(ElementType::Bool8, "true", bytes), "");
  EXPECT_EQ(appendElement(ElementType::F32, ".inf", bytes), "");
  EXPECT_EQ(appendElement(ElementType::F32, "abc", bytes), "'abc' is not a number");
  ASSERT_EQ(bytes.size(), 1u + 2u + 8u + 1u + 4u);
  EXPECT_EQ(formatElement(ElementType::I8, bytes.data()), "-128");
  EXPECT_EQ(formatElement(ElementType::U16, bytes.data() + 1), "31");
  EXPECT_EQ(formatElement(ElementType::I64, bytes.data() + 3), "-9223372036854775808");
  EXPECT_EQ(formatElement(ElementType::Bool8, bytes.data() + 11), "true");
  EXPECT_EQ(formatElement(ElementType::F32, bytes.data() + 12), "inf");
  EXPECT_EQ(elementTypeOf(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED), ElementType::I8);
  EXPECT_EQ(elementTypeOf(ANEURALNETWORKS_TENSOR_FLOAT16), ElementType::F16);
}

TEST(ElementCodecTest, HalfPrecision) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(1e6f), 0x7C00);                // overflow: infinity
  EXPECT_EQ(floatToHalf(5.9604645e-8f), 0x0001);       // smallest subnormal
  EXPECT_EQ(floatToHalf(1.0f + 1.0f / 2048), 0x3C00);  // a tie rounds to even
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x0001), 5.9604645e-8f);
  for (uint16_t h : {0x0000, 0x0400, 0x03FF, 0x3C01, 0x7BFF, 0xFC00})
    EXPECT_EQ(floatToHalf(halfToFloat(h)), h);
}

}  // namespace
}  // namespace nnrt::tools
