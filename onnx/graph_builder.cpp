#include "onnx/graph_builder.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "nnrt/driver/types.hpp"
#include "onnx/tensor_proto.hpp"

namespace nnrt::onnxfront {
namespace {

std::string callError(const char* function, int code) {
  return std::string(function) + " returned " + std::to_string(code);
}

ResultCode asResultCode(int code) {
  return static_cast<ResultCode>(code);
}

}  // namespace

Error GraphBuilder::refuse(const std::string& what) const {
  std::string name = node_ != nullptr ? node_->name() : std::string();
  std::string op = node_ != nullptr ? node_->op_type() : std::string();
  // Nodes need no name (exporters often leave it empty): then the node is named by its first output.
  std::string label = "node '" + name + "'";
  if (name.empty() && node_ != nullptr && node_->output_size() > 0)
    label = "the node writing '" + node_->output(0) + "'";
  return Error{ResultCode::BAD_DATA, label + " (" + op + "): " + what};
}

const Value* GraphBuilder::find(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

Result<const Value*> GraphBuilder::input(int i) const {
  if (i >= node_->input_size() || node_->input(i).empty()) return static_cast<const Value*>(nullptr);
  const Value* value = find(node_->input(i));
  if (value == nullptr) return refused("input '" + node_->input(i) + "' is not defined before this node");
  return value;
}

Result<const Value*> GraphBuilder::requiredInput(int i) const {
  NNRT_ASSIGN_OR_RETURN(const Value* value, input(i));
  if (value == nullptr) return refused("input " + std::to_string(i) + " is missing");
  return value;
}

Result<std::vector<int32_t>> GraphBuilder::constantInts(int i) const {
  NNRT_ASSIGN_OR_RETURN(const Value* value, requiredInput(i));
  if (!value->constant.has_value()) {
    return refused("input " + std::to_string(i) + " ('" + node_->input(i) + "') must be a constant");
  }
  if (value->type != ANEURALNETWORKS_TENSOR_INT32)
    return refused("input " + std::to_string(i) + " must be integer");
  std::vector<int32_t> out(value->constant->bytes.size() / 4);
  std::memcpy(out.data(), value->constant->bytes.data(), out.size() * 4);
  return out;
}

Result<std::vector<float>> GraphBuilder::constantFloats(int i) const {
  NNRT_ASSIGN_OR_RETURN(const Value* value, requiredInput(i));
  if (!value->constant.has_value()) {
    return refused("input " + std::to_string(i) + " ('" + node_->input(i) + "') must be a constant");
  }
  if (value->type != ANEURALNETWORKS_TENSOR_FLOAT32)
    return refused("input " + std::to_string(i) + " must be float32");
  std::vector<float> out(value->constant->bytes.size() / 4);
  std::memcpy(out.data(), value->constant->bytes.data(), out.size() * 4);
  return out;
}

Result<uint32_t> GraphBuilder::otherLayout(const Value& value, const std::vector<int32_t>& perm) {
  if (value.otherLayout != kNoOperand) return value.otherLayout;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, value.nhwc ? Result<uint32_t>(value.operand) : operand(value));
  const auto& from = operandRecords_.at(in).dimensions;
  if (from.size() != perm.size()) return refused("a layout change needs a known 3-D or 4-D shape");
  std::vector<uint32_t> dims;
  for (int32_t p : perm)
    dims.push_back(from[p]);
  NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, constInts(perm));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, addTensor(value.type, dims));
  NNRT_RETURN_IF_ERROR(addOperation(ANEURALNETWORKS_TRANSPOSE, {in, permOperand}, {out}));
  for (auto& [name, v] : values_) {
    if (v.operand == in && v.nhwc == value.nhwc) v.otherLayout = out;
  }
  return out;
}

Result<uint32_t> GraphBuilder::nhwcOperand(const Value& value) {
  if (value.nhwc) return value.operand;
  if (value.dims.size() == 3) return otherLayout(value, {0, 2, 1});
  if (value.dims.size() != 4) return refused("an NHWC operand must be 3-D or 4-D");
  return otherLayout(value, {0, 2, 3, 1});
}

Result<uint32_t> GraphBuilder::nhwcImage1D(const Value& value) {
  if (value.dims.size() != 3) return refused("a 1-D image must be 3-D");
  NNRT_ASSIGN_OR_RETURN(uint32_t rows, nhwcOperand(value));
  return reshape(rows, value.type, {value.dims[0], 1, value.dims[2], value.dims[1]});
}

