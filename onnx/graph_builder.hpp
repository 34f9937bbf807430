// The state of one ONNX graph being turned into an NNAPI model: ONNX values by name, each an NNAPI
// operand with its type and static shape (constants kept on the host until an operation uses them),
// and the C API calls that add operands and operations. The operator mappings (operators*.cpp) use it.
#pragma once

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "onnx/onnx_loader.hpp"

namespace nnrt::onnxfront {

inline constexpr uint32_t kNoOperand = UINT32_MAX;

// The axis of a channels-last image (Value::nhwc) that holds ONNX's `axis` of a rank-`rank` NCHW or NCL
// value: the channels last, the others one earlier.
inline int32_t channelsLastAxis(int32_t axis, size_t rank) {
  return axis == 0 ? 0 : axis == 1 ? static_cast<int32_t>(rank) - 1 : axis - 1;
}
// ONNX's NCHW or NCL dimensions as the channels-last image holds them.
inline std::vector<uint32_t> channelsLastDims(const std::vector<uint32_t>& dims) {
  std::vector<uint32_t> out{dims[0]};
  out.insert(out.end(), dims.begin() + 2, dims.end());
  out.push_back(dims[1]);
  return out;
}

struct Value {
  uint32_t operand = kNoOperand;       // kNoOperand: a constant not yet added to the model
  int32_t type = 0;                    // ANEURALNETWORKS_TENSOR_*
  std::vector<uint32_t> dims;          // never empty (rank 0 is [1]); 0 = unknown dimension
  bool scalar = false;                 // rank 0 in ONNX
  std::optional<HostTensor> constant;  // its values when known at load time
  // An image the layout-sensitive operations keep with its channels last: a 4-D one as NHWC (NNAPI's
  // own layout, which its drivers run without converting), a 1-D one ([N, C, L]) as [N, L, C], which
  // they run as the NHWC image [N, 1, L, C]. `operand` holds it so, `dims` stay ONNX's ones.
  bool nhwc = false;
  // A constant whose readers are all mapped: its host values are gone (GraphBuilder::releaseConstant).
  bool released = false;
  uint32_t otherLayout = kNoOperand;  // the same tensor TRANSPOSEd to the other layout, once made
  // A rank-5 value (NNAPI's operations take rank 4 at most) whose `operand` holds it as [d0 * d1, d2, d3,
  // d4] (the same elements in the same order): only the operations that know it read it (packedOperand).
  bool packed = false;
};

// A load-time constant with no elements (an empty Slice of a shape, say): it can be folded into other
// constants but never becomes an NNAPI operand.
inline bool isEmptyConstant(const Value& value) {
  return value.constant.has_value() && !value.constant->dimensions.empty() &&
         std::find(value.constant->dimensions.begin(), value.constant->dimensions.end(), 0u) !=
             value.constant->dimensions.end();
}

class GraphBuilder {
 public:
  GraphBuilder(ANeuralNetworksModel* model, int64_t opset) : model_(model), opset_(opset) {}

  int64_t opset() const { return opset_; }
  // The model file's folder (external data of initializers is relative to it).
  const std::filesystem::path& folder() const { return folder_; }
  void setFolder(std::filesystem::path folder) { folder_ = std::move(folder); }
  const onnx::NodeProto* node() const { return node_; }
  void setNode(const onnx::NodeProto* node) {
    node_ = node;
    tail_.clear();
  }

  // An error about the current node: "node 'name' (Op): <what>".
  Error refuse(const std::string& what) const;
  Unexpected<Error> refused(const std::string& what) const { return Unexpected<Error>(refuse(what)); }

  // Input `i` of the current node; nullptr when absent or given as "" (an omitted optional input).
  Result<const Value*> input(int i) const;
  Result<const Value*> requiredInput(int i) const;
  // Its values when constant, else an error naming the input.
  Result<std::vector<int32_t>> constantInts(int i) const;
  Result<std::vector<float>> constantFloats(int i) const;

  // The model operand of `value` (in ONNX's layout: an NHWC value is TRANSPOSEd back once), adding a
  // constant to the model on first use.
  Result<uint32_t> operand(const Value& value);
  // A 4-D or 3-D `value` as a channels-last operand (an NCHW or NCL one TRANSPOSEd once).
  Result<uint32_t> nhwcOperand(const Value& value);
  // A 3-D `value` [N, C, L] as the NHWC image [N, 1, L, C] (its channels-last operand reshaped).
  Result<uint32_t> nhwcImage1D(const Value& value);
  // Adds NNAPI operation `type` writing a channels-last image that becomes the current node's output `i`
  // with ONNX's NCHW (or NCL) shape `nchwDims`.
  Result<void> emitNhwc(int32_t type, const std::vector<uint32_t>& inputs, int32_t outType,
                        const std::vector<uint32_t>& nchwDims, int i = 0);
  // Adds NNAPI operation `type` writing the NHWC image [N, 1, L, C] of a 1-D result whose NCHW shape is
  // `nchwDims` ([N, C, 1, L]): output `i` becomes the channels-last [N, L, C] of ONNX's [N, C, L].
  Result<void> emitNhwc1D(int32_t type, const std::vector<uint32_t>& inputs, int32_t outType,
                          const std::vector<uint32_t>& nchwDims, int i = 0);

