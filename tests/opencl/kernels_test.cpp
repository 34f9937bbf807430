// Every kernel of the opencl driver against the CPU kernel library (plugins/cpu/kernels) on random
// inputs, through the real plugin file. Shapes include sizes that do not divide the GEMM tiles (64, 16)
// or the work-group size (64). Each test runs in four precisions:
//   float32          TENSOR_FLOAT32 model, float32 program (tolerance 1e-4 relative, 1e-4 absolute);
//   relaxed_storage  relaxed TENSOR_FLOAT32 model with option fp16=storage: half storage, float math;
//   float16_model    TENSOR_FLOAT16 model (half storage; half math where the device has cl_khr_fp16);
//   relaxed_fp16     relaxed model with fp16=auto: half storage and math, only with cl_khr_fp16
//                    (skipped with a message elsewhere, e.g. PoCL on a CPU);
// the half variants within 1e-2 of a reference fed the same half-rounded inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "opencl/opencl_test_env.hpp"
#include "plugins/cpu/kernels/activation.hpp"
#include "plugins/cpu/kernels/conv.hpp"
#include "plugins/cpu/kernels/elementwise.hpp"
#include "plugins/cpu/kernels/fully_connected.hpp"
#include "plugins/cpu/kernels/pool.hpp"
#include "plugins/cpu/kernels/softmax.hpp"
#include "plugins/cpu/kernels/tensor_shape.hpp"
#include "support/tensor_data.hpp"

namespace nnrt::opencl::test {
namespace {

struct Variant {
  const char* name;
  Options options;
  OperandType type;
  bool relaxed;
  float tolerance;
  bool needsFp16;
};

const Variant kVariants[] = {
    {"float32", {{"calibrate", "false"}}, OperandType::TENSOR_FLOAT32, false, kFloat32Tolerance, false},
    {"relaxed_storage",
     {{"calibrate", "false"}, {"fp16", "storage"}},
     OperandType::TENSOR_FLOAT32,
     true,
     kFloat16Tolerance,
     false},
    {"float16_model", {{"calibrate", "false"}}, OperandType::TENSOR_FLOAT16, false, kFloat16Tolerance, false},
    {"relaxed_fp16", {{"calibrate", "false"}}, OperandType::TENSOR_FLOAT32, true, kFloat16Tolerance, true},
};

constexpr int32_t kSame = 1, kValid = 2;

cpu::Shape shape(const std::vector<uint32_t>& dims) {
  return cpu::Shape{dims};
}

class KernelTest : public ::testing::TestWithParam<Variant> {
 protected:
  void SetUp() override {
    p_ = &plugin(GetParam().options);
    NNRT_REQUIRE_OPENCL(*p_);
    if (GetParam().needsFp16 && !p_->deviceFp16) {
      GTEST_SKIP() << "'" << p_->device->driverDeviceName()
                   << "' has no cl_khr_fp16: relaxed models run in float32 "
                   << "there, which the float32 variant covers";
    }
  }
  const Variant& v() const { return GetParam(); }
  bool half() const { return v().tolerance > kFloat32Tolerance; }

