// ONNX control-flow operators -> NNAPI: If and Loop.
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

// If: NNAPI IF with then_branch and else_branch built as referenced models. NNAPI passes the IF's inputs
// to both branches, so each takes every value of the enclosing graph either branch reads (constants are
// copied into the branches instead); both branches must give outputs of the same types and shapes.
Result<void> mapIf(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* cond, b.requiredInput(0));
  if (cond->type != ANEURALNETWORKS_TENSOR_BOOL8 || elementCount(cond->dims) != 1)
    return b.refused("cond must be one bool");
  const onnx::AttributeProto* thenBranch = b.attribute("then_branch");
  const onnx::AttributeProto* elseBranch = b.attribute("else_branch");
  if (thenBranch == nullptr || !thenBranch->has_g() || elseBranch == nullptr || !elseBranch->has_g())
    return b.refused("then_branch and else_branch must be graphs");
  std::vector<std::string> captured;
  outerNames(thenBranch->g(), captured);
  outerNames(elseBranch->g(), captured);
  NNRT_ASSIGN_OR_RETURN(Subgraph thenModel, buildSubgraph(b, thenBranch->g(), {}, captured));
  NNRT_ASSIGN_OR_RETURN(Subgraph elseModel, buildSubgraph(b, elseBranch->g(), {}, captured));
  const size_t n = thenModel.outputs.size();
  if (elseModel.outputs.size() != n || static_cast<int>(n) != b.node()->output_size())
    return b.refused("the branches and the node have different numbers of outputs");
  for (size_t i = 0; i < n; ++i) {
    const Value& t = thenModel.outputs[i];
    const Value& e = elseModel.outputs[i];
    if (t.type != e.type || t.dims != e.dims || t.scalar != e.scalar)
      return b.refused("output " + std::to_string(i) + " differs in type or shape between the branches");
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t condOperand, b.operand(*cond));
  NNRT_ASSIGN_OR_RETURN(uint32_t thenOperand, b.addModelOperand(thenModel.model.get()));
  NNRT_ASSIGN_OR_RETURN(uint32_t elseOperand, b.addModelOperand(elseModel.model.get()));
  std::vector<uint32_t> inputs{condOperand, thenOperand, elseOperand};
  for (const auto& name : captured) {
    const Value* value = b.find(name);
    if (value != nullptr && !value->constant.has_value()) {
      NNRT_ASSIGN_OR_RETURN(uint32_t operand, b.operand(*value));
      inputs.push_back(operand);
    }
  }
  std::vector<uint32_t> outputs;
  for (const Value& t : thenModel.outputs) {
    NNRT_ASSIGN_OR_RETURN(uint32_t out, b.addTensor(t.type, t.dims));
    outputs.push_back(out);
  }
  NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_IF, inputs, outputs));
  for (size_t i = 0; i < n; ++i)
    defineOperand(b, static_cast<int>(i), outputs[i], thenModel.outputs[i].type, thenModel.outputs[i].dims,
                  thenModel.outputs[i].scalar);
  return {};
}