Result<void> GraphBuilder::emitNhwc(int32_t type, const std::vector<uint32_t>& inputs, int32_t outType,
                                    const std::vector<uint32_t>& nchwDims, int i) {
  NNRT_ASSIGN_OR_RETURN(uint32_t out, addTensor(outType, channelsLastDims(nchwDims)));
  NNRT_RETURN_IF_ERROR(addOperation(type, inputs, {out}));
  Value value;
  value.operand = out;
  value.type = outType;
  value.dims = nchwDims;
  value.nhwc = true;
  define(i, std::move(value));
  return {};
}

Result<void> GraphBuilder::emitNhwc1D(int32_t type, const std::vector<uint32_t>& inputs, int32_t outType,
                                      const std::vector<uint32_t>& nchwDims, int i) {
  const std::vector<uint32_t> ncl{nchwDims[0], nchwDims[1], nchwDims[3]};
  NNRT_ASSIGN_OR_RETURN(uint32_t image, addTensor(outType, channelsLastDims(nchwDims)));
  NNRT_RETURN_IF_ERROR(addOperation(type, inputs, {image}));
  Value value;
  NNRT_ASSIGN_OR_RETURN(value.operand, reshape(image, outType, channelsLastDims(ncl)));
  value.type = outType;
  value.dims = ncl;
  value.nhwc = true;
  define(i, std::move(value));
  return {};
}

void GraphBuilder::releaseConstant(const std::string& name) {
  auto it = values_.find(name);
  if (it == values_.end() || !it->second.constant.has_value()) return;
  it->second.constant.reset();
  it->second.released = true;
}

Result<uint32_t> GraphBuilder::operand(const Value& value) {
  if (value.packed)
    return refused("a 5-D value reaches it (rank 5 goes only through Reshape, Transpose keeping the first two "
                   "axes, element-wise operators, and Slice, Split and Concat after the second axis)");
  if (value.nhwc) return otherLayout(value, value.dims.size() == 3 ? std::vector<int32_t>{0, 2, 1} : std::vector<int32_t>{0, 3, 1, 2});
  if (value.operand != kNoOperand) return value.operand;
  if (value.released) return refused("loader bug: a constant is read after its last reader");
  // An empty constant lives only on the host (folded shapes): NNAPI has no empty tensors.
  if (isEmptyConstant(value)) return refused("an empty tensor has no NNAPI shape");
  // A constant: add it once and remember its operand under every name that holds it.
  NNRT_ASSIGN_OR_RETURN(uint32_t index, addConstant(value.type, value.dims, value.constant->bytes));
  for (auto& [name, v] : values_) {
    if (&v == &value) {
      v.operand = index;
      operandRecords_[index].name = name;
    }
  }
  return index;
}

Result<uint32_t> GraphBuilder::addTensor(int32_t type, const std::vector<uint32_t>& dims) {
  // 8-bit integer tensors are quantized types of scale 1 and zero point 0 (their values exactly).
  const bool quantized =
      type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM || type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
  ANeuralNetworksOperandType t{type, static_cast<uint32_t>(dims.size()), dims.empty() ? nullptr : dims.data(),
                               quantized ? 1.0f : 0.0f, 0};
  if (type == ANEURALNETWORKS_INT32 || type == ANEURALNETWORKS_FLOAT32 || type == ANEURALNETWORKS_BOOL) {
    t.dimensionCount = 0;
    t.dimensions = nullptr;
  }
  int code = ANeuralNetworksModel_addOperand(model_, &t);
  if (code != ANEURALNETWORKS_NO_ERROR) {
    Error e = refuse(callError("ANeuralNetworksModel_addOperand", code));
    e.code = asResultCode(code);
    return Unexpected<Error>(e);
  }
  operandRecords_.push_back(
      OperandRecord{"", type, t.dimensionCount ? dims : std::vector<uint32_t>{}, false});
  return operandCount_++;
}

