#include <algorithm>
#include <deque>
#include <fstream>
#include <set>

#include "onnx/graph_builder.hpp"
#include "onnx/onnx_loader.hpp"
#include "onnx/tensor_proto.hpp"

namespace nnrt::onnxfront {
namespace {

// The opsets of the default domain whose operator versions the mappings were written against: each
// mapping reads the attributes and inputs these versions define, branching on the model's opset where a
// version changed them (Debian's ONNX 1.12 ships opset 17; 18 to 21 from ONNX's operator changelog).
constexpr int64_t kMinOpset = 1;
constexpr int64_t kMaxOpset = 21;

Unexpected<Error> badFile(const std::filesystem::path& file, const std::string& what) {
  return Unexpected<Error>(Error{ResultCode::BAD_DATA, file.string() + ": " + what});
}

// The type and shape of a graph input or output from its ValueInfoProto; `empty` tells whether the file
// gives it a dimension of 0 (NNAPI has no empty tensors: there 0 means "unknown", as it stays in `dims`).
Result<Value> describe(const onnx::ValueInfoProto& info, const LoadOptions& options, bool* empty) {
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
    // It fills in what the file leaves unknown: the file's rank and known dimensions stay.
    bool fits = !tensor.has_shape() || tensor.shape().dim_size() == static_cast<int>(given->second.size());
    for (int d = 0; fits && tensor.has_shape() && d < tensor.shape().dim_size(); ++d) {
      const auto& dim = tensor.shape().dim(d);
      fits = given->second[static_cast<size_t>(d)] != 0 &&
             (!dim.has_dim_value() || dim.dim_value() == given->second[static_cast<size_t>(d)]);
    }
    if (!fits) {
      std::string file;
      for (const auto& dim : tensor.shape().dim())
        file += (file.empty() ? "" : ", ") + (dim.has_dim_value() ? std::to_string(dim.dim_value()) : dim.dim_param().empty() ? std::string("?") : dim.dim_param());
      std::string shape;
      for (uint32_t d : given->second) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
      return fail(ResultCode::BAD_DATA, "value '" + info.name() + "': the shape given, [" + shape +
                                            "], does not fit the file's [" + file + "]");
    }
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
        *empty = *empty || d.dim_value() == 0;
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

// Defines the initializers of `graph` in `builder` as constants and returns their names. With `spent`
// (the same graph, which the caller no longer needs), each initializer's bytes are freed once decoded:
// the file's weights are not held twice while the model is built.
Result<std::set<std::string>> defineInitializers(const onnx::GraphProto& graph, GraphBuilder& builder,
                                                 onnx::GraphProto* spent = nullptr) {
  std::set<std::string> names;
  for (int i = 0; i < graph.initializer_size(); ++i) {
    const onnx::TensorProto& tensor = graph.initializer(i);
    auto decoded = decodeTensor(tensor, builder.folder());
    if (spent != nullptr) {
      onnx::TensorProto& done = *spent->mutable_initializer(i);
      std::string().swap(*done.mutable_raw_data());  // clear() would keep the capacity
      done.clear_float_data();
    }
    if (!decoded.has_value()) return fail(ResultCode::BAD_DATA, "initializer: " + decoded.error().message);
    Value value;
    value.type = decoded->type;
    value.dims = decoded->dimensions;
    if (value.dims.empty()) {
      value.scalar = true;
      value.dims = {1};
    }
    value.constant = std::move(*decoded);
    builder.defineName(tensor.name(), std::move(value));
    names.insert(tensor.name());
  }
  if (graph.sparse_initializer_size() > 0)
    return fail(ResultCode::BAD_DATA, "sparse initializers are not supported");
  return names;
}

// The names `node` reads: its inputs, once per input naming it, then each value a subgraph of it reads
// (If's branches) that the enclosing graphs define, once.
std::vector<std::string> namesRead(const onnx::NodeProto& node) {
  std::vector<std::string> names(node.input().begin(), node.input().end());
  std::vector<std::string> nested;
  for (const auto& attribute : node.attribute()) {
    if (attribute.has_g()) outerNames(attribute.g(), nested);
  }
  names.insert(names.end(), nested.begin(), nested.end());
  return names;
}

// Maps the nodes of `graph` into `builder` (its inputs and initializers already defined) and returns the
// operands of its outputs, each written by an operation once; `outputs` gets their names, types and shapes.
// With `releaseConstants` (the main graph), a constant's host values are freed once every node that reads
// it is mapped (a convolution's weights once reordered, say) and it is no graph output.
Result<std::vector<uint32_t>> mapGraph(const onnx::GraphProto& graph, GraphBuilder& builder,
                                       const std::vector<uint32_t>& inputOperands,
                                       std::vector<TensorInfo>* outputs, bool releaseConstants = false) {
  auto error = [](const std::string& what) { return fail(ResultCode::BAD_DATA, what); };
  std::map<std::string, std::vector<const onnx::NodeProto*>> consumers;
  std::set<std::string> graphOutputs;
  for (const auto& node : graph.node()) {
    for (const auto& name : namesRead(node))
      consumers[name].push_back(&node);
  }
  for (const auto& info : graph.output())
    graphOutputs.insert(info.name());
  // Readers not mapped yet, by name (namesRead's counts), and one more for a graph output, which is
  // never released.
  std::map<std::string, size_t> unread;
  for (const auto& [name, readers] : consumers) unread[name] = readers.size();
  for (const auto& name : graphOutputs) ++unread[name];
  builder.setConsumers(std::move(consumers), std::move(graphOutputs));

  auto mapped = [&](const onnx::NodeProto& node) {
    for (const auto& name : namesRead(node)) {
      auto it = unread.find(name);
      if (it != unread.end() && it->second > 0 && --it->second == 0) builder.releaseConstant(name);
    }
  };
  NNRT_RETURN_IF_ERROR(mapNodes(builder, graph.node(),
                                releaseConstants ? std::function<void(const onnx::NodeProto&)>(mapped) : nullptr));

  std::vector<uint32_t> outputOperands;
  std::set<uint32_t> inputSet(inputOperands.begin(), inputOperands.end());
  for (const auto& info : graph.output()) {
    const Value* value = builder.find(info.name());
    if (value == nullptr) return error("output '" + info.name() + "' is not computed by the graph");
    uint32_t operand = value->operand;
    if (value->nhwc) {
      // An image kept as NHWC leaves the model in ONNX's NCHW.
      auto nchw = builder.operand(*value);
      if (!nchw.has_value()) return error("output '" + info.name() + "': " + nchw.error().message);
      operand = *nchw;
    }
    bool repeated = std::find(outputOperands.begin(), outputOperands.end(), operand) != outputOperands.end();
    if (operand == kNoOperand || inputSet.count(operand) != 0 || repeated) {
      // A model output must be written by an operation, once: a constant (Shape, Size, folded values),
      // an input or a repeated output is copied by a RESHAPE to its own shape (booleans, which RESHAPE
      // does not take, by a LOGICAL_AND with themselves).
      auto source = builder.operand(*value);
      if (!source.has_value()) return error("output '" + info.name() + "': " + source.error().message);
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
      if (!copy.has_value()) return error("output '" + info.name() + "': " + copy.error().message);
      operand = *copy;
    }
    // Tools find outputs by their operand's name: a copy or layout change carries the output's.
    builder.operandRecords()[operand].name = info.name();
    outputOperands.push_back(operand);
    outputs->push_back(TensorInfo{info.name(), value->type, value->dims});
  }
  return outputOperands;
}

// Builds the model of `proto`, whose initializers' bytes it frees as it goes (defineInitializers).
Result<LoadedModel> build(onnx::ModelProto& proto, const std::filesystem::path& file,
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

  builder.setFolder(file.parent_path());
  auto initializers = defineInitializers(graph, builder, proto.mutable_graph());
  if (!initializers.has_value()) return badFile(file, initializers.error().message);
  const std::set<std::string>& initializerNames = *initializers;

  std::vector<uint32_t> inputOperands;
  std::string emptyInput;  // the first graph input the file declares empty
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
    bool empty = false;
    auto value = describe(info, options, &empty);
    if (!value.has_value()) return badFile(file, "input: " + value.error().message);
    if (empty && emptyInput.empty()) emptyInput = info.name();
    auto operand = builder.addTensor(value->type, value->dims);
    if (!operand.has_value()) return badFile(file, "input '" + info.name() + "': " + operand.error().message);
    value->operand = *operand;
    inputOperands.push_back(*operand);
    loaded.inputs.push_back(TensorInfo{info.name(), value->type, value->dims,
                                       info.type().tensor_type().elem_type() == onnx::TensorProto::INT64});
    builder.defineName(info.name(), std::move(*value));
  }

  std::vector<uint32_t> outputOperands;
  auto mapped = mapGraph(graph, builder, inputOperands, &loaded.outputs, /*releaseConstants=*/true);
  // An empty graph input is refused once the mapping has asked for the constants it needs (an
  // application binds those with LoadOptions::constantInputs, where empty values are fine).
  bool wantsConstant =
      !mapped.has_value() && mapped.error().message.find("must be a constant") != std::string::npos;
  if (!emptyInput.empty() && !wantsConstant)
    return badFile(file, "input '" + emptyInput + "': an empty tensor (a dimension of 0) has no NNAPI shape");
  if (!mapped.has_value()) return badFile(file, mapped.error().message);
  outputOperands = std::move(*mapped);
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

// Operators whose versions before opset 7 broadcast only with the attribute broadcast = 1, input B's
// dimensions lining up with A's from `axis` (else from the end, as numpy's broadcasting does).
bool legacyBroadcast(const std::string& op) {
  static const std::set<std::string> ops{"Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor",
                                         "Equal", "Greater", "Less", "Gemm"};
  return ops.count(op) != 0;
}

// `node` as the operator versions the mappings read (opset 7 on) compute it, for a model of an older
// opset: broadcast and axis of the arithmetic and comparisons (B reshaped to line up at `axis`, as a
// value named after it), Gemm's broadcast (C broadcasts from opset 7 on), BatchNormalization's is_test
// 1 and spatial 1, and the consumed_inputs hints of opsets 1 to 5 dropped. Returns `node` itself when
// nothing changes, else a copy kept in `rewritten`.
Result<const onnx::NodeProto*> legacyNode(GraphBuilder& builder, const onnx::NodeProto& node,
                                          std::deque<onnx::NodeProto>& rewritten) {
  if (builder.opset() >= 7) return &node;
  auto find = [&](const char* name) -> const onnx::AttributeProto* {
    for (const auto& a : node.attribute())
      if (a.name() == name) return &a;
    return nullptr;
  };
  const bool batchNorm = node.op_type() == "BatchNormalization";
  const auto* isTest = batchNorm ? find("is_test") : nullptr;
  const auto* spatial = batchNorm ? find("spatial") : nullptr;
  if (isTest != nullptr && isTest->i() == 0) return builder.refused("training mode (is_test 0) is not supported");
  if (spatial != nullptr && spatial->i() == 0) return builder.refused("spatial 0 (per-activation statistics) is not supported");
  const auto* broadcast = legacyBroadcast(node.op_type()) ? find("broadcast") : nullptr;
  const auto* axis = broadcast != nullptr && node.op_type() != "Gemm" ? find("axis") : nullptr;
  if (isTest == nullptr && spatial == nullptr && broadcast == nullptr && find("consumed_inputs") == nullptr)
    return &node;
  onnx::NodeProto& copy = rewritten.emplace_back(node);
  copy.clear_attribute();
  for (const auto& a : node.attribute()) {
    if (&a != isTest && &a != spatial && &a != broadcast && &a != axis && a.name() != "consumed_inputs")
      *copy.add_attribute() = a;
  }
  if (axis != nullptr && broadcast->i() != 0 && node.input_size() == 2) {
    builder.setNode(&copy);
    NNRT_ASSIGN_OR_RETURN(const Value* a, builder.requiredInput(0));
    NNRT_ASSIGN_OR_RETURN(const Value* b, builder.requiredInput(1));
    const size_t rankA = a->scalar ? 0 : a->dims.size(), rankB = b->scalar ? 0 : b->dims.size();
    if (axis->i() < 0 || static_cast<size_t>(axis->i()) + rankB > rankA)
      return builder.refused("axis " + std::to_string(axis->i()) + " does not place B inside A");
    Value lined = *b;  // B's dimensions, then 1 for each axis of A after them
    lined.scalar = false;
    lined.dims = b->scalar ? std::vector<uint32_t>{} : b->dims;
    lined.dims.resize(rankA - static_cast<size_t>(axis->i()), 1u);
    if (lined.dims.empty()) lined.dims = {1};
    if (lined.constant.has_value()) {
      lined.constant->dimensions = lined.dims;
    } else {
      NNRT_ASSIGN_OR_RETURN(uint32_t operand, builder.operand(*b));
      NNRT_ASSIGN_OR_RETURN(lined.operand, builder.reshape(operand, b->type, lined.dims));
      lined.nhwc = false;
      lined.otherLayout = kNoOperand;
    }
    const std::string name = node.input(1) + "@axis" + std::to_string(axis->i()) + "@" + node.output(0);
    builder.defineName(name, std::move(lined));
    copy.set_input(1, name);
  }
  return &copy;
}

}  // namespace

Result<void> mapNodes(GraphBuilder& builder,
                      const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                      const std::function<void(const onnx::NodeProto&)>& mapped) {
  const auto& mappings = operatorMappings();
  std::deque<onnx::NodeProto> rewritten;  // older opsets' nodes as the mappings read them
  // Constant nodes (which read nothing) first: a lookahead that absorbs later nodes (a channel or pixel
  // shuffle's last Reshape) may need a shape that a Constant after them in the file gives.
  std::vector<const onnx::NodeProto*> order;
  for (const auto& node : nodes)
    if (node.op_type() == "Constant" && node.input_size() == 0) order.push_back(&node);
  for (const auto& node : nodes)
    if (!(node.op_type() == "Constant" && node.input_size() == 0)) order.push_back(&node);
  for (const onnx::NodeProto* next : order) {
    const onnx::NodeProto& original = *next;
    builder.setNode(&original);
    NNRT_ASSIGN_OR_RETURN(const onnx::NodeProto* legacy, legacyNode(builder, original, rewritten));
    const onnx::NodeProto& node = *legacy;
    builder.setNode(&node);
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      return Unexpected<Error>(builder.refuse("domain '" + node.domain() + "' is not supported"));
    const OperatorMapping* mapping = nullptr;
    for (const auto& m : mappings) {
      if (node.op_type() == m.opType) mapping = &m;
    }
    if (mapping == nullptr) return builder.refused("operator not supported by the ONNX loader");
    for (const auto& attribute : node.attribute()) {
      bool known = false;
      for (const char* name : mapping->attributes)
        known = known || attribute.name() == name;
      if (!known) return builder.refused("attribute '" + attribute.name() + "' is not supported");
    }
    if (const std::string* result = builder.absorbed(&original)) {
      // A Relu or Clip fused into the operation before it, or an Add that became its bias: its
      // output is that operation's.
      builder.defineName(node.output(0), *builder.find(*result));
      if (mapped) mapped(original);
      continue;
    }
    NNRT_RETURN_IF_ERROR(mapping->map(builder));
    for (const auto& output : node.output()) {
      if (!output.empty() && builder.find(output) == nullptr)
        return builder.refused("output '" + output + "' is not supported");
    }
    if (mapped) mapped(original);
  }
  builder.setNode(nullptr);
  return {};
}

// Every name a node of `graph` (or of a graph nested in one) reads that neither is defined in it:
// the values of the enclosing graphs it uses, in the order first read.
void outerNames(const onnx::GraphProto& graph, std::vector<std::string>& names) {
  std::set<std::string> defined;
  for (const auto& info : graph.input())
    defined.insert(info.name());
  for (const auto& tensor : graph.initializer())
    defined.insert(tensor.name());
  auto read = [&](const std::string& name) {
    if (!name.empty() && defined.count(name) == 0 &&
        std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  };
  for (const auto& node : graph.node()) {
    for (const auto& input : node.input())
      read(input);
    for (const auto& attribute : node.attribute()) {
      std::vector<std::string> nested;
      if (attribute.has_g()) outerNames(attribute.g(), nested);
      for (const auto& g : attribute.graphs())
        outerNames(g, nested);
      for (const auto& name : nested)
        read(name);
    }
    for (const auto& output : node.output())
      defined.insert(output);
  }
  for (const auto& info : graph.output())
    read(info.name());
}

Result<Subgraph> buildSubgraph(GraphBuilder& outer, const onnx::GraphProto& graph,
                               const std::vector<Value>& inputs, const std::vector<std::string>& captured) {
  if (graph.input_size() != static_cast<int>(inputs.size())) {
    return outer.refused("subgraph '" + graph.name() + "' has " + std::to_string(graph.input_size()) +
                         " inputs where " + std::to_string(inputs.size()) + " are passed");
  }
  ANeuralNetworksModel* raw = nullptr;
  int code = ANeuralNetworksModel_create(&raw);
  if (code != ANEURALNETWORKS_NO_ERROR) return outer.refused("ANeuralNetworksModel_create failed");
  Subgraph sub;
  sub.model.reset(raw);
  GraphBuilder builder(raw, outer.opset());
  builder.setFolder(outer.folder());
  auto within = [&](const std::string& what) {
    return outer.refused("subgraph '" + graph.name() + "': " + what);
  };
  // The enclosing graph's values it reads: constants copied in, others passed as inputs after its own.
  std::vector<uint32_t> inputOperands;
  auto addInput = [&](const std::string& name, Value value) -> Result<void> {
    auto operand = builder.addTensor(value.type, value.dims);
    if (!operand.has_value()) return within("input '" + name + "': " + operand.error().message);
    value.operand = *operand;
    inputOperands.push_back(*operand);
    builder.defineName(name, std::move(value));
    return {};
  };
  for (int i = 0; i < graph.input_size(); ++i)
    NNRT_RETURN_IF_ERROR(addInput(graph.input(i).name(), inputs[i]));
  for (const auto& name : captured) {
    const Value* value = outer.find(name);
    if (value == nullptr) return within("value '" + name + "' is not defined before this node");
    Value inner;
    inner.type = value->type;
    inner.dims = value->dims;
    inner.scalar = value->scalar;
    if (value->constant.has_value()) {
      inner.constant = value->constant;
      builder.defineName(name, std::move(inner));
    } else {
      NNRT_RETURN_IF_ERROR(addInput(name, std::move(inner)));
    }
  }
  auto initializers = defineInitializers(graph, builder);
  if (!initializers.has_value()) return within(initializers.error().message);
  std::vector<TensorInfo> outputs;
  auto outputOperands = mapGraph(graph, builder, inputOperands, &outputs);
  if (!outputOperands.has_value()) return within(outputOperands.error().message);
  for (const auto& info : outputs) {
    Value value;
    value.type = info.type;
    value.dims = info.dimensions;
    const Value* inner = builder.find(info.name);
    value.scalar = inner != nullptr && inner->scalar;
    sub.outputs.push_back(std::move(value));
  }
  static const uint32_t kNone = 0;
  code = ANeuralNetworksModel_identifyInputsAndOutputs(
      raw, static_cast<uint32_t>(inputOperands.size()), inputOperands.empty() ? &kNone : inputOperands.data(),
      static_cast<uint32_t>(outputOperands->size()),
      outputOperands->empty() ? &kNone : outputOperands->data());
  if (code != ANEURALNETWORKS_NO_ERROR)
    return within("ANeuralNetworksModel_identifyInputsAndOutputs returned " + std::to_string(code));
  code = ANeuralNetworksModel_finish(raw);
  if (code != ANEURALNETWORKS_NO_ERROR)
    return within("ANeuralNetworksModel_finish returned " + std::to_string(code));
  return sub;
}

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
