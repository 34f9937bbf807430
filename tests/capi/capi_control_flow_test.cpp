// Control flow through the C API: IF and WHILE run on the built-in devices (the runtime interprets
// them), nested, with input-only loop operands, with shapes that change per iteration, past their loop
// timeout; and every refusal of a malformed IF or WHILE with its NNAPI result code. Expected values
// are worked out by hand in the comments.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <vector>

#include "core/capi/handles.hpp"
#include "support/capi_memory.hpp"

namespace {

// A model under construction through the C API; operand indexes are returned as they are added.
class Graph {
 public:
  Graph() { EXPECT_EQ(ANeuralNetworksModel_create(&m_), ANEURALNETWORKS_NO_ERROR); }
  ~Graph() { ANeuralNetworksModel_free(m_); }
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  ANeuralNetworksModel* get() const { return m_; }

  uint32_t operand(int32_t type, std::vector<uint32_t> dims) {
    ANeuralNetworksOperandType t{type, static_cast<uint32_t>(dims.size()), dims.empty() ? nullptr : dims.data(),
                                 0.0f, 0};
    EXPECT_EQ(ANeuralNetworksModel_addOperand(m_, &t), ANEURALNETWORKS_NO_ERROR);
    return count_++;
  }
  uint32_t floats(std::vector<uint32_t> dims = {1}) { return operand(ANEURALNETWORKS_TENSOR_FLOAT32, dims); }
  uint32_t flag(std::vector<uint32_t> dims = {1}) { return operand(ANEURALNETWORKS_TENSOR_BOOL8, dims); }
  uint32_t constant(std::vector<float> values) {
    const uint32_t index = floats({static_cast<uint32_t>(values.size())});
    EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m_, index, values.data(), values.size() * sizeof(float)),
              ANEURALNETWORKS_NO_ERROR);
    return index;
  }
  uint32_t scalar(int32_t value) {
    const uint32_t index = operand(ANEURALNETWORKS_INT32, {});
    EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m_, index, &value, sizeof value), ANEURALNETWORKS_NO_ERROR);
    return index;
  }
  uint32_t subgraph(const Graph& model) {
    const uint32_t index = operand(ANEURALNETWORKS_MODEL, {});
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(m_, index, model.get()), ANEURALNETWORKS_NO_ERROR);
    return index;
  }
  int operation(int32_t type, std::vector<uint32_t> in, std::vector<uint32_t> out) {
    return ANeuralNetworksModel_addOperation(m_, type, static_cast<uint32_t>(in.size()), in.data(),
                                             static_cast<uint32_t>(out.size()), out.data());
  }
  // out = a + b, a * b (no fused activation).
  void add(uint32_t a, uint32_t b, uint32_t out) {
    EXPECT_EQ(operation(ANEURALNETWORKS_ADD, {a, b, none()}, {out}), ANEURALNETWORKS_NO_ERROR);
  }
  void mul(uint32_t a, uint32_t b, uint32_t out) {
    EXPECT_EQ(operation(ANEURALNETWORKS_MUL, {a, b, none()}, {out}), ANEURALNETWORKS_NO_ERROR);
  }
  void less(uint32_t a, uint32_t b, uint32_t out) {
    EXPECT_EQ(operation(ANEURALNETWORKS_LESS, {a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  }
  int identify(std::vector<uint32_t> in, std::vector<uint32_t> out) {
    return ANeuralNetworksModel_identifyInputsAndOutputs(m_, static_cast<uint32_t>(in.size()), in.data(),
                                                         static_cast<uint32_t>(out.size()), out.data());
  }
  int finish() { return ANeuralNetworksModel_finish(m_); }
  // identify + finish, expected to succeed.
  void done(std::vector<uint32_t> in, std::vector<uint32_t> out) {
    ASSERT_EQ(identify(in, out), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(finish(), ANEURALNETWORKS_NO_ERROR);
  }

 private:
  uint32_t none() {
    if (none_ == UINT32_MAX) none_ = scalar(ANEURALNETWORKS_FUSED_NONE);
    return none_;
  }
  ANeuralNetworksModel* m_ = nullptr;
  uint32_t count_ = 0;
  uint32_t none_ = UINT32_MAX;
};

// One execution of a finished model: inputs as float or bool8 vectors, outputs as float vectors.
struct Outcome {
  int code = ANEURALNETWORKS_OP_FAILED;
  std::vector<std::vector<float>> outputs;
  std::vector<std::vector<uint32_t>> shapes;
};

struct Input {
  Input(std::initializer_list<float> values) : floats(values) {}
  static Input flag(uint8_t value) {
    Input in({});
    in.flags = {value};
    return in;
  }
  std::vector<float> floats;
  std::vector<uint8_t> flags;  // used when floats is empty
};

Outcome run(const Graph& model, const std::vector<Input>& inputs, std::vector<size_t> outputSizes,
        uint64_t loopTimeoutNs = 0) {
  Outcome r;
  ANeuralNetworksCompilation* c = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_create(model.get(), &c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Input& in = inputs[i];
    const bool flags = in.floats.empty();
    const uint32_t dims[] = {static_cast<uint32_t>(flags ? in.flags.size() : in.floats.size())};
    const ANeuralNetworksOperandType type{flags ? ANEURALNETWORKS_TENSOR_BOOL8 : ANEURALNETWORKS_TENSOR_FLOAT32, 1,
                                          dims, 0.0f, 0};
    const void* data = flags ? static_cast<const void*>(in.flags.data()) : in.floats.data();
    const size_t bytes = flags ? in.flags.size() : in.floats.size() * sizeof(float);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, static_cast<int32_t>(i), &type, data, bytes),
              ANEURALNETWORKS_NO_ERROR);
  }
  r.outputs.resize(outputSizes.size());
  for (size_t i = 0; i < outputSizes.size(); ++i) {
    r.outputs[i].assign(outputSizes[i], -1.0f);
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, static_cast<int32_t>(i), nullptr, r.outputs[i].data(),
                                                 outputSizes[i] * sizeof(float)),
              ANEURALNETWORKS_NO_ERROR);
  }
  if (loopTimeoutNs != 0) {
    EXPECT_EQ(ANeuralNetworksExecution_setLoopTimeout(e, loopTimeoutNs), ANEURALNETWORKS_NO_ERROR);
  }
  r.code = ANeuralNetworksExecution_compute(e);
  if (r.code == ANEURALNETWORKS_NO_ERROR || r.code == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) {
    for (size_t i = 0; i < outputSizes.size(); ++i) {
      // An output that was too small still tells its shape, with OUTPUT_INSUFFICIENT_SIZE.
      const int expected = r.code;
      uint32_t rank = 0;
      const int rankCode = ANeuralNetworksExecution_getOutputOperandRank(e, static_cast<int32_t>(i), &rank);
      EXPECT_TRUE(rankCode == ANEURALNETWORKS_NO_ERROR || rankCode == expected) << rankCode;
      std::vector<uint32_t> dims(rank);
      const int dimsCode =
          ANeuralNetworksExecution_getOutputOperandDimensions(e, static_cast<int32_t>(i), dims.data());
      EXPECT_EQ(dimsCode, rankCode);
      r.shapes.push_back(dims);
    }
  }
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
  return r;
}