Result<uint32_t> GraphBuilder::addConstant(int32_t type, const std::vector<uint32_t>& dims,
                                           std::vector<uint8_t> bytes) {
  NNRT_ASSIGN_OR_RETURN(uint32_t index, addTensor(type, dims));
  held_.push_back(std::move(bytes));
  const std::vector<uint8_t>& data = held_.back();
  operandRecords_[index].constant = true;
  // Moving the vector keeps its buffer, so the pointer stays valid until finish.
  int code =
      ANeuralNetworksModel_setOperandValue(model_, static_cast<int32_t>(index), data.data(), data.size());
  if (code != ANEURALNETWORKS_NO_ERROR) {
    Error e = refuse(callError("ANeuralNetworksModel_setOperandValue", code));
    e.code = asResultCode(code);
    return Unexpected<Error>(e);
  }
  return index;
}

Result<uint32_t> GraphBuilder::constInts(const std::vector<int32_t>& values, std::vector<uint32_t> dims) {
  if (dims.empty()) dims = {static_cast<uint32_t>(values.size())};
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return addConstant(ANEURALNETWORKS_TENSOR_INT32, dims, std::move(bytes));
}

Result<uint32_t> GraphBuilder::constFloats(const std::vector<float>& values, std::vector<uint32_t> dims) {
  if (dims.empty()) dims = {static_cast<uint32_t>(values.size())};
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, dims, std::move(bytes));
}

Result<uint32_t> GraphBuilder::scalarInt(int32_t value) {
  std::vector<uint8_t> bytes(4);
  std::memcpy(bytes.data(), &value, 4);
  return addConstant(ANEURALNETWORKS_INT32, {}, std::move(bytes));
}

Result<uint32_t> GraphBuilder::scalarFloat(float value) {
  std::vector<uint8_t> bytes(4);
  std::memcpy(bytes.data(), &value, 4);
  return addConstant(ANEURALNETWORKS_FLOAT32, {}, std::move(bytes));
}

Result<uint32_t> GraphBuilder::scalarBool(bool value) {
  return addConstant(ANEURALNETWORKS_BOOL, {}, std::vector<uint8_t>{static_cast<uint8_t>(value ? 1 : 0)});
}

Result<uint32_t> GraphBuilder::addModelOperand(const ANeuralNetworksModel* model) {
  NNRT_ASSIGN_OR_RETURN(uint32_t index, addTensor(ANEURALNETWORKS_MODEL, {}));
  operandRecords_[index].constant = true;
  int code = ANeuralNetworksModel_setOperandValueFromModel(model_, static_cast<int32_t>(index), model);
  if (code != ANEURALNETWORKS_NO_ERROR) {
    Error e = refuse(callError("ANeuralNetworksModel_setOperandValueFromModel", code));
    e.code = asResultCode(code);
    return Unexpected<Error>(e);
  }
  return index;
}

Result<void> GraphBuilder::addOperation(int32_t type, const std::vector<uint32_t>& inputs,
                                        const std::vector<uint32_t>& outputs) {
  int code =
      ANeuralNetworksModel_addOperation(model_, type, static_cast<uint32_t>(inputs.size()), inputs.data(),
                                        static_cast<uint32_t>(outputs.size()), outputs.data());
  if (code != ANEURALNETWORKS_NO_ERROR) {
    // The runtime logs its reason; the refusal names the operation, and the rank when it is above the 4
    // that most NNAPI operations take (expanded functions reshape to ranks 5 and 6).
    const char* name = driver::operationTypeName(type);
    std::string what = "NNAPI's " + (name != nullptr ? std::string(name) : std::to_string(type));
    size_t rank = 0;
    for (const auto* list : {&inputs, &outputs}) {
      for (uint32_t operand : *list) {
        if (operand < operandRecords_.size())
          rank = std::max(rank, operandRecords_[operand].dimensions.size());
      }
    }
    if (rank > 4)
      what += " refused a tensor of rank " + std::to_string(rank) +
              " (most NNAPI operations take rank 4 at most)";
    else
      what += " refused its operands (" + callError("ANeuralNetworksModel_addOperation", code) + ")";
    Error e = refuse(what);
    e.code = asResultCode(code);
    return Unexpected<Error>(e);
  }
  std::string nodeName = node_ == nullptr ? "" : node_->name().empty() ? node_->op_type() : node_->name();
  operationRecords_.push_back(OperationRecord{type, inputs, outputs, nodeName});
  return {};
}

