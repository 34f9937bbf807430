// AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D: explicit and implicit padding (padding never counts
// in an average), strides, windows wider than tall, NHWC and NCHW, fused activations, float32 and
// quant8 (the output keeps the input's parameters). Valid variants a driver may leave out:
// TENSOR_FLOAT16.
#include "conformance/operation_case.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {
namespace {

enum class Padding { Explicit, Same, Valid };

struct PoolSpec {
  std::string name;
  ref::PoolKind kind = ref::PoolKind::Average;
  OperandType type = F32;
  std::vector<uint32_t> input;  // NHWC
  uint32_t filterH = 1, filterW = 1;
  Padding padding = Padding::Explicit;
  ref::Window window;  // explicit pads (with Padding::Explicit) and strides
  bool nchw = false;
  bool giveLayout = false;
  int fuse = 0;
  uint32_t seed = 0;
};

OperationCase poolCase(const PoolSpec& s) {
  using O = OperationType;
  const O op = s.kind == ref::PoolKind::Average ? O::AVERAGE_POOL_2D
               : s.kind == ref::PoolKind::Max   ? O::MAX_POOL_2D
                                                : O::L2_POOL_2D;
  CaseBuilder c(s.name, op);
  const bool quant = s.type == Q8;
  const float scale = 0.1f;
  const int32_t zero = 50;
  const auto in = quant ? randomQuant(ref::count(s.input), s.seed)
                        : randomValues(s.type, ref::count(s.input), s.seed, -3, 3);
  ref::Window w = s.window;
  if (s.padding != Padding::Explicit) {
    w.padLeft = w.padRight = w.padTop = w.padBottom = 0;
    if (s.padding == Padding::Same) {
      std::tie(w.padLeft, w.padRight) = ref::samePadding(s.input[2], s.filterW, w.strideW);
      std::tie(w.padTop, w.padBottom) = ref::samePadding(s.input[1], s.filterH, w.strideH);
    }
  }
  ref::Tensor out = ref::pool2d({s.input, quant ? ref::dequantize(in, scale, zero) : in}, s.kind, s.filterH,
                                s.filterW, w, s.fuse);
  ref::Tensor inStored{s.input, in};
  if (s.nchw) {
    inStored = ref::nhwcToNchw(inStored);
    out = ref::nhwcToNchw(out);
  }
  const uint32_t a = c.input(s.type, inStored.dims, inStored.values, quant ? scale : 0.0f, quant ? zero : 0);
  c.output(s.type, out.dims, quant ? ref::quantize(out.values, scale, zero) : out.values,
           quant ? scale : 0.0f, quant ? zero : 0);
  std::vector<uint32_t> inputs{a};
  if (s.padding == Padding::Explicit) {
    for (uint32_t p : {s.window.padLeft, s.window.padRight, s.window.padTop, s.window.padBottom})
      inputs.push_back(c.int32(static_cast<int32_t>(p)));
  } else {
    inputs.push_back(c.int32(s.padding == Padding::Same ? 1 : 2));
  }
  for (uint32_t v : {s.window.strideW, s.window.strideH, s.filterW, s.filterH})
    inputs.push_back(c.int32(static_cast<int32_t>(v)));
  inputs.push_back(c.int32(s.fuse));
  if (s.giveLayout || s.nchw) inputs.push_back(c.boolean(s.nchw));
  return c.build(inputs);
}

ref::Window pads(uint32_t left, uint32_t right, uint32_t top, uint32_t bottom, uint32_t strideW,
                 uint32_t strideH) {
  return {left, right, top, bottom, strideW, strideH, 1, 1};
}
ref::Window strides(uint32_t strideW, uint32_t strideH) {
  return pads(0, 0, 0, 0, strideW, strideH);
}

}  // namespace