// b = a + a and b = a * a: the branches of the IF tests.
void doubling(Graph& g, std::vector<uint32_t> dims = {2}) {
  const uint32_t a = g.floats(dims), b = g.floats(dims);
  g.add(a, a, b);
  g.done({a}, {b});
}
void squaring(Graph& g) {
  const uint32_t a = g.floats({2}), b = g.floats({2});
  g.mul(a, a, b);
  g.done({a}, {b});
}

// main: y = IF(condition, then: x + x, else: x * x), x and y of 2 floats.
void doubleOrSquare(Graph& main, Graph& then, Graph& otherwise) {
  doubling(then);
  squaring(otherwise);
  const uint32_t condition = main.flag(), x = main.floats({2}), y = main.floats({2});
  const uint32_t thenRef = main.subgraph(then), elseRef = main.subgraph(otherwise);
  ASSERT_EQ(main.operation(ANEURALNETWORKS_IF, {condition, thenRef, elseRef, x}, {y}), ANEURALNETWORKS_NO_ERROR);
  main.done({condition, x}, {y});
}

TEST(ControlFlow, IfRunsTheBranchItsConditionChooses) {
  Graph then, otherwise, main;
  doubleOrSquare(main, then, otherwise);
  if (HasFatalFailure()) return;

  // true: {3, -1.5} + itself = {6, -3}; false: squared = {9, 2.25}.
  Outcome yes = run(main, {Input::flag(1), {3.0f, -1.5f}}, {2});
  ASSERT_EQ(yes.code, ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(yes.outputs[0], (std::vector<float>{6.0f, -3.0f}));
  Outcome no = run(main, {Input::flag(0), {3.0f, -1.5f}}, {2});
  ASSERT_EQ(no.code, ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(no.outputs[0], (std::vector<float>{9.0f, 2.25f}));
  // Any non-zero byte is true.
  Outcome seven = run(main, {Input::flag(7), {0.5f, 2.0f}}, {2});
  ASSERT_EQ(seven.code, ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(seven.outputs[0], (std::vector<float>{1.0f, 4.0f}));
}

// An IF the runtime interprets has no device of its own: the preferred memory layout comes from the
// devices that run its branches (the cpu: alignment 64, padding 1), and memories described for its
// inputs and outputs are the runtime's shared memory (no driver plays the roles). As in Android's
// generated DeviceMemoryTest: x = {3, -1.5} is copied in, y copied out. Then branch: {6, -3};
// else branch: {9, 2.25}.
TEST(ControlFlow, IfWithPreferredLayoutAndDescribedMemories) {
  Graph then, otherwise, main;
  doubleOrSquare(main, then, otherwise);
  if (HasFatalFailure()) return;
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(main.get(), &c), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);

  uint32_t value = 0;
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(c, 1, &value), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(value, 64u);
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(c, 0, &value), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(value, 1u);
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(c, 0, &value), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(value, 64u);
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(c, 0, &value), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(value, 1u);

  ANeuralNetworksMemory* xMemory = nnrt::test::describedMemory(c, true, 1);
  ANeuralNetworksMemory* yMemory = nnrt::test::describedMemory(c, false, 0);
  ASSERT_NE(xMemory, nullptr);
  ASSERT_NE(yMemory, nullptr);

  // 8 bytes of shared memory, the application's side of the copies.
  nnrt::test::SharedBytes shared(8);
  ASSERT_NE(shared.data(), nullptr);
  auto* bytes = reinterpret_cast<float*>(shared.data());
  ANeuralNetworksMemory* host = shared.memory();
  bytes[0] = 3.0f;
  bytes[1] = -1.5f;
  ASSERT_EQ(ANeuralNetworksMemory_copy(host, xMemory), ANEURALNETWORKS_NO_ERROR);

  for (const uint8_t flag : {uint8_t{1}, uint8_t{0}}) {
    ANeuralNetworksExecution* e = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &flag, 1), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 1, nullptr, xMemory, 0, 0), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, yMemory, 0, 0), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR) << int{flag};
    uint32_t dims[1] = {};
    EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(dims[0], 2u);
    ANeuralNetworksExecution_free(e);
    std::memset(bytes, 0, 8);
    ASSERT_EQ(ANeuralNetworksMemory_copy(yMemory, host), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(bytes[0], flag ? 6.0f : 9.0f);
    EXPECT_EQ(bytes[1], flag ? -3.0f : 2.25f);
  }
  for (auto* memory : {xMemory, yMemory}) ANeuralNetworksMemory_free(memory);
  ANeuralNetworksCompilation_free(c);
}