Result<void> GraphBuilder::emit(int32_t type, const std::vector<uint32_t>& inputs, int32_t outType,
                                const std::vector<uint32_t>& outDims, int i) {
  NNRT_ASSIGN_OR_RETURN(uint32_t out, addTensor(outType, outDims));
  NNRT_RETURN_IF_ERROR(addOperation(type, inputs, {out}));
  Value value;
  value.operand = out;
  value.type = outType;
  value.dims = outDims;
  define(i, std::move(value));
  return {};
}

void GraphBuilder::define(int i, Value value) {
  if (i < node_->output_size() && !node_->output(i).empty()) defineName(node_->output(i), std::move(value));
}

void GraphBuilder::defineName(const std::string& name, Value value) {
  if (value.operand != kNoOperand && operandRecords_[value.operand].name.empty()) {
    operandRecords_[value.operand].name = name;
  }
  values_[name] = std::move(value);
}

Result<uint32_t> GraphBuilder::reshape(uint32_t operand, int32_t type, const std::vector<uint32_t>& dims) {
  std::vector<int32_t> shape(dims.begin(), dims.end());
  if (type == ANEURALNETWORKS_TENSOR_BOOL8) {
    // RESHAPE takes no booleans: SELECT 1 or 0 (int32), RESHAPE that, NOT_EQUAL 0 back.
    const std::vector<uint32_t> from = operandRecords_.at(operand).dimensions;  // a copy: records grow below
    if (from.empty() || std::find(from.begin(), from.end(), 0u) != from.end())
      return refused("reshaping a boolean of unknown shape");
    size_t count = 1;
    for (uint32_t d : from)
      count *= d;
    NNRT_ASSIGN_OR_RETURN(uint32_t ones, constInts(std::vector<int32_t>(count, 1), from));
    NNRT_ASSIGN_OR_RETURN(uint32_t zeros, constInts(std::vector<int32_t>(count, 0), from));
    NNRT_ASSIGN_OR_RETURN(uint32_t asInt, addTensor(ANEURALNETWORKS_TENSOR_INT32, from));
    NNRT_RETURN_IF_ERROR(addOperation(ANEURALNETWORKS_SELECT, {operand, ones, zeros}, {asInt}));
    NNRT_ASSIGN_OR_RETURN(uint32_t reshaped, reshape(asInt, ANEURALNETWORKS_TENSOR_INT32, dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t zero, constInts({0}));
    NNRT_ASSIGN_OR_RETURN(uint32_t out, addTensor(type, dims));
    NNRT_RETURN_IF_ERROR(addOperation(ANEURALNETWORKS_NOT_EQUAL, {reshaped, zero}, {out}));
    return out;
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t shapeOperand, constInts(shape));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, addTensor(type, dims));
  NNRT_RETURN_IF_ERROR(addOperation(ANEURALNETWORKS_RESHAPE, {operand, shapeOperand}, {out}));
  return out;
}

const onnx::NodeProto* GraphBuilder::onlyReader(const std::string& name) const {
  auto readers = consumers_.find(name);
  if (graphOutputs_.count(name) != 0 || readers == consumers_.end() || readers->second.size() != 1) return nullptr;
  const onnx::NodeProto* next = readers->second[0];
  if ((!next->domain().empty() && next->domain() != "ai.onnx") || next->output_size() != 1) return nullptr;
  return next;
}

int32_t GraphBuilder::fuseFollowingActivation() {
  if (node_ == nullptr || node_->output_size() < 1) return ANEURALNETWORKS_FUSED_NONE;
  const std::string name = tail();
  const onnx::NodeProto* next = onlyReader(name);
  if (next == nullptr || next->input_size() < 1 || next->input(0) != name) return ANEURALNETWORKS_FUSED_NONE;
  int32_t code = ANEURALNETWORKS_FUSED_NONE;
  if (next->op_type() == "Relu") {
    code = ANEURALNETWORKS_FUSED_RELU;
  } else if (next->op_type() == "Clip") {
    // The bounds: attributes before opset 11, constant inputs from it on (absent: unbounded).
    std::optional<float> bound[2];
    for (int i = 0; i < 2; ++i) {
      if (opset_ < 11) {
        for (const auto& a : next->attribute()) {
          if (a.name() == (i == 0 ? "min" : "max")) bound[i] = a.f();
        }
      } else if (next->input_size() > i + 1 && !next->input(i + 1).empty()) {
        const Value* v = find(next->input(i + 1));
        if (v == nullptr || !v->constant.has_value() || v->type != ANEURALNETWORKS_TENSOR_FLOAT32 ||
            v->constant->bytes.size() != 4) {
          return ANEURALNETWORKS_FUSED_NONE;
        }
        float f;
        std::memcpy(&f, v->constant->bytes.data(), 4);
        bound[i] = f;
      }
    }
    if (bound[0] == 0.0f && !bound[1])
      code = ANEURALNETWORKS_FUSED_RELU;
    else if (bound[0] == 0.0f && bound[1] == 6.0f)
      code = ANEURALNETWORKS_FUSED_RELU6;
    else if (bound[0] == -1.0f && bound[1] == 1.0f)
      code = ANEURALNETWORKS_FUSED_RELU1;
  }
  if (code != ANEURALNETWORKS_FUSED_NONE) absorb(next, name);
  return code;
}

