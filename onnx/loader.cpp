#include <algorithm>
#include <fstream>
#include <set>

#include "onnx/graph_builder.hpp"
#include "onnx/onnx_loader.hpp"
#include "onnx/tensor_proto.hpp"

namespace nnrt::onnxfront {
namespace {

// The opsets of the default domain whose operator versions the mappings were written against: each
// mapping reads the attributes and inputs these versions define (Debian's ONNX 1.12 ships opset 17).
constexpr int64_t kMinOpset = 1;
constexpr int64_t kMaxOpset = 17;

Unexpected<Error> badFile(const std::filesystem::path& file, const std::string& what) {
  return Unexpected<Error>(Error{ResultCode::BAD_DATA, file.string() + ": " + what});
}

// The type and shape of a graph input or output from its ValueInfoProto.
Result<Value> describe(const onnx::ValueInfoProto& info, const LoadOptions& options) {
  if (!info.type().has_tensor_type())
    return fail(ResultCode::BAD_DATA, "value '" + info.name() + "' is not a tensor");
  const auto& tensor = info.type().tensor_type();
  auto type = nnapiTensorType(tensor.elem_type());
  if (!type.has_value())
    return fail(ResultCode::BAD_DATA, "value '" + info.name() + "': " + type.error().message);
  Value value;
  value.type = *type;
  auto given = options.inputShapes.find(info.name());
  if (given != options.inputShapes.end()) {
    value.dims = given->second;
  } else {
    if (!tensor.has_shape())
      return fail(ResultCode::BAD_DATA, "value '" + info.name() + "' has no shape (give one)");
    for (const auto& d : tensor.shape().dim()) {
      if (d.has_dim_value()) {
        if (d.dim_value() < 0 || d.dim_value() > UINT32_MAX) {
          return fail(ResultCode::BAD_DATA,
                      "value '" + info.name() + "': dimension " + std::to_string(d.dim_value()));
        }
        value.dims.push_back(static_cast<uint32_t>(d.dim_value()));
      } else {
        value.dims.push_back(0);
      }
    }
  }
  if (value.dims.empty()) {
    value.scalar = true;
    value.dims = {1};
  }
  return value;
}

Result<LoadedModel> build(const onnx::ModelProto& proto, const std::filesystem::path& file,
                          const LoadOptions& options) {
  int64_t opset = -1;
  for (const auto& entry : proto.opset_import()) {
    if (entry.domain().empty() || entry.domain() == "ai.onnx") opset = entry.version();
  }
  if (opset < 0) return badFile(file, "no opset_import for the default domain");
  if (opset < kMinOpset || opset > kMaxOpset) {
    return badFile(file, "opset " + std::to_string(opset) +
                             " of the default domain is not supported (the loader knows " +
                             std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) + ")");
  }
  if (!proto.has_graph()) return badFile(file, "no graph");
  const onnx::GraphProto& graph = proto.graph();

  ANeuralNetworksModel* raw = nullptr;
  int code = ANeuralNetworksModel_create(&raw);
  if (code != ANEURALNETWORKS_NO_ERROR)
    return fail(static_cast<ResultCode>(code), "ANeuralNetworksModel_create failed");
  LoadedModel loaded;
  loaded.model.reset(raw);
  loaded.opsetVersion = opset;
  GraphBuilder builder(raw, opset);

  auto located = [&](Result<void> r) -> Result<void> {
    if (!r.has_value()) return badFile(file, r.error().message);
    return {};
  };
  const std::filesystem::path folder = file.parent_path();
  std::set<std::string> initializerNames;
  for (const auto& tensor : graph.initializer()) {
    auto decoded = decodeTensor(tensor, folder);
    if (!decoded.has_value()) return badFile(file, "initializer: " + decoded.error().message);
    Value value;
    value.type = decoded->type;
    value.dims = decoded->dimensions;
    if (value.dims.empty()) {
      value.scalar = true;
      value.dims = {1};
    }
    value.constant = std::move(*decoded);
    builder.defineName(tensor.name(), std::move(value));
    initializerNames.insert(tensor.name());
  }
  if (graph.sparse_initializer_size() > 0) return badFile(file, "sparse initializers are not supported");

  std::vector<uint32_t> inputOperands;
  for (const auto& info : graph.input()) {
    if (initializerNames.count(info.name()) != 0) continue;  // IR < 4 lists initializers as inputs too
    auto bound = options.constantInputs.find(info.name());
    if (bound != options.constantInputs.end()) {
      Value value;
      value.type = bound->second.type;
      value.dims = bound->second.dimensions;
      if (value.dims.empty()) {
        value.scalar = true;
        value.dims = {1};
      }
      if (elementCount(value.dims) * elementSize(value.type) != bound->second.bytes.size()) {
        return badFile(file, "input '" + info.name() + "': the bound value's size does not match its shape");
      }
      value.constant = bound->second;
      builder.defineName(info.name(), std::move(value));
      continue;
    }
    auto value = describe(info, options);
    if (!value.has_value()) return badFile(file, "input: " + value.error().message);
    auto operand = builder.addTensor(value->type, value->dims);
    if (!operand.has_value()) return badFile(file, "input '" + info.name() + "': " + operand.error().message);
    value->operand = *operand;
    inputOperands.push_back(*operand);
    loaded.inputs.push_back(TensorInfo{info.name(), value->type, value->dims});
    builder.defineName(info.name(), std::move(*value));
  }

  std::map<std::string, std::vector<const onnx::NodeProto*>> consumers;
  std::set<std::string> graphOutputs;
  for (const auto& node : graph.node()) {
    for (const auto& input : node.input())
      consumers[input].push_back(&node);
  }
  for (const auto& info : graph.output())
    graphOutputs.insert(info.name());
  builder.setConsumers(std::move(consumers), std::move(graphOutputs));