  Result<uint32_t> addTensor(int32_t type, const std::vector<uint32_t>& dims);
  Result<uint32_t> addConstant(int32_t type, const std::vector<uint32_t>& dims, std::vector<uint8_t> bytes);
  Result<uint32_t> constInts(const std::vector<int32_t>& values, std::vector<uint32_t> dims = {});
  Result<uint32_t> constFloats(const std::vector<float>& values, std::vector<uint32_t> dims = {});
  Result<uint32_t> scalarInt(int32_t value);
  Result<uint32_t> scalarFloat(float value);
  Result<uint32_t> scalarBool(bool value);
  // An operand of type ANEURALNETWORKS_MODEL referring to the finished `model`.
  Result<uint32_t> addModelOperand(const ANeuralNetworksModel* model);
  Result<void> addOperation(int32_t type, const std::vector<uint32_t>& inputs,
                            const std::vector<uint32_t>& outputs);

  // Adds NNAPI operation `type` whose one output becomes the current node's output `i` with the given
  // type and shape.
  Result<void> emit(int32_t type, const std::vector<uint32_t>& inputs, int32_t outType,
                    const std::vector<uint32_t>& outDims, int i = 0);
  // Defines output `i` of the current node as an existing operand.
  void define(int i, Value value);
  void defineName(const std::string& name, Value value);
  // Frees the host values of constant `name` once nothing will read them (every reader mapped): the
  // model holds its own copy of what it uses, and a large model's weights are not kept twice.
  void releaseConstant(const std::string& name);
  const Value* find(const std::string& name) const;

  // Attributes of the current node.
  const onnx::AttributeProto* attribute(const std::string& name) const;
  Result<int64_t> attrInt(const std::string& name, int64_t fallback) const;
  Result<float> attrFloat(const std::string& name, float fallback) const;
  Result<std::string> attrString(const std::string& name, const std::string& fallback) const;
  Result<std::vector<int64_t>> attrInts(const std::string& name) const;  // empty when absent

  // Who reads each value (nodes, and whether it is a graph output), for fusing activations.
  void setConsumers(std::map<std::string, std::vector<const onnx::NodeProto*>> consumers,
                    std::set<std::string> graphOutputs) {
    consumers_ = std::move(consumers);
    graphOutputs_ = std::move(graphOutputs);
  }
  // The NNAPI fused activation that computes the only reader of the current node's output 0, when that
  // reader is a Relu or a Clip to [0, inf), [0, 6] or [-1, 1] and the value is no graph output; the
  // reader is then absorbed (it names the fused result). FUSED_NONE otherwise.
  int32_t fuseFollowingActivation();
  // The bias of a MatMul by a constant matrix of N columns: when the only reader of the current
  // node's output 0 (of rank `rank`) is an Add of a constant float32 vector of N values (of rank at
  // most `rank`, [N] at the end), the Add is absorbed and its constant returned.
  std::optional<std::vector<float>> absorbFollowingBias(uint32_t n, size_t rank);
  // An inference BatchNormalization of `channels` constant parameters that is the only reader of the
  // current node's output 0 (a Conv's): absorbed, and its per-channel factor and shift returned
  // (y = x * factor + shift, as mapBatchNorm computes them) for the Conv to fold into its weights and
  // bias. A following Relu or Clip is then looked for after the BatchNormalization.
  struct ChannelAffine {
    std::vector<float> factor, shift;
  };
  std::optional<ChannelAffine> foldFollowingBatchNorm(uint32_t channels);
  // A rearrangement as PyTorch exports it through ranks NNAPI lacks: the current node (a Reshape) is
  // read only by a Transpose by `perm`, read only by a Reshape to `dims`. Both are then absorbed: the
  // current node's output is the rearranged value. A channel shuffle: [N, C, H, W] to [N, g, C / g, H,
  // W], perm [0, 2, 1, 3, 4], back to [N, C, H, W]; a pixel shuffle: [N, C' r r, H, W] to [N, C', r, r,
  // H, W], perm [0, 1, 4, 2, 5, 3], to [N, C', H r, W r].
  bool absorbTransposeAndReshape(const std::vector<int64_t>& perm, const std::vector<uint32_t>& dims);
  // The only reader of the current node's output 0, when it is a Transpose by `perm` (and the value no
  // graph output): absorbed, so that the current node's output is the transposed value.
  bool absorbFollowingTranspose(const std::vector<int64_t>& perm);
  // The only reader of the current node's output 0, when it is a Mul of that output by the current
  // node's input 0 (in either order; the value no graph output): absorbed, so that the current node's
  // output is the product (x * HardSigmoid(x), hard swish as exporters write it before opset 14).
  bool absorbFollowingProductWithInput();
  // An absorbed node names the value of its input that carries the fused result; null for others.
  const std::string* absorbed(const onnx::NodeProto* node) const {
    auto it = absorbed_.find(node);
    return it == absorbed_.end() ? nullptr : &it->second;
  }