std::optional<GraphBuilder::ChannelAffine> GraphBuilder::foldFollowingBatchNorm(uint32_t channels) {
  if (node_ == nullptr || node_->output_size() < 1) return std::nullopt;
  const std::string name = tail();
  const onnx::NodeProto* next = onlyReader(name);
  if (next == nullptr || next->op_type() != "BatchNormalization" || next->input_size() != 5 || next->input(0) != name)
    return std::nullopt;
  float epsilon = 1e-5f;
  for (const auto& a : next->attribute()) {
    if (a.name() == "epsilon") epsilon = a.f();
    if (a.name() == "training_mode" && a.i() != 0) return std::nullopt;
  }
  std::vector<float> p[4];
  for (int i = 0; i < 4; ++i) {
    const Value* v = find(next->input(i + 1));
    if (v == nullptr || !v->constant.has_value() || v->type != ANEURALNETWORKS_TENSOR_FLOAT32 ||
        v->constant->bytes.size() != size_t{channels} * 4)
      return std::nullopt;
    p[i].resize(channels);
    std::memcpy(p[i].data(), v->constant->bytes.data(), size_t{channels} * 4);
  }
  ChannelAffine affine{std::vector<float>(channels), std::vector<float>(channels)};
  for (uint32_t c = 0; c < channels; ++c) {  // scale, B, mean, var
    affine.factor[c] = p[0][c] / std::sqrt(p[3][c] + epsilon);
    affine.shift[c] = p[1][c] - p[2][c] * affine.factor[c];
  }
  absorb(next, name);
  return affine;
}

bool GraphBuilder::absorbFollowingTranspose(const std::vector<int64_t>& perm) {
  if (node_ == nullptr || node_->output_size() < 1) return false;
  const std::string name = tail();
  const onnx::NodeProto* next = onlyReader(name);
  if (next == nullptr || next->op_type() != "Transpose" || next->input_size() != 1 || next->input(0) != name)
    return false;
  std::vector<int64_t> given;
  for (const auto& a : next->attribute())
    if (a.name() == "perm") given.assign(a.ints().begin(), a.ints().end());
  if (given != perm) return false;
  absorb(next, name);
  return true;
}

bool GraphBuilder::absorbFollowingProductWithInput() {
  if (node_ == nullptr || node_->output_size() < 1 || node_->input_size() < 1) return false;
  const std::string name = tail();
  const onnx::NodeProto* next = onlyReader(name);
  if (next == nullptr || next->op_type() != "Mul" || next->input_size() != 2) return false;
  const std::string& x = node_->input(0);
  if (!((next->input(0) == name && next->input(1) == x) || (next->input(0) == x && next->input(1) == name)))
    return false;
  absorb(next, name);
  return true;
}