namespace {

// Whether `body`'s cond_out is cond_in passed on (directly or by Identity): an unrolled loop then knows
// each iteration's condition at load time.
bool passesConditionOn(const onnx::GraphProto& body) {
  const std::string& out = body.output(0).name();
  if (out == body.input(1).name()) return true;
  for (const auto& inner : body.node()) {
    if (inner.output_size() == 1 && inner.output(0) == out)
      return inner.op_type() == "Identity" && inner.input_size() == 1 &&
             inner.input(0) == body.input(1).name();
  }
  return false;
}

// A Loop without scan outputs whose iterations are known only at run time -> NNAPI WHILE. Loop-carried: the
// iteration number (int32 [1]), the condition (bool [1]) and the node's values; input-only: M (when given)
// and the values of the enclosing graph the body reads. The condition model computes iteration < M and
// cond (each when given); the body model is ONNX's body with iteration + 1 and, when the node gives no
// cond (ONNX then ignores cond_out), cond_in passed on as its first outputs.
Result<void> whileLoop(GraphBuilder& b, const onnx::GraphProto& body, int carried, const Value* trips,
                       const Value* cond) {
  const int32_t i32 = ANEURALNETWORKS_TENSOR_INT32, b8 = ANEURALNETWORKS_TENSOR_BOOL8;
  auto scalar = [](int32_t type) {
    Value v;
    v.type = type;
    v.dims = {1};
    v.scalar = true;
    return v;
  };
  std::vector<Value> inputs{scalar(i32), scalar(b8)};
  NNRT_ASSIGN_OR_RETURN(uint32_t iteration0, b.constInts({0}));
  uint32_t condition0;
  if (cond != nullptr) {
    if (cond->type != b8 || elementCount(cond->dims) != 1) return b.refused("cond must be one bool");
    NNRT_ASSIGN_OR_RETURN(condition0, b.operand(*cond));
    if (cond->dims != Dims{1}) {
      NNRT_ASSIGN_OR_RETURN(condition0, b.reshape(condition0, b8, {1}));
    }
  } else {
    NNRT_ASSIGN_OR_RETURN(condition0, constFilled(b, b8, {1}, 1.0));
  }
  std::vector<uint32_t> operands{iteration0, condition0};
  for (int k = 0; k < carried; ++k) {
    NNRT_ASSIGN_OR_RETURN(const Value* v, b.requiredInput(2 + k));
    if (!allKnown(v->dims)) return b.refused("loop-carried value " + std::to_string(k) + ": shape unknown");
    Value inner;
    inner.type = v->type;
    inner.dims = v->dims;
    inner.scalar = v->scalar;
    inputs.push_back(inner);
    NNRT_ASSIGN_OR_RETURN(uint32_t operand, b.operand(*v));
    operands.push_back(operand);
  }
  // The models' own inputs are named as the body's; M follows under a name of its own.
  const std::string tripName = "nnrt_loop_trip_count";
  if (trips != nullptr) {
    if (trips->type != i32 || elementCount(trips->dims) != 1) return b.refused("M must be one integer");
    inputs.push_back(scalar(i32));
    NNRT_ASSIGN_OR_RETURN(uint32_t m, b.operand(*trips));
    if (trips->dims != Dims{1}) {
      NNRT_ASSIGN_OR_RETURN(m, b.reshape(m, i32, {1}));
    }
    operands.push_back(m);
  }
  auto addInputs = [&](onnx::GraphProto& graph) {
    for (int i = 0; i < body.input_size(); ++i)
      graph.add_input()->set_name(body.input(i).name());
    if (trips != nullptr) graph.add_input()->set_name(tripName);
  };
  auto addNode = [](onnx::GraphProto& graph, const char* op, std::vector<std::string> in,
                    const std::string& out) {
    auto* n = graph.add_node();
    n->set_op_type(op);
    for (const auto& name : in)
      n->add_input(name);
    n->add_output(out);
  };
  const std::string& iterationName = body.input(0).name();
  const std::string& conditionName = body.input(1).name();
  onnx::GraphProto conditionGraph;
  conditionGraph.set_name(body.name() + " (condition)");
  addInputs(conditionGraph);
  std::string going = conditionName;
  if (trips != nullptr) {
    addNode(conditionGraph, "Less", {iterationName, tripName}, "nnrt_loop_below_trip_count");
    addNode(conditionGraph, "And", {"nnrt_loop_below_trip_count", conditionName}, "nnrt_loop_going");
    going = "nnrt_loop_going";
  }
  conditionGraph.add_output()->set_name(going);
  onnx::GraphProto bodyGraph;
  bodyGraph.set_name(body.name());
  addInputs(bodyGraph);
  *bodyGraph.mutable_initializer() = body.initializer();
  *bodyGraph.mutable_node() = body.node();
  auto* one = bodyGraph.add_initializer();
  one->set_name("nnrt_loop_one");
  one->set_data_type(onnx::TensorProto::INT64);
  one->add_int64_data(1);
  addNode(bodyGraph, "Add", {iterationName, "nnrt_loop_one"}, "nnrt_loop_next");
  bodyGraph.add_output()->set_name("nnrt_loop_next");
  bodyGraph.add_output()->set_name(cond != nullptr ? body.output(0).name() : conditionName);
  for (int k = 0; k < carried; ++k)
    bodyGraph.add_output()->set_name(body.output(1 + k).name());
  std::vector<std::string> captured;
  outerNames(body, captured);
  NNRT_ASSIGN_OR_RETURN(Subgraph conditionModel, buildSubgraph(b, conditionGraph, inputs, captured));
  NNRT_ASSIGN_OR_RETURN(Subgraph bodyModel, buildSubgraph(b, bodyGraph, inputs, captured));
  for (int k = 0; k < 2 + carried; ++k) {
    const Value& out = bodyModel.outputs[k];
    if (out.type != inputs[k].type || out.dims != inputs[k].dims)
      return b.refused("loop-carried value " + std::to_string(k - 2) + " changes type or shape in the body");
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t conditionOperand, b.addModelOperand(conditionModel.model.get()));
  NNRT_ASSIGN_OR_RETURN(uint32_t bodyOperand, b.addModelOperand(bodyModel.model.get()));
  operands.insert(operands.begin(), {conditionOperand, bodyOperand});
  for (const auto& name : captured) {
    const Value* value = b.find(name);
    if (value != nullptr && !value->constant.has_value()) {
      NNRT_ASSIGN_OR_RETURN(uint32_t operand, b.operand(*value));
      operands.push_back(operand);
    }
  }
  std::vector<uint32_t> outputs;
  for (int k = 0; k < 2 + carried; ++k) {
    NNRT_ASSIGN_OR_RETURN(uint32_t out, b.addTensor(inputs[k].type, inputs[k].dims));
    outputs.push_back(out);
  }
  NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_WHILE, operands, outputs));
  for (int k = 0; k < carried; ++k)
    defineOperand(b, k, outputs[2 + k], inputs[2 + k].type, inputs[2 + k].dims, inputs[2 + k].scalar);
  return {};
}

}  // namespace