  TestModel model() const {
    TestModel m;
    m.setRelaxed(v().relaxed);
    return m;
  }
  uint32_t input(TestModel& m, std::vector<uint32_t> dims) const {
    return m.addInput(v().type, std::move(dims));
  }
  uint32_t output(TestModel& m, std::vector<uint32_t> dims) const {
    return m.addOutput(v().type, std::move(dims));
  }
  uint32_t temporary(TestModel& m, std::vector<uint32_t> dims) const {
    return m.addOperand(v().type, std::move(dims));
  }
  uint32_t constant(TestModel& m, std::vector<uint32_t> dims, const std::vector<float>& values) const {
    if (v().type == OperandType::TENSOR_FLOAT16) {
      std::vector<uint16_t> h;
      for (float x : values)
        h.push_back(nnrt::test::floatToHalf(x));
      return m.addConstant(v().type, std::move(dims), h);
    }
    return m.addConstant(v().type, std::move(dims), values);
  }
  uint32_t scalar(TestModel& m, float value) const {
    return v().type == OperandType::TENSOR_FLOAT16 ? m.addFloat16(value) : m.addFloat32(value);
  }
  // Random values, rounded to half precision for the half variants so the reference sees what the
  // device sees.
  std::vector<float> data(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) const {
    std::vector<float> x = randomFloats(n, lo, hi, seed);
    if (half()) {
      for (float& f : x)
        f = nnrt::test::halfToFloat(nnrt::test::floatToHalf(f));
    }
    return x;
  }
  void check(TestModel& m, const std::vector<std::vector<float>>& inputs, const std::vector<float>& expected,
             const std::string& what) {
    auto outputs = run(*p_, m, inputs);
    ASSERT_EQ(outputs.size(), 1u) << what;
    expectClose(outputs[0], expected, v().tolerance, what + " [" + v().name + "]");
  }