bool GraphBuilder::absorbTransposeAndReshape(const std::vector<int64_t>& wanted, const std::vector<uint32_t>& dims) {
  if (node_ == nullptr || node_->output_size() < 1) return false;
  // The only reader of `name`, when it is of type `op` and reads it as input 0.
  auto readerOf = [&](const std::string& name, const char* op) -> const onnx::NodeProto* {
    const onnx::NodeProto* next = onlyReader(name);
    return next != nullptr && next->op_type() == op && next->input_size() >= 1 && next->input(0) == name ? next : nullptr;
  };
  const onnx::NodeProto* transpose = readerOf(tail(), "Transpose");
  if (transpose == nullptr) return false;
  std::vector<int64_t> perm;
  for (const auto& a : transpose->attribute())
    if (a.name() == "perm") perm.assign(a.ints().begin(), a.ints().end());
  if (perm != wanted) return false;
  const onnx::NodeProto* back = readerOf(transpose->output(0), "Reshape");
  if (back == nullptr || back->input_size() != 2) return false;
  for (const auto& a : back->attribute())
    if (a.name() == "allowzero" && a.i() != 0) return false;
  const Value* shape = find(back->input(1));
  if (shape == nullptr || !shape->constant.has_value() || shape->type != ANEURALNETWORKS_TENSOR_INT32 ||
      shape->constant->bytes.size() != dims.size() * 4)
    return false;
  // The shape asked for, with at most one -1 (the rest of the elements) and no 0 (copied dimensions).
  std::vector<int32_t> target(dims.size());
  std::memcpy(target.data(), shape->constant->bytes.data(), dims.size() * 4);
  size_t total = 1, known = 1;
  for (uint32_t d : dims) total *= d;
  int inferred = -1;
  for (size_t a = 0; a < target.size(); ++a) {
    if (target[a] == -1 && inferred < 0) {
      inferred = static_cast<int>(a);
    } else if (target[a] > 0) {
      known *= static_cast<size_t>(target[a]);
    } else {
      return false;
    }
  }
  if (inferred >= 0) target[static_cast<size_t>(inferred)] = static_cast<int32_t>(total / known);
  for (size_t a = 0; a < dims.size(); ++a)
    if (static_cast<uint32_t>(target[a]) != dims[a]) return false;
  const std::string name = tail();
  absorb(transpose, name);
  absorb(back, name);
  return true;
}

std::optional<std::vector<float>> GraphBuilder::absorbFollowingBias(uint32_t n, size_t rank) {
  if (node_ == nullptr || node_->output_size() < 1) return std::nullopt;
  const std::string name = tail();
  const onnx::NodeProto* next = onlyReader(name);
  if (next == nullptr || next->op_type() != "Add" || next->input_size() != 2 || next->input(0) == next->input(1))
    return std::nullopt;
  const Value* bias = find(next->input(next->input(0) == name ? 1 : 0));
  if (bias == nullptr || !bias->constant.has_value() || bias->type != ANEURALNETWORKS_TENSOR_FLOAT32 ||
      bias->dims.empty() || bias->dims.size() > rank || bias->dims.back() != n || bias->constant->bytes.size() != size_t{n} * 4)
    return std::nullopt;
  std::vector<float> values(n);
  std::memcpy(values.data(), bias->constant->bytes.data(), values.size() * 4);
  absorb(next, name);
  return values;
}

const onnx::AttributeProto* GraphBuilder::attribute(const std::string& name) const {
  for (const auto& a : node_->attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

Result<int64_t> GraphBuilder::attrInt(const std::string& name, int64_t fallback) const {
  const auto* a = attribute(name);
  if (a == nullptr) return fallback;
  if (a->type() != onnx::AttributeProto::INT) return refused("attribute " + name + " is not an int");
  return a->i();
}

Result<float> GraphBuilder::attrFloat(const std::string& name, float fallback) const {
  const auto* a = attribute(name);
  if (a == nullptr) return fallback;
  if (a->type() != onnx::AttributeProto::FLOAT) return refused("attribute " + name + " is not a float");
  return a->f();
}

Result<std::string> GraphBuilder::attrString(const std::string& name, const std::string& fallback) const {
  const auto* a = attribute(name);
  if (a == nullptr) return fallback;
  if (a->type() != onnx::AttributeProto::STRING) return refused("attribute " + name + " is not a string");
  return a->s();
}

Result<std::vector<int64_t>> GraphBuilder::attrInts(const std::string& name) const {
  const auto* a = attribute(name);
  if (a == nullptr) return std::vector<int64_t>{};
  if (a->type() != onnx::AttributeProto::INTS) return refused("attribute " + name + " is not a list of ints");
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

Result<uint32_t> normalizeAxis(const GraphBuilder& builder, int64_t axis, size_t rank) {
  int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) {
    return builder.refused("axis " + std::to_string(axis) + " is outside rank " + std::to_string(rank));
  }
  return static_cast<uint32_t>(axis < 0 ? axis + r : axis);
}

}  // namespace nnrt::onnxfront