std::vector<OperationCase> poolCases() {
  using K = ref::PoolKind;
  std::vector<OperationCase> cases;
  {
    // 3x3 windows, padding 1, stride 2 over {1..9}: each corner window covers 4 elements,
    // sums 12, 16, 24, 28 -> averages 3, 4, 6, 7 (padding is not counted).
    CaseBuilder c("average_pool_float_padding_not_counted_by_hand", OperationType::AVERAGE_POOL_2D);
    const uint32_t a = c.input(F32, {1, 3, 3, 1}, iota(9));
    c.output(F32, {1, 2, 2, 1}, {3, 4, 6, 7});
    cases.push_back(c.build({a, c.int32(1), c.int32(1), c.int32(1), c.int32(1), c.int32(2), c.int32(2),
                             c.int32(3), c.int32(3), c.int32(0)}));
  }
  cases.push_back(poolCase({.name = "average_pool_float_explicit",
                            .kind = K::Average,
                            .type = F32,
                            .input = {1, 5, 6, 2},
                            .filterH = 3,
                            .filterW = 3,
                            .padding = Padding::Explicit,
                            .window = pads(1, 1, 1, 1, 2, 2),
                            .seed = 200}));
  cases.push_back(poolCase({.name = "average_pool_float_same_relu6",
                            .kind = K::Average,
                            .type = F32,
                            .input = {2, 7, 5, 3},
                            .filterH = 3,
                            .filterW = 2,
                            .padding = Padding::Same,
                            .window = strides(2, 2),
                            .fuse = 3,
                            .seed = 201}));
  cases.push_back(poolCase({.name = "average_pool_float_valid_nhwc_layout_given",
                            .kind = K::Average,
                            .type = F32,
                            .input = {1, 6, 6, 3},
                            .filterH = 2,
                            .filterW = 2,
                            .padding = Padding::Valid,
                            .window = strides(2, 2),
                            .giveLayout = true,
                            .seed = 202}));
  cases.push_back(poolCase({.name = "average_pool_float_nchw_explicit",
                            .kind = K::Average,
                            .type = F32,
                            .input = {1, 6, 7, 3},
                            .filterH = 2,
                            .filterW = 3,
                            .padding = Padding::Explicit,
                            .window = pads(0, 2, 1, 0, 1, 2),
                            .nchw = true,
                            .giveLayout = true,
                            .fuse = 1,
                            .seed = 203}));
  cases.push_back(poolCase({.name = "average_pool_float_global",
                            .kind = K::Average,
                            .type = F32,
                            .input = {2, 9, 9, 16},
                            .filterH = 9,
                            .filterW = 9,
                            .padding = Padding::Valid,
                            .window = strides(1, 1),
                            .seed = 204}));
  cases.push_back(poolCase({.name = "max_pool_float_explicit",
                            .kind = K::Max,
                            .type = F32,
                            .input = {1, 6, 6, 4},
                            .filterH = 2,
                            .filterW = 2,
                            .padding = Padding::Explicit,
                            .window = pads(0, 0, 0, 0, 2, 2),
                            .seed = 205}));
  cases.push_back(poolCase({.name = "max_pool_float_same_odd_relu",
                            .kind = K::Max,
                            .type = F32,
                            .input = {1, 7, 9, 3},
                            .filterH = 3,
                            .filterW = 3,
                            .padding = Padding::Same,
                            .window = strides(2, 2),
                            .fuse = 1,
                            .seed = 206}));
  cases.push_back(poolCase({.name = "max_pool_float_nchw_same",
                            .kind = K::Max,
                            .type = F32,
                            .input = {2, 5, 6, 2},
                            .filterH = 2,
                            .filterW = 3,
                            .padding = Padding::Same,
                            .window = strides(1, 2),
                            .nchw = true,
                            .giveLayout = true,
                            .seed = 207}));
  cases.push_back(poolCase({.name = "max_pool_float_relu1_explicit",
                            .kind = K::Max,
                            .type = F32,
                            .input = {1, 4, 5, 2},
                            .filterH = 2,
                            .filterW = 2,
                            .padding = Padding::Explicit,
                            .window = pads(1, 0, 0, 1, 1, 1),
                            .fuse = 2,
                            .seed = 208}));
  cases.push_back(poolCase({.name = "l2_pool_float_explicit",
                            .kind = K::L2,
                            .type = F32,
                            .input = {1, 5, 5, 3},
                            .filterH = 2,
                            .filterW = 3,
                            .padding = Padding::Explicit,
                            .window = pads(1, 1, 0, 1, 2, 1),
                            .seed = 209}));
  cases.push_back(poolCase({.name = "l2_pool_float_nchw_same",
                            .kind = K::L2,
                            .type = F32,
                            .input = {1, 6, 5, 2},
                            .filterH = 3,
                            .filterW = 3,
                            .padding = Padding::Same,
                            .window = strides(2, 2),
                            .nchw = true,
                            .giveLayout = true,
                            .seed = 210}));
  cases.push_back(poolCase({.name = "average_pool_quant8_explicit",
                            .kind = K::Average,
                            .type = Q8,
                            .input = {1, 5, 6, 3},
                            .filterH = 3,
                            .filterW = 3,
                            .padding = Padding::Explicit,
                            .window = pads(1, 1, 1, 1, 2, 2),
                            .seed = 211}));
  cases.push_back(poolCase({.name = "average_pool_quant8_nchw_same_relu",
                            .kind = K::Average,
                            .type = Q8,
                            .input = {2, 4, 5, 2},
                            .filterH = 2,
                            .filterW = 2,
                            .padding = Padding::Same,
                            .window = strides(2, 1),
                            .nchw = true,
                            .giveLayout = true,
                            .fuse = 1,
                            .seed = 212}));
  cases.push_back(poolCase({.name = "max_pool_quant8_same_relu6",
                            .kind = K::Max,
                            .type = Q8,
                            .input = {1, 7, 7, 4},
                            .filterH = 3,
                            .filterW = 3,
                            .padding = Padding::Same,
                            .window = strides(2, 2),
                            .fuse = 3,
                            .seed = 213}));
  cases.push_back(poolCase({.name = "max_pool_quant8_nchw_valid",
                            .kind = K::Max,
                            .type = Q8,
                            .input = {1, 6, 4, 3},
                            .filterH = 2,
                            .filterW = 2,
                            .padding = Padding::Valid,
                            .window = strides(2, 2),
                            .nchw = true,
                            .giveLayout = true,
                            .seed = 214}));

  // Valid NNAPI that a driver may leave unsupported.
  cases.push_back(poolCase({.name = "average_pool_float16",
                            .kind = K::Average,
                            .type = F16,
                            .input = {1, 4, 4, 2},
                            .filterH = 2,
                            .filterW = 2,
                            .padding = Padding::Valid,
                            .window = strides(2, 2),
                            .seed = 220}));
  cases.push_back(poolCase({.name = "l2_pool_float16",
                            .kind = K::L2,
                            .type = F16,
                            .input = {1, 4, 4, 2},
                            .filterH = 2,
                            .filterW = 2,
                            .padding = Padding::Valid,
                            .window = strides(2, 2),
                            .seed = 221}));
  return cases;
}

}  // namespace nnrt::test::conformance