  const auto& mappings = operatorMappings();
  for (const auto& node : graph.node()) {
    builder.setNode(&node);
    if (!node.domain().empty() && node.domain() != "ai.onnx") {
      return badFile(file, builder.refuse("domain '" + node.domain() + "' is not supported").message);
    }
    const OperatorMapping* mapping = nullptr;
    for (const auto& m : mappings) {
      if (node.op_type() == m.opType) mapping = &m;
    }
    if (mapping == nullptr)
      return badFile(file, builder.refuse("operator not supported by the ONNX loader").message);
    for (const auto& attribute : node.attribute()) {
      bool known = false;
      for (const char* name : mapping->attributes)
        known = known || attribute.name() == name;
      if (!known)
        return badFile(file, builder.refuse("attribute '" + attribute.name() + "' is not supported").message);
    }
    if (builder.absorbed(&node)) {
      // A Relu or Clip fused into the operation before it: its output is that operation's.
      builder.defineName(node.output(0), *builder.find(node.input(0)));
      continue;
    }
    NNRT_RETURN_IF_ERROR(located(mapping->map(builder)));
    for (const auto& output : node.output()) {
      if (!output.empty() && builder.find(output) == nullptr) {
        return badFile(file, builder.refuse("output '" + output + "' is not supported").message);
      }
    }
  }
  builder.setNode(nullptr);

  std::vector<uint32_t> outputOperands;
  std::set<uint32_t> inputSet(inputOperands.begin(), inputOperands.end());
  for (const auto& info : graph.output()) {
    const Value* value = builder.find(info.name());
    if (value == nullptr) return badFile(file, "output '" + info.name() + "' is not computed by the graph");
    uint32_t operand = value->operand;
    if (value->nhwc) {
      // An image kept as NHWC leaves the model in ONNX's NCHW.
      auto nchw = builder.operand(*value);
      if (!nchw.has_value()) return badFile(file, "output '" + info.name() + "': " + nchw.error().message);
      operand = *nchw;
    }
    bool repeated = std::find(outputOperands.begin(), outputOperands.end(), operand) != outputOperands.end();
    if (operand == kNoOperand || inputSet.count(operand) != 0 || repeated) {
      // A model output must be written by an operation, once: a constant (Shape, Size, folded values),
      // an input or a repeated output is copied by a RESHAPE to its own shape (booleans, which RESHAPE
      // does not take, by a LOGICAL_AND with themselves).
      auto source = builder.operand(*value);
      if (!source.has_value())
        return badFile(file, "output '" + info.name() + "': " + source.error().message);
      Result<uint32_t> copy = kNoOperand;
      if (value->type == ANEURALNETWORKS_TENSOR_BOOL8) {
        copy = builder.addTensor(value->type, value->dims);
        if (copy.has_value()) {
          auto added = builder.addOperation(ANEURALNETWORKS_LOGICAL_AND, {*source, *source}, {*copy});
          if (!added.has_value()) copy = Unexpected<Error>(added.error());
        }
      } else {
        copy = builder.reshape(*source, value->type, value->dims);
      }
      if (!copy.has_value()) return badFile(file, "output '" + info.name() + "': " + copy.error().message);
      operand = *copy;
    }
    // Tools find outputs by their operand's name: a copy or layout change carries the output's.
    builder.operandRecords()[operand].name = info.name();
    outputOperands.push_back(operand);
    loaded.outputs.push_back(TensorInfo{info.name(), value->type, value->dims});
  }
  static const uint32_t kNone = 0;  // the C API refuses NULL lists, and an empty vector's data() may be NULL
  code = ANeuralNetworksModel_identifyInputsAndOutputs(
      raw, static_cast<uint32_t>(inputOperands.size()), inputOperands.empty() ? &kNone : inputOperands.data(),
      static_cast<uint32_t>(outputOperands.size()), outputOperands.empty() ? &kNone : outputOperands.data());
  if (code != ANEURALNETWORKS_NO_ERROR) {
    return fail(
        static_cast<ResultCode>(code),
        file.string() + ": ANeuralNetworksModel_identifyInputsAndOutputs returned " + std::to_string(code));
  }
  loaded.operands = std::move(builder.operandRecords());
  loaded.operations = std::move(builder.operationRecords());
  loaded.inputOperands = inputOperands;
  loaded.outputOperands = outputOperands;
  code = ANeuralNetworksModel_finish(raw);
  if (code != ANEURALNETWORKS_NO_ERROR) {
    return fail(static_cast<ResultCode>(code),
                file.string() + ": ANeuralNetworksModel_finish returned " + std::to_string(code));
  }
  return loaded;
}

// Names in a damaged file may hold any bytes: the error stays one printable line.
Result<LoadedModel> printable(Result<LoadedModel> result) {
  if (result.has_value()) return result;
  Error error = std::move(result).error();
  for (char& c : error.message) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return Unexpected<Error>(std::move(error));
}

}  // namespace

bool isOperatorMapped(std::string_view opType) {
  for (const auto& m : operatorMappings()) {
    if (opType == m.opType) return true;
  }
  return false;
}

Result<LoadedModel> loadOnnxModel(const std::filesystem::path& file, const LoadOptions& options) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return badFile(file, "cannot open");
  onnx::ModelProto proto;
  if (!proto.ParseFromIstream(&in)) return badFile(file, "not a valid ONNX model (protobuf parse failed)");
  return printable(build(proto, file, options));
}

}  // namespace nnrt::onnxfront