  const Plugin* p_ = nullptr;
};

// ---- ADD, SUB, MUL, DIV -----------------------------------------------------------------------

std::vector<uint32_t> broadcast(std::vector<uint32_t> a, std::vector<uint32_t> b) {
  if (a.size() < b.size()) std::swap(a, b);
  std::vector<uint32_t> out = a;
  for (size_t i = 0; i < b.size(); ++i) {
    uint32_t& o = out[a.size() - b.size() + i];
    o = std::max(o, b[i]);
  }
  return out;
}

TEST_P(KernelTest, BinaryBroadcastAndActivation) {
  struct Case {
    OperationType op;
    std::vector<uint32_t> a, b;
    int32_t act;
  };
  const Case cases[] = {
      {OperationType::ADD, {2, 3, 5, 7}, {2, 3, 5, 7}, 0},
      {OperationType::ADD, {65}, {1}, 1},
      {OperationType::SUB, {3, 1, 5}, {4, 1}, 1},
      {OperationType::MUL, {1}, {2, 3}, 2},
      {OperationType::MUL, {2, 1, 4, 3}, {1, 5, 1, 3}, 0},
      {OperationType::DIV, {2, 1, 4, 3}, {1, 5, 1, 3}, 3},
      {OperationType::DIV, {7, 9}, {7, 9}, 0},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    const auto outDims = broadcast(c.a, c.b);
    TestModel m = model();
    const uint32_t a = input(m, c.a), b = input(m, c.b), out = output(m, outDims);
    m.addOperation(c.op, {a, b, m.addInt32(c.act)}, {out});
    const auto x = data(elementCount(c.a), seed++, -4, 4);
    auto y = data(elementCount(c.b), seed++, 0.5f, 2.0f);
    for (size_t i = 0; i < y.size(); i += 2)
      y[i] = -y[i];  // away from zero, for DIV
    std::vector<float> expected(elementCount(outDims));
    const auto act = static_cast<cpu::Activation>(c.act);
    using Binary = void (*)(const float*, const cpu::Shape&, const float*, const cpu::Shape&, cpu::Activation,
                            float*, const cpu::Shape&);
    const Binary fn = c.op == OperationType::ADD   ? Binary(&cpu::add)
                      : c.op == OperationType::SUB ? Binary(&cpu::sub)
                      : c.op == OperationType::MUL ? Binary(&cpu::mul)
                                                   : Binary(&cpu::div);
    fn(x.data(), shape(c.a), y.data(), shape(c.b), act, expected.data(), shape(outDims));
    check(m, {x, y}, expected, std::string(driver::operationTypeName(c.op)) + " " + std::to_string(seed));
  }
}

// ---- Activations ------------------------------------------------------------------------------

TEST_P(KernelTest, Activations) {
  const std::vector<uint32_t> dims{3, 17, 5};
  const auto x = data(elementCount(dims), 7, -8, 8);
  for (OperationType op : {OperationType::RELU, OperationType::RELU1, OperationType::RELU6,
                           OperationType::LOGISTIC, OperationType::TANH}) {
    TestModel m = model();
    const uint32_t in = input(m, dims), out = output(m, dims);
    m.addOperation(op, {in}, {out});
    std::vector<float> expected(x.size());
    switch (op) {
      case OperationType::RELU:
        cpu::relu(x.data(), x.size(), expected.data());
        break;
      case OperationType::RELU1:
        cpu::relu1(x.data(), x.size(), expected.data());
        break;
      case OperationType::RELU6:
        cpu::relu6(x.data(), x.size(), expected.data());
        break;
      case OperationType::LOGISTIC:
        cpu::logistic(x.data(), x.size(), expected.data());
        break;
      default:
        cpu::tanh(x.data(), x.size(), expected.data());
        break;
    }
    check(m, {x}, expected, driver::operationTypeName(op));
  }
}

// ---- FULLY_CONNECTED --------------------------------------------------------------------------

TEST_P(KernelTest, FullyConnectedTiles) {
  struct Case {
    std::vector<uint32_t> inDims;
    uint32_t inputSize, units;
    int32_t act;
  };
  const Case cases[] = {
      {{1, 7}, 7, 5, 0},      {{3, 33}, 33, 65, 1}, {{16, 100}, 100, 70, 3},
      {{17, 64}, 64, 129, 0}, {{70, 19}, 19, 3, 2}, {{2, 3, 2, 5}, 10, 17, 0},
  };
  uint32_t seed = 100;
  for (const Case& c : cases) {
    const uint32_t batch = static_cast<uint32_t>(elementCount(c.inDims) / c.inputSize);
    TestModel m = model();
    const auto w = data(size_t{c.units} * c.inputSize, seed++);
    const auto bias = data(c.units, seed++);
    const uint32_t in = input(m, c.inDims), out = output(m, {batch, c.units});
    m.addOperation(
        OperationType::FULLY_CONNECTED,
        {in, constant(m, {c.units, c.inputSize}, w), constant(m, {c.units}, bias), m.addInt32(c.act)}, {out});
    const auto x = data(elementCount(c.inDims), seed++);
    std::vector<float> expected(size_t{batch} * c.units);
    cpu::fullyConnected(x.data(), w.data(), bias.data(), batch, c.inputSize, c.units,
                        static_cast<cpu::Activation>(c.act), expected.data());
    check(m, {x}, expected,
          "FULLY_CONNECTED " + std::to_string(batch) + "x" + std::to_string(c.inputSize) + "x" +
              std::to_string(c.units));
  }
}

// ---- CONV_2D and DEPTHWISE_CONV_2D --------------------------------------------------------------

struct Window {
  uint32_t kernelH, kernelW, strideH, strideW, dilationH = 1, dilationW = 1;
  int32_t padding = 0;  // kSame / kValid; 0: explicit pads below
  uint32_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
};

// Explicit pads and the output size along one axis, as NNAPI defines SAME and VALID.
void resolve(uint32_t in, uint32_t k, uint32_t stride, uint32_t dilation, int32_t padding, uint32_t& before,
             uint32_t& after, uint32_t& out) {
  const uint32_t extent = (k - 1) * dilation + 1;
  if (padding == kSame) {
    out = (in + stride - 1) / stride;
    const int64_t total = std::max<int64_t>(int64_t(out - 1) * stride + extent - in, 0);
    before = static_cast<uint32_t>(total / 2);
    after = static_cast<uint32_t>(total - total / 2);
  } else {
    if (padding == kValid) before = after = 0;
    out = (in + before + after - extent) / stride + 1;
  }
}

cpu::Conv2DParams resolveConv(Window& w, uint32_t inH, uint32_t inW, int32_t act, uint32_t& outH,
                              uint32_t& outW) {
  resolve(inH, w.kernelH, w.strideH, w.dilationH, w.padding, w.padTop, w.padBottom, outH);
  resolve(inW, w.kernelW, w.strideW, w.dilationW, w.padding, w.padLeft, w.padRight, outW);
  cpu::Conv2DParams p;
  p.padLeft = w.padLeft;
  p.padRight = w.padRight;
  p.padTop = w.padTop;
  p.padBottom = w.padBottom;
  p.strideW = w.strideW;
  p.strideH = w.strideH;
  p.dilationW = w.dilationW;
  p.dilationH = w.dilationH;
  p.act = static_cast<cpu::Activation>(act);
  return p;
}

TEST_P(KernelTest, Conv2DImplicitGemm) {
  struct Case {
    uint32_t n, h, w, cin, cout;
    Window window;
    int32_t act;
  };
  const Case cases[] = {
      {1, 7, 9, 3, 5, {3, 3, 1, 1, 1, 1, kSame}, 0},
      {2, 10, 11, 4, 70, {3, 2, 2, 2, 1, 1, kValid}, 1},
      {1, 5, 6, 16, 33, {1, 1, 1, 1, 1, 1, kValid}, 3},  // pointwise: the plain GEMM
      {1, 17, 17, 8, 67, {3, 3, 1, 1, 2, 1, 0, 1, 2, 0, 1}, 2},
  };
  uint32_t seed = 200;
  for (Case c : cases) {
    uint32_t outH = 0, outW = 0;
    const cpu::Conv2DParams params = resolveConv(c.window, c.h, c.w, c.act, outH, outW);
    const Window& w = c.window;
    const std::vector<uint32_t> inDims{c.n, c.h, c.w, c.cin}, filterDims{c.cout, w.kernelH, w.kernelW, c.cin},
        outDims{c.n, outH, outW, c.cout};
    const auto filter = data(elementCount(filterDims), seed++);
    const auto bias = data(c.cout, seed++);
    const auto x = data(elementCount(inDims), seed++);
    TestModel m = model();
    const uint32_t in = input(m, inDims);
    const uint32_t f = constant(m, filterDims, filter), b = constant(m, {c.cout}, bias);
    const uint32_t out = output(m, outDims);
    if (w.padding != 0) {
      m.addOperation(
          OperationType::CONV_2D,
          {in, f, b, m.addInt32(w.padding), m.addInt32(w.strideW), m.addInt32(w.strideH), m.addInt32(c.act)},
          {out});
    } else {  // explicit pads, NHWC layout and dilation given
      m.addOperation(OperationType::CONV_2D,
                     {in, f, b, m.addInt32(w.padLeft), m.addInt32(w.padRight), m.addInt32(w.padTop),
                      m.addInt32(w.padBottom), m.addInt32(w.strideW), m.addInt32(w.strideH),
                      m.addInt32(c.act), m.addBool(false), m.addInt32(w.dilationW), m.addInt32(w.dilationH)},
                     {out});
    }
    std::vector<float> expected(elementCount(outDims));
    cpu::conv2d(x.data(), shape(inDims), filter.data(), shape(filterDims), bias.data(), params,
                expected.data(), shape(outDims));
    check(m, {x}, expected, "CONV_2D case " + std::to_string(seed));
  }
}

TEST_P(KernelTest, DepthwiseConv2D) {
  struct Case {
    uint32_t n, h, w, cin, multiplier;
    Window window;
    int32_t act;
  };
  const Case cases[] = {
      {1, 9, 8, 3, 2, {3, 3, 2, 2, 1, 1, kSame}, 1},
      {2, 6, 7, 4, 1, {2, 3, 1, 1, 2, 1, 0, 1, 1, 1, 0}, 0},
  };
  uint32_t seed = 300;
  for (Case c : cases) {
    uint32_t outH = 0, outW = 0;
    const cpu::Conv2DParams params = resolveConv(c.window, c.h, c.w, c.act, outH, outW);
    const Window& w = c.window;
    const uint32_t cout = c.cin * c.multiplier;
    const std::vector<uint32_t> inDims{c.n, c.h, c.w, c.cin}, filterDims{1, w.kernelH, w.kernelW, cout},
        outDims{c.n, outH, outW, cout};
    const auto filter = data(elementCount(filterDims), seed++);
    const auto bias = data(cout, seed++);
    const auto x = data(elementCount(inDims), seed++);
    TestModel m = model();
    const uint32_t in = input(m, inDims);
    const uint32_t f = constant(m, filterDims, filter), b = constant(m, {cout}, bias);
    const uint32_t out = output(m, outDims);
    if (w.padding != 0) {
      m.addOperation(OperationType::DEPTHWISE_CONV_2D,
                     {in, f, b, m.addInt32(w.padding), m.addInt32(w.strideW), m.addInt32(w.strideH),
                      m.addInt32(c.multiplier), m.addInt32(c.act)},
                     {out});
    } else {
      m.addOperation(
          OperationType::DEPTHWISE_CONV_2D,
          {in, f, b, m.addInt32(w.padLeft), m.addInt32(w.padRight), m.addInt32(w.padTop),
           m.addInt32(w.padBottom), m.addInt32(w.strideW), m.addInt32(w.strideH), m.addInt32(c.multiplier),
           m.addInt32(c.act), m.addBool(false), m.addInt32(w.dilationW), m.addInt32(w.dilationH)},
          {out});
    }
    std::vector<float> expected(elementCount(outDims));
    cpu::depthwiseConv2d(x.data(), shape(inDims), filter.data(), shape(filterDims), bias.data(), params,
                         expected.data(), shape(outDims));
    check(m, {x}, expected, "DEPTHWISE_CONV_2D case " + std::to_string(seed));
  }
}

// ---- Pools ------------------------------------------------------------------------------------

TEST_P(KernelTest, Pools) {
  struct Case {
    uint32_t n, h, w, c;
    Window window;  // kernel = the pool's filter
    int32_t act;
  };
  const Case cases[] = {
      {2, 9, 10, 5, {3, 3, 2, 2, 1, 1, kSame}, 0},
      {1, 7, 7, 3, {2, 2, 2, 2, 1, 1, kValid}, 3},
      {1, 6, 5, 4, {3, 2, 1, 2, 1, 1, 0, 1, 1, 2, 0}, 1},
  };
  for (OperationType op : {OperationType::AVERAGE_POOL_2D, OperationType::MAX_POOL_2D}) {
    uint32_t seed = 400;
    for (Case c : cases) {
      uint32_t outH = 0, outW = 0;
      const cpu::Conv2DParams conv = resolveConv(c.window, c.h, c.w, c.act, outH, outW);
      const Window& w = c.window;
      cpu::Pool2DParams params;
      params.padLeft = conv.padLeft;
      params.padRight = conv.padRight;
      params.padTop = conv.padTop;
      params.padBottom = conv.padBottom;
      params.strideW = w.strideW;
      params.strideH = w.strideH;
      params.filterW = w.kernelW;
      params.filterH = w.kernelH;
      params.act = conv.act;
      const std::vector<uint32_t> inDims{c.n, c.h, c.w, c.c}, outDims{c.n, outH, outW, c.c};
      const auto x = data(elementCount(inDims), seed++, -3, 3);
      TestModel m = model();
      const uint32_t in = input(m, inDims), out = output(m, outDims);
      if (w.padding != 0) {
        m.addOperation(op,
                       {in, m.addInt32(w.padding), m.addInt32(w.strideW), m.addInt32(w.strideH),
                        m.addInt32(w.kernelW), m.addInt32(w.kernelH), m.addInt32(c.act)},
                       {out});
      } else {
        m.addOperation(op,
                       {in, m.addInt32(w.padLeft), m.addInt32(w.padRight), m.addInt32(w.padTop),
                        m.addInt32(w.padBottom), m.addInt32(w.strideW), m.addInt32(w.strideH),
                        m.addInt32(w.kernelW), m.addInt32(w.kernelH), m.addInt32(c.act)},
                       {out});
      }
      std::vector<float> expected(elementCount(outDims));
      if (op == OperationType::AVERAGE_POOL_2D) {
        cpu::averagePool2d(x.data(), shape(inDims), params, expected.data(), shape(outDims));
      } else {
        cpu::maxPool2d(x.data(), shape(inDims), params, expected.data(), shape(outDims));
      }
      check(m, {x}, expected, std::string(driver::operationTypeName(op)) + " case " + std::to_string(seed));
    }
  }
}

// ---- SOFTMAX ----------------------------------------------------------------------------------

TEST_P(KernelTest, Softmax) {
  struct Case {
    std::vector<uint32_t> dims;
    float beta;
    int32_t axis;  // 99: omitted (the last)
  };
  const Case cases[] = {{{4, 10}, 1.0f, 99}, {{2, 3, 70}, 0.5f, 1}, {{5, 300}, 2.0f, -1}, {{3, 1}, 1.0f, 99}};
  uint32_t seed = 500;
  for (const Case& c : cases) {
    TestModel m = model();
    const uint32_t in = input(m, c.dims), out = output(m, c.dims);
    std::vector<uint32_t> inputs{in, scalar(m, c.beta)};
    if (c.axis != 99) inputs.push_back(m.addInt32(c.axis));
    m.addOperation(OperationType::SOFTMAX, inputs, {out});
    const auto x = data(elementCount(c.dims), seed++, -5, 5);
    const uint32_t rank = static_cast<uint32_t>(c.dims.size());
    const uint32_t axis =
        c.axis == 99 ? rank - 1 : static_cast<uint32_t>((c.axis + static_cast<int32_t>(rank)) % rank);
    std::vector<float> expected(x.size());
    cpu::softmax(x.data(), shape(c.dims), c.beta, axis, expected.data());
    check(m, {x}, expected, "SOFTMAX case " + std::to_string(seed));
  }
}

// ---- RESHAPE and CONCATENATION ----------------------------------------------------------------

TEST_P(KernelTest, ReshapeFeedsADeviceTemporary) {
  TestModel m = model();
  const uint32_t in = input(m, {2, 3, 4});
  const uint32_t reshaped = temporary(m, {0, 0});  // inferred: [6, 4]
  const auto bias = data(4, 600);
  const uint32_t out = output(m, {6, 4});
  m.addOperation(OperationType::RESHAPE, {in, m.addInt32Tensor({6, -1})}, {reshaped});
  m.addOperation(OperationType::ADD, {reshaped, constant(m, {4}, bias), m.addInt32(0)}, {out});
  const auto x = data(24, 601);
  std::vector<float> expected(24);
  cpu::add(x.data(), shape({6, 4}), bias.data(), shape({4}), cpu::Activation::None, expected.data(),
           shape({6, 4}));
  check(m, {x}, expected, "RESHAPE + ADD");
}

TEST_P(KernelTest, Concatenation) {
  struct Case {
    std::vector<std::vector<uint32_t>> inputs;
    int32_t axis;
  };
  const Case cases[] = {
      {{{2, 3, 4}, {2, 1, 4}, {2, 5, 4}}, 1},
      {{{1, 3}, {4, 3}}, 0},
      {{{2, 2, 3}, {2, 2, 1}, {2, 2, 70}}, -1},
  };
  uint32_t seed = 700;
  for (const Case& c : cases) {
    const uint32_t rank = static_cast<uint32_t>(c.inputs[0].size());
    const uint32_t axis = static_cast<uint32_t>((c.axis + static_cast<int32_t>(rank)) % rank);
    std::vector<uint32_t> outDims = c.inputs[0];
    outDims[axis] = 0;
    TestModel m = model();
    std::vector<uint32_t> operands;
    std::vector<std::vector<float>> values;
    std::vector<const void*> pointers;
    std::vector<cpu::Shape> shapes;
    for (const auto& dims : c.inputs) {
      outDims[axis] += dims[axis];
      operands.push_back(input(m, dims));
      values.push_back(data(elementCount(dims), seed++));
      shapes.push_back(shape(dims));
    }
    for (const auto& v : values)
      pointers.push_back(v.data());
    operands.push_back(m.addInt32(c.axis));
    m.addOperation(OperationType::CONCATENATION, operands, {output(m, outDims)});
    std::vector<float> expected(elementCount(outDims));
    cpu::concatenation(pointers, shapes, axis, sizeof(float), expected.data());
    check(m, values, expected, "CONCATENATION axis " + std::to_string(c.axis));
  }
}

// ---- A small network: temporaries stay on the device between kernels ---------------------------

TEST_P(KernelTest, ConvReluPoolReshapeFullyConnectedSoftmax) {
  const std::vector<uint32_t> inDims{1, 8, 8, 3}, filterDims{6, 3, 3, 3};
  const auto filter = data(elementCount(filterDims), 800), convBias = data(6, 801);
  const auto weights = data(10 * 96, 802), fcBias = data(10, 803);
  const auto x = data(elementCount(inDims), 804);
  TestModel m = model();
  const uint32_t in = input(m, inDims);
  const uint32_t conv = temporary(m, {1, 8, 8, 6}), pooled = temporary(m, {1, 4, 4, 6}),
                 flat = temporary(m, {1, 96}), logits = temporary(m, {1, 10}), out = output(m, {1, 10});
  m.addOperation(OperationType::CONV_2D,
                 {in, constant(m, filterDims, filter), constant(m, {6}, convBias), m.addInt32(kSame),
                  m.addInt32(1), m.addInt32(1), m.addInt32(1)},
                 {conv});
  m.addOperation(
      OperationType::MAX_POOL_2D,
      {conv, m.addInt32(kValid), m.addInt32(2), m.addInt32(2), m.addInt32(2), m.addInt32(2), m.addInt32(0)},
      {pooled});
  m.addOperation(OperationType::RESHAPE, {pooled, m.addInt32Tensor({1, 96})}, {flat});
  m.addOperation(OperationType::FULLY_CONNECTED,
                 {flat, constant(m, {10, 96}, weights), constant(m, {10}, fcBias), m.addInt32(0)}, {logits});
  m.addOperation(OperationType::SOFTMAX, {logits, scalar(m, 1.0f)}, {out});

  cpu::Conv2DParams cp;
  cp.padLeft = cp.padRight = cp.padTop = cp.padBottom = 1;
  cp.act = cpu::Activation::Relu;
  std::vector<float> a(384), b(96), c(10), expected(10);
  cpu::conv2d(x.data(), shape(inDims), filter.data(), shape(filterDims), convBias.data(), cp, a.data(),
              shape({1, 8, 8, 6}));
  cpu::Pool2DParams pp;
  pp.strideW = pp.strideH = pp.filterW = pp.filterH = 2;
  cpu::maxPool2d(a.data(), shape({1, 8, 8, 6}), pp, b.data(), shape({1, 4, 4, 6}));
  cpu::fullyConnected(b.data(), weights.data(), fcBias.data(), 1, 96, 10, cpu::Activation::None, c.data());
  cpu::softmax(c.data(), shape({1, 10}), 1.0f, 1, expected.data());
  check(m, {x}, expected, "network");
}

INSTANTIATE_TEST_SUITE_P(Precisions, KernelTest, ::testing::ValuesIn(kVariants),
                         [](const ::testing::TestParamInfo<Variant>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace nnrt::opencl::test