// i, s, f loop-carried; n input-only. Condition: i < n. Body: i' = i + 1, s' = s + i', f' = f * i'.
// From i = 0, s = 0, f = 1 and n = 5: s = 1 + 2 + 3 + 4 + 5 = 15, f = 5! = 120, i = 5.
TEST(ControlFlow, WhileCountsToNWithAnInputOnlyOperand) {
  Graph condition, body, main;
  {
    const uint32_t i = condition.floats(), s = condition.floats(), f = condition.floats(), n = condition.floats();
    const uint32_t go = condition.flag();
    condition.less(i, n, go);
    condition.done({i, s, f, n}, {go});
  }
  {
    const uint32_t i = body.floats(), s = body.floats(), f = body.floats(), n = body.floats();
    const uint32_t one = body.constant({1.0f});
    const uint32_t i2 = body.floats(), s2 = body.floats(), f2 = body.floats(), unused = body.floats();
    body.add(i, one, i2);
    body.add(s, i2, s2);
    body.mul(f, i2, f2);
    body.add(n, one, unused);  // reads the input-only operand; the result is not an output
    // The unused temporary must still be written by an operation: it is, and nothing reads it.
    body.done({i, s, f, n}, {i2, s2, f2});
  }
  const uint32_t i = main.floats(), s = main.floats(), f = main.floats(), n = main.floats();
  const uint32_t iOut = main.floats(), sOut = main.floats(), fOut = main.floats();
  const uint32_t condRef = main.subgraph(condition), bodyRef = main.subgraph(body);
  ASSERT_EQ(main.operation(ANEURALNETWORKS_WHILE, {condRef, bodyRef, i, s, f, n}, {iOut, sOut, fOut}),
            ANEURALNETWORKS_NO_ERROR);
  main.done({i, s, f, n}, {iOut, sOut, fOut});

  Outcome r = run(main, {{0.0f}, {0.0f}, {1.0f}, {5.0f}}, {1, 1, 1});
  ASSERT_EQ(r.code, ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(r.outputs[0][0], 5.0f);
  EXPECT_EQ(r.outputs[1][0], 15.0f);
  EXPECT_EQ(r.outputs[2][0], 120.0f);
  // A condition false from the start: the outputs are the inputs.
  Outcome none = run(main, {{7.0f}, {2.0f}, {3.0f}, {5.0f}}, {1, 1, 1});
  ASSERT_EQ(none.code, ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(none.outputs[0][0], 7.0f);
  EXPECT_EQ(none.outputs[1][0], 2.0f);
  EXPECT_EQ(none.outputs[2][0], 3.0f);
}

// A WHILE whose body holds an IF. Body: i' = i + 1; s' = IF(i' < 3, s + i', s + s). From i = 0,
// s = 1, n = 4: i' = 1: s = 2; i' = 2: s = 4; i' = 3: s = 8; i' = 4: s = 16; then 4 < 4 ends it.
TEST(ControlFlow, IfNestedInAWhileBody) {
  Graph plus, twice, condition, body, main;
  {
    const uint32_t a = plus.floats(), b = plus.floats(), c = plus.floats();
    plus.add(a, b, c);
    plus.done({a, b}, {c});
    const uint32_t a2 = twice.floats(), b2 = twice.floats(), c2 = twice.floats();
    twice.add(a2, a2, c2);
    twice.done({a2, b2}, {c2});
  }
  {
    const uint32_t i = condition.floats(), s = condition.floats(), n = condition.floats(), go = condition.flag();
    condition.less(i, n, go);
    condition.done({i, s, n}, {go});
  }
  {
    const uint32_t i = body.floats(), s = body.floats(), n = body.floats();
    const uint32_t one = body.constant({1.0f}), three = body.constant({3.0f});
    const uint32_t i2 = body.floats(), small = body.flag(), s2 = body.floats();
    body.add(i, one, i2);
    body.less(i2, three, small);
    const uint32_t plusRef = body.subgraph(plus), twiceRef = body.subgraph(twice);
    ASSERT_EQ(body.operation(ANEURALNETWORKS_IF, {small, plusRef, twiceRef, s, i2}, {s2}), ANEURALNETWORKS_NO_ERROR);
    body.done({i, s, n}, {i2, s2});
  }
  const uint32_t i = main.floats(), s = main.floats(), n = main.floats(), iOut = main.floats(), sOut = main.floats();
  const uint32_t condRef = main.subgraph(condition), bodyRef = main.subgraph(body);
  ASSERT_EQ(main.operation(ANEURALNETWORKS_WHILE, {condRef, bodyRef, i, s, n}, {iOut, sOut}), ANEURALNETWORKS_NO_ERROR);
  main.done({i, s, n}, {iOut, sOut});
  // The nested models are flattened, each once: condition, body, and the body's two branches.
  EXPECT_EQ(main.get()->builder.finishedModel()->referenced.size(), 4u);

  Outcome r = run(main, {{0.0f}, {1.0f}, {4.0f}}, {1, 1});
  ASSERT_EQ(r.code, ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(r.outputs[0][0], 4.0f);
  EXPECT_EQ(r.outputs[1][0], 16.0f);
}

// The loop-carried x has an unknown length: each iteration appends 7 (CONCATENATION on axis 0).
// From x = [1] and three iterations (i = 0, 1, 2 < 3): x = [1, 7, 7, 7].
void buildGrowing(Graph& condition, Graph& body, Graph& main) {
  {
    const uint32_t x = condition.floats({0}), i = condition.floats(), n = condition.floats(), go = condition.flag();
    condition.less(i, n, go);
    condition.done({x, i, n}, {go});
  }
  {
    const uint32_t x = body.floats({0}), i = body.floats(), n = body.floats();
    const uint32_t seven = body.constant({7.0f}), one = body.constant({1.0f}), axis = body.scalar(0);
    const uint32_t x2 = body.floats({0}), i2 = body.floats();
    ASSERT_EQ(body.operation(ANEURALNETWORKS_CONCATENATION, {x, seven, axis}, {x2}), ANEURALNETWORKS_NO_ERROR);
    body.add(i, one, i2);
    body.done({x, i, n}, {x2, i2});
  }
  const uint32_t x = main.floats({1}), i = main.floats(), n = main.floats(), xOut = main.floats({0}),
                 iOut = main.floats();
  const uint32_t condRef = main.subgraph(condition), bodyRef = main.subgraph(body);
  ASSERT_EQ(main.operation(ANEURALNETWORKS_WHILE, {condRef, bodyRef, x, i, n}, {xOut, iOut}), ANEURALNETWORKS_NO_ERROR);
  main.done({x, i, n}, {xOut, iOut});
}

TEST(ControlFlow, WhileBodyGrowsATensorEachIteration) {
  Graph condition, body, main;
  buildGrowing(condition, body, main);
  Outcome r = run(main, {{1.0f}, {0.0f}, {3.0f}}, {4, 1});
  ASSERT_EQ(r.code, ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(r.outputs[0], (std::vector<float>{1.0f, 7.0f, 7.0f, 7.0f}));
  EXPECT_EQ(r.shapes[0], (std::vector<uint32_t>{4}));
  EXPECT_EQ(r.outputs[1][0], 3.0f);
  // Too small a buffer for the final value: OUTPUT_INSUFFICIENT_SIZE with the shape it needs.
  Outcome small = run(main, {{1.0f}, {0.0f}, {3.0f}}, {2, 1});
  EXPECT_EQ(small.code, ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
  ASSERT_EQ(small.shapes.size(), 2u);
  EXPECT_EQ(small.shapes[0], (std::vector<uint32_t>{4}));
}

// i < n with n huge never ends; a 20 ms loop timeout stops it (Android: MISSED_DEADLINE_TRANSIENT).
TEST(ControlFlow, WhilePastItsLoopTimeoutMissesTheDeadline) {
  Graph condition, body, main;
  {
    const uint32_t i = condition.floats(), n = condition.floats(), go = condition.flag();
    condition.less(i, n, go);
    condition.done({i, n}, {go});
  }
  {
    const uint32_t i = body.floats(), n = body.floats(), one = body.constant({1.0f}), i2 = body.floats();
    body.add(i, one, i2);
    body.done({i, n}, {i2});
  }
  const uint32_t i = main.floats(), n = main.floats(), iOut = main.floats();
  const uint32_t condRef = main.subgraph(condition), bodyRef = main.subgraph(body);
  ASSERT_EQ(main.operation(ANEURALNETWORKS_WHILE, {condRef, bodyRef, i, n}, {iOut}), ANEURALNETWORKS_NO_ERROR);
  main.done({i, n}, {iOut});
  Outcome r = run(main, {{0.0f}, {1e30f}}, {1}, 20'000'000);
  EXPECT_EQ(r.code, ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT);
  // A short loop finishes well within the same timeout: 0 -> 3.
  Outcome shortLoop = run(main, {{0.0f}, {3.0f}}, {1}, 20'000'000);
  ASSERT_EQ(shortLoop.code, ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(shortLoop.outputs[0][0], 3.0f);
}

// ---- Refusals -----------------------------------------------------------------------------------

// An IF over `condition` and x (TENSOR_FLOAT32 [2]) -> y ([2]) with the given branches.
int addIf(Graph& main, const Graph& then, const Graph& otherwise, std::vector<uint32_t> conditionDims = {1},
          std::vector<uint32_t> outDims = {2}) {
  const uint32_t condition = main.flag(conditionDims), x = main.floats({2}), y = main.floats(outDims);
  const uint32_t thenRef = main.subgraph(then), elseRef = main.subgraph(otherwise);
  return main.operation(ANEURALNETWORKS_IF, {condition, thenRef, elseRef, x}, {y});
}

TEST(ControlFlowValidation, SubgraphValuesAndTheirStates) {
  Graph finished, unfinished, main;
  doubling(finished);
  const uint32_t ref = main.operand(ANEURALNETWORKS_MODEL, {});
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(main.get(), ref, unfinished.get()), ANEURALNETWORKS_BAD_STATE);
  // A model cannot refer to itself: it is not finished while it is built (so no cycle can form).
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(main.get(), ref, main.get()), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(main.get(), 99, finished.get()), ANEURALNETWORKS_BAD_DATA);
  const float bytes = 1.0f;
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(main.get(), ref, &bytes, sizeof bytes), ANEURALNETWORKS_BAD_DATA);
  // The same model referenced twice is kept once.
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(main.get(), ref, finished.get()), ANEURALNETWORKS_NO_ERROR);
  const uint32_t condition = main.flag(), x = main.floats({2}), y = main.floats({2});
  const uint32_t again = main.subgraph(finished);
  ASSERT_EQ(main.operation(ANEURALNETWORKS_IF, {condition, ref, again, x}, {y}), ANEURALNETWORKS_NO_ERROR);
  main.done({condition, x}, {y});
  EXPECT_EQ(main.get()->builder.finishedModel()->referenced.size(), 1u);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(main.get(), ref, finished.get()), ANEURALNETWORKS_BAD_STATE);
}

TEST(ControlFlowValidation, SubgraphOperandWithoutAModelOrAModelOnAnotherOperand) {
  Graph branch;
  doubling(branch);
  {
    Graph main;  // the else reference has no value
    const uint32_t condition = main.flag(), x = main.floats({2}), y = main.floats({2});
    const uint32_t thenRef = main.subgraph(branch), elseRef = main.operand(ANEURALNETWORKS_MODEL, {});
    ASSERT_EQ(main.operation(ANEURALNETWORKS_IF, {condition, thenRef, elseRef, x}, {y}), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(main.identify({condition, x}, {y}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(main.finish(), ANEURALNETWORKS_BAD_DATA);
  }
  {
    Graph main;  // as Android: accepted when set, refused at finish
    const uint32_t a = main.floats({2}), b = main.floats({2}), stray = main.floats({2});
    main.add(a, a, b);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(main.get(), stray, branch.get()), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(main.identify({a}, {b}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(main.finish(), ANEURALNETWORKS_BAD_DATA);
  }
}

TEST(ControlFlowValidation, IfBranchesMustMatchTheOperation) {
  Graph good, twoInputs, intInput, wideOutput;
  doubling(good);
  {
    const uint32_t a = twoInputs.floats({2}), b = twoInputs.floats({2}), c = twoInputs.floats({2});
    twoInputs.add(a, b, c);
    twoInputs.done({a, b}, {c});
  }
  {
    const uint32_t a = intInput.operand(ANEURALNETWORKS_TENSOR_INT32, {2}), b = intInput.operand(ANEURALNETWORKS_TENSOR_INT32, {2});
    ASSERT_EQ(intInput.operation(ANEURALNETWORKS_ADD, {a, a, intInput.scalar(0)}, {b}), ANEURALNETWORKS_NO_ERROR);
    intInput.done({a}, {b});
  }
  doubling(wideOutput, {0});  // unknown length: compatible with [2]
  {
    Graph main;
    EXPECT_EQ(addIf(main, good, good), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(addIf(main, good, wideOutput), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(addIf(main, good, twoInputs), ANEURALNETWORKS_BAD_DATA);  // input count
    EXPECT_EQ(addIf(main, intInput, good), ANEURALNETWORKS_BAD_DATA);   // input type
    EXPECT_EQ(addIf(main, good, good, {2}), ANEURALNETWORKS_BAD_DATA);  // condition not [1]
    EXPECT_EQ(addIf(main, good, good, {1}, {3}), ANEURALNETWORKS_BAD_DATA);  // output dimensions
  }
  {
    Graph main;  // an output count that differs from the branch's
    const uint32_t condition = main.flag(), x = main.floats({2}), y = main.floats({2}), z = main.floats({2});
    const uint32_t ref = main.subgraph(good);
    EXPECT_EQ(main.operation(ANEURALNETWORKS_IF, {condition, ref, ref, x}, {y, z}), ANEURALNETWORKS_BAD_DATA);
    // A data operand that is itself a subgraph reference.
    EXPECT_EQ(main.operation(ANEURALNETWORKS_IF, {condition, ref, ref, ref}, {y}), ANEURALNETWORKS_BAD_DATA);
    // A condition of another type.
    EXPECT_EQ(main.operation(ANEURALNETWORKS_IF, {x, ref, ref, x}, {y}), ANEURALNETWORKS_BAD_DATA);
  }
}

// A WHILE over i ([1]) -> iOut with the given condition and body.
int addWhile(Graph& main, const Graph& condition, const Graph& body) {
  const uint32_t i = main.floats(), iOut = main.floats();
  const uint32_t condRef = main.subgraph(condition), bodyRef = main.subgraph(body);
  return main.operation(ANEURALNETWORKS_WHILE, {condRef, bodyRef, i}, {iOut});
}

TEST(ControlFlowValidation, WhileConditionAndBodyMustMatch) {
  Graph condition, floatCondition, twoOutputs, wideCondition, body, intBody, noOutput, twoInputBody;
  {
    const uint32_t i = condition.floats(), go = condition.flag();
    condition.less(i, i, go);
    condition.done({i}, {go});
  }
  {
    const uint32_t i = floatCondition.floats(), o = floatCondition.floats();
    floatCondition.add(i, i, o);
    floatCondition.done({i}, {o});
  }
  {
    const uint32_t i = twoOutputs.floats(), go = twoOutputs.flag(), go2 = twoOutputs.flag();
    twoOutputs.less(i, i, go);
    twoOutputs.less(i, i, go2);
    twoOutputs.done({i}, {go, go2});
  }
  {
    const uint32_t i = wideCondition.floats({2}), go = wideCondition.flag({2});
    wideCondition.less(i, i, go);
    wideCondition.done({i}, {go});
  }
  {
    const uint32_t i = body.floats(), o = body.floats();
    body.add(i, i, o);
    body.done({i}, {o});
  }
  {
    // Fed back, the int output does not match the float input.
    const uint32_t i = intBody.floats(), o = intBody.operand(ANEURALNETWORKS_TENSOR_INT32, {1});
    ASSERT_EQ(intBody.operation(ANEURALNETWORKS_CAST, {i}, {o}), ANEURALNETWORKS_NO_ERROR);
    intBody.done({i}, {o});
  }
  {
    const uint32_t i = twoInputBody.floats(), j = twoInputBody.floats(), o = twoInputBody.floats();
    twoInputBody.add(i, j, o);
    twoInputBody.done({i, j}, {o});
  }
  Graph main;
  EXPECT_EQ(addWhile(main, condition, body), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(addWhile(main, floatCondition, body), ANEURALNETWORKS_BAD_DATA);  // condition not BOOL8
  EXPECT_EQ(addWhile(main, twoOutputs, body), ANEURALNETWORKS_BAD_DATA);      // two condition outputs
  EXPECT_EQ(addWhile(main, wideCondition, body), ANEURALNETWORKS_BAD_DATA);   // condition input [2] vs [1]
  EXPECT_EQ(addWhile(main, condition, intBody), ANEURALNETWORKS_BAD_DATA);    // body output type
  EXPECT_EQ(addWhile(main, condition, twoInputBody), ANEURALNETWORKS_BAD_DATA);  // body input count
  {
    // The body has fewer outputs (1) than the WHILE (2).
    const uint32_t i = main.floats(), j = main.floats(), iOut = main.floats(), jOut = main.floats();
    const uint32_t condRef = main.subgraph(twoInputBody), bodyRef = main.subgraph(twoInputBody);
    EXPECT_EQ(main.operation(ANEURALNETWORKS_WHILE, {condRef, bodyRef, i, j}, {iOut, jOut}), ANEURALNETWORKS_BAD_DATA);
  }
  {
    // Fewer than 3 inputs.
    const uint32_t condRef = main.subgraph(condition), bodyRef = main.subgraph(body), out = main.floats();
    EXPECT_EQ(main.operation(ANEURALNETWORKS_WHILE, {condRef, bodyRef}, {out}), ANEURALNETWORKS_BAD_DATA);
  }
}

}  // namespace