  // Adds RESHAPE of `operand` to `dims` (all known) and returns the new operand.
  Result<uint32_t> reshape(uint32_t operand, int32_t type, const std::vector<uint32_t>& dims);

  std::vector<OperandRecord>& operandRecords() { return operandRecords_; }
  std::vector<OperationRecord>& operationRecords() { return operationRecords_; }

 private:
  ANeuralNetworksModel* model_;
  int64_t opset_;
  std::filesystem::path folder_;
  const onnx::NodeProto* node_ = nullptr;
  uint32_t operandCount_ = 0;
  std::map<std::string, Value> values_;
  std::vector<std::vector<uint8_t>> held_;  // values the runtime reads until finish
  std::vector<OperandRecord> operandRecords_;
  std::vector<OperationRecord> operationRecords_;
  std::map<std::string, std::vector<const onnx::NodeProto*>> consumers_;
  std::set<std::string> graphOutputs_;
  std::map<const onnx::NodeProto*, std::string> absorbed_;
  // The value that carries the current node's result after the nodes it absorbed (empty: its output 0).
  std::string tail_;
  const std::string& tail() const { return tail_.empty() ? node_->output(0) : tail_; }
  // The only node that reads value `name`, when the value is no graph output and that node is an
  // ai.onnx one of one output; null otherwise. Its inputs are the caller's to check.
  const onnx::NodeProto* onlyReader(const std::string& name) const;
  // `next` becomes an alias of value `name` (absorbed()) and carries the current node's result on.
  void absorb(const onnx::NodeProto* next, const std::string& name) {
    absorbed_[next] = name;
    tail_ = next->output(0);
  }

  // Adds TRANSPOSE of `value`'s operand by `perm` (once: remembered as its otherLayout).
  Result<uint32_t> otherLayout(const Value& value, const std::vector<int32_t>& perm);
};

// The mapping of one ONNX operator: `attributes` lists every attribute it understands (any other is
// refused before `map` runs).
struct OperatorMapping {
  const char* opType;
  std::vector<const char*> attributes;
  Result<void> (*map)(GraphBuilder& builder);
};

const std::vector<OperatorMapping>& operatorMappings();

// A graph attribute (If's branches, Loop's body) built as a finished NNAPI model of its own, to be
// referenced by an operand of type ANEURALNETWORKS_MODEL.
struct Subgraph {
  std::unique_ptr<ANeuralNetworksModel, ModelDeleter> model;
  std::vector<Value> outputs;  // types and shapes of its outputs
};
// The names a node of `graph` (or of a graph nested in it) reads from the enclosing graphs, appended to
// `names` in the order first read.
void outerNames(const onnx::GraphProto& graph, std::vector<std::string>& names);
// Builds `graph` (inside the current node of `outer`): its inputs are `inputs` (the graph's own, in
// order; their types and shapes) followed by the values of `outer` named in `captured` that are not
// constants (constants are copied into it).
Result<Subgraph> buildSubgraph(GraphBuilder& outer, const onnx::GraphProto& graph,
                               const std::vector<Value>& inputs, const std::vector<std::string>& captured);

// Maps `nodes` into `builder` in order, each by its operator's mapping (their inputs defined there before);
// the builder's current node is none afterwards. `mapped`, when given, is called with each node once it
// is mapped (or absorbed into an earlier one).
Result<void> mapNodes(GraphBuilder& builder,
                      const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                      const std::function<void(const onnx::NodeProto&)>& mapped = nullptr);

// Normalizes ONNX axis `axis` for a tensor of `rank`, or refuses it.
Result<uint32_t> normalizeAxis(const GraphBuilder& builder, int64_t axis, size_t rank);

}  // namespace nnrt::onnxfront