// Loop whose iterations are known at load time (a constant trip count M, a constant cond, and a body whose
// cond_out folds to a constant in each iteration) is unrolled: the body's nodes are mapped once per
// iteration, with iter_num and cond_in constants, the loop-carried values of the iteration before, and
// the body's own names given a per-iteration prefix. This is exact (the same operations, in order) and
// also covers what NNAPI's WHILE cannot: scan outputs, which grow by one slice per iteration (here the
// slices stacked by CONCATENATION, or at load time when constant), and bodies that use iter_num where
// NNAPI needs a constant (a Slice's bounds). A loop without scan outputs whose M or cond is given at run
// time, or whose cond_out is computed, is whileLoop's; with scan outputs such a loop is refused.
Result<void> mapLoop(GraphBuilder& b) {
  constexpr int64_t kMaxIterations = 256;
  const onnx::NodeProto* node = b.node();
  const onnx::AttributeProto* bodyAttribute = b.attribute("body");
  if (bodyAttribute == nullptr || !bodyAttribute->has_g()) return b.refused("body must be a graph");
  const onnx::GraphProto& body = bodyAttribute->g();
  const int carried = node->input_size() - 2;
  if (carried < 0 || body.input_size() != carried + 2 || body.output_size() < carried + 1)
    return b.refused("the body's inputs and outputs do not match the node's");
  const int scans = body.output_size() - 1 - carried;
  if (node->output_size() > carried + scans) return b.refused("more outputs than the body gives");
  for (const auto& inner : body.node()) {
    for (const auto& attribute : inner.attribute()) {
      if (attribute.has_g() || attribute.graphs_size() > 0)
        return b.refused("a body holding subgraphs is not supported");
    }
  }
  NNRT_ASSIGN_OR_RETURN(const Value* tripInput, b.input(0));
  NNRT_ASSIGN_OR_RETURN(const Value* condInput, b.input(1));
  // Without scan outputs a loop whose iterations are known only at run time is NNAPI's WHILE.
  const bool runTime =
      (tripInput != nullptr && !tripInput->constant.has_value()) ||
      (condInput != nullptr && (!condInput->constant.has_value() || !passesConditionOn(body)));
  if (scans == 0 && runTime) return whileLoop(b, body, carried, tripInput, condInput);
  int64_t trips = kMaxIterations + 1;  // no trip count: until cond_out is false
  if (tripInput != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(0));
    if (values.size() != 1) return b.refused("M must be one value");
    trips = values[0];
  }
  bool condition = true;
  auto constantBool = [&](const Value& v, const std::string& name, bool& out) -> Result<void> {
    if (v.type != ANEURALNETWORKS_TENSOR_BOOL8 || elementCount(v.dims) != 1)
      return b.refused(name + " must be one bool");
    if (!v.constant.has_value()) return b.refused(name + " must be a constant");
    out = v.constant->bytes[0] != 0;
    return {};
  };
  if (condInput != nullptr)
    NNRT_RETURN_IF_ERROR(constantBool(*condInput, "input 1 ('" + node->input(1) + "')", condition));
  std::vector<Value> state;
  for (int k = 0; k < carried; ++k) {
    NNRT_ASSIGN_OR_RETURN(const Value* v, b.requiredInput(2 + k));
    state.push_back(*v);
  }
  // The names the body defines (they get the per-iteration prefix; others are the enclosing graph's).
  std::set<std::string> own;
  for (const auto& info : body.input())
    own.insert(info.name());
  for (const auto& tensor : body.initializer())
    own.insert(tensor.name());
  for (const auto& inner : body.node())
    own.insert(inner.output().begin(), inner.output().end());
  // The body's names in iteration i: "<the Loop's first output or name>/iteration<i>/<name>".
  std::string loopName = node->name().empty() ? "Loop" : node->name();
  for (const auto& output : node->output()) {
    if (!output.empty()) {
      loopName = output;
      break;
    }
  }
  std::vector<std::vector<Value>> scanned(scans);
  int64_t iteration = 0;
  for (; iteration < trips && condition; ++iteration) {
    if (iteration == kMaxIterations)
      return b.refused("more than " + std::to_string(kMaxIterations) + " iterations are not unrolled");
    const std::string prefix = loopName + "/iteration" + std::to_string(iteration) + "/";
    auto renamed = [&](const std::string& name) { return own.count(name) != 0 ? prefix + name : name; };
    onnx::GraphProto copy;
    *copy.mutable_node() = body.node();
    for (auto& inner : *copy.mutable_node()) {
      for (auto& name : *inner.mutable_input())
        if (!name.empty()) name = renamed(name);
      for (auto& name : *inner.mutable_output())
        if (!name.empty()) name = renamed(name);
    }
    NNRT_ASSIGN_OR_RETURN(HostTensor count,
                          filledTensor(b, ANEURALNETWORKS_TENSOR_INT32, {}, {double(iteration)}));
    Value counter;
    counter.type = ANEURALNETWORKS_TENSOR_INT32;
    counter.dims = {1};
    counter.scalar = true;
    counter.constant = std::move(count);
    b.defineName(renamed(body.input(0).name()), counter);
    NNRT_ASSIGN_OR_RETURN(HostTensor flag,
                          filledTensor(b, ANEURALNETWORKS_TENSOR_BOOL8, {}, {condition ? 1.0 : 0.0}));
    Value condValue;
    condValue.type = ANEURALNETWORKS_TENSOR_BOOL8;
    condValue.dims = {1};
    condValue.scalar = true;
    condValue.constant = std::move(flag);
    b.defineName(renamed(body.input(1).name()), condValue);
    for (int k = 0; k < carried; ++k)
      b.defineName(renamed(body.input(2 + k).name()), state[k]);
    for (const auto& tensor : body.initializer()) {
      NNRT_ASSIGN_OR_RETURN(HostTensor t, decodeTensor(tensor, b.folder()));
      Value v;
      v.type = t.type;
      v.scalar = t.dimensions.empty();
      v.dims = v.scalar ? Dims{1} : t.dimensions;
      v.constant = std::move(t);
      b.defineName(renamed(tensor.name()), std::move(v));
    }
    NNRT_RETURN_IF_ERROR(mapNodes(b, copy.node()));
    b.setNode(node);
    auto result = [&](int i) -> Result<Value> {
      const Value* v = b.find(renamed(body.output(i).name()));
      if (v == nullptr) return b.refused("body output '" + body.output(i).name() + "' is not computed");
      return *v;
    };
    if (condInput != nullptr) {  // without one, ONNX ignores cond_out (a for loop over M)
      NNRT_ASSIGN_OR_RETURN(Value condOut, result(0));
      if (!condOut.constant.has_value())
        return b.refused(
            "the body's condition is computed at run time: only loops whose iterations are known at "
            "load time are mapped (unrolled)");
      NNRT_RETURN_IF_ERROR(constantBool(condOut, "cond_out", condition));
    }
    for (int k = 0; k < carried; ++k) {
      NNRT_ASSIGN_OR_RETURN(state[k], result(1 + k));
    }
    for (int k = 0; k < scans; ++k) {
      NNRT_ASSIGN_OR_RETURN(Value v, result(1 + carried + k));
      scanned[k].push_back(std::move(v));
    }
  }
  for (int k = 0; k < carried; ++k)
    b.define(k, state[k]);
  for (int k = 0; k < scans; ++k) {
    if (carried + k >= node->output_size() || node->output(carried + k).empty()) continue;
    if (iteration == 0) return b.refused("no iterations: the scan outputs would be empty");
    const Value& first = scanned[k][0];
    Dims dims{static_cast<uint32_t>(iteration)};
    if (!first.scalar) dims.insert(dims.end(), first.dims.begin(), first.dims.end());
    bool constant = true;
    for (const Value& v : scanned[k]) {
      if (v.type != first.type || v.dims != first.dims || !allKnown(v.dims))
        return b.refused("scan output " + std::to_string(k) + " changes type or shape between iterations");
      constant = constant && v.constant.has_value();
    }
    if (constant) {  // stacked at load time
      HostTensor t;
      t.type = first.type;
      t.dimensions = dims;
      for (const Value& v : scanned[k])
        t.bytes.insert(t.bytes.end(), v.constant->bytes.begin(), v.constant->bytes.end());
      defineConstant(b, carried + k, std::move(t));
      continue;
    }
    Dims slice = dims;
    slice[0] = 1;
    std::vector<uint32_t> parts;
    for (const Value& v : scanned[k]) {
      NNRT_ASSIGN_OR_RETURN(uint32_t operand, b.operand(v));
      NNRT_ASSIGN_OR_RETURN(uint32_t reshaped, b.reshape(operand, v.type, slice));
      parts.push_back(reshaped);
    }
    uint32_t out = parts[0];
    if (parts.size() > 1) {
      NNRT_ASSIGN_OR_RETURN(uint32_t axis, b.scalarInt(0));
      parts.push_back(axis);
      NNRT_ASSIGN_OR_RETURN(out, apply(b, ANEURALNETWORKS_CONCATENATION, parts, first.type, dims));
    }
    defineOperand(b, carried + k, out, first.type, dims);
  }
  return {};
}

}  // namespace nnrt::onnxfront
