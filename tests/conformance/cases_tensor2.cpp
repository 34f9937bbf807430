// SLICE, SPLIT, TILE, GATHER, EXPAND_DIMS, PAD_V2, CHANNEL_SHUFFLE (feature level 3), PACK (feature
// level 6), MIRROR_PAD and REVERSE (feature level 7) in every operand type NNAPI lists for them:
// negative axes, SLICE sizes of -1 and parameters given at execution, SPLIT into one part and into
// many, GATHER with repeated indices and indices of rank 2, PAD_V2 with quantized pad values, both
// MIRROR_PAD modes up to the largest padding each allows, PACK of one input and at every axis. These
// operations only move values, so every output is expected exactly (tolerance 0). Expected values
// come from index arithmetic written here from the NNAPI definitions (coordinates in, coordinates
// out), and a few small cases are written out by hand.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "conformance/operation_case.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {

std::vector<OperationCase> tensor2Cases();

namespace {

using O = OperationType;
using Dims = std::vector<uint32_t>;
using Coords = std::vector<uint32_t>;

// The data types (PAD_V2, CHANNEL_SHUFFLE) and the data types with TENSOR_INT32 (the others).
const OperandType kData[] = {F32, F16, Q8, Q8S};
const OperandType kDataOrInt[] = {F32, F16, I32, Q8, Q8S};

using Q = MoveQuant;

// ---- Row-major index arithmetic ----------------------------------------------------------------------

using ref::count;

Coords coordsOf(size_t flat, const Dims& dims) {
  Coords c(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    c[d] = static_cast<uint32_t>(flat % dims[d]);
    flat /= dims[d];
  }
  return c;
}
size_t flatOf(const Coords& c, const Dims& dims) {
  size_t flat = 0;
  for (size_t d = 0; d < dims.size(); ++d)
    flat = flat * dims[d] + c[d];
  return flat;
}

// A tensor of `dims` whose element at coordinates o is valueAt(o).
std::vector<double> generate(const Dims& dims, const std::function<double(const Coords&)>& valueAt) {
  std::vector<double> out(count(dims));
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = valueAt(coordsOf(i, dims));
  return out;
}

uint32_t dataInput(CaseBuilder& c, OperandType type, const Dims& dims, const std::vector<double>& values) {
  const Q q = moveQuantFor(type);
  return c.input(type, dims, values, q.scale, q.zeroPoint);
}
void exactOutput(CaseBuilder& c, OperandType type, const Dims& dims, std::vector<double> values) {
  const Q q = moveQuantFor(type);
  c.output(type, dims, std::move(values), q.scale, q.zeroPoint);
  c.tolerance(0.0, 0.0);  // pure data movement
}

uint32_t normalized(int32_t axis, size_t rank) {
  return static_cast<uint32_t>(axis < 0 ? axis + static_cast<int32_t>(rank) : axis);
}

// ---- SLICE -------------------------------------------------------------------------------------------

// size -1 takes the rest of the dimension. `runtime`: begin and size are model inputs, not constants.
OperationCase sliceCase(const std::string& name, OperandType type, const Dims& dims,
                        std::vector<int32_t> begin, std::vector<int32_t> size, bool runtime, uint32_t seed) {
  CaseBuilder c("slice_" + name, O::SLICE);
  const auto in = randomMoveData(type, count(dims), seed);
  Dims out(dims.size());
  for (size_t d = 0; d < dims.size(); ++d)
    out[d] = size[d] == -1 ? dims[d] - static_cast<uint32_t>(begin[d]) : static_cast<uint32_t>(size[d]);
  const auto want = generate(out, [&](const Coords& o) {
    Coords i = o;
    for (size_t d = 0; d < i.size(); ++d)
      i[d] += static_cast<uint32_t>(begin[d]);
    return in[flatOf(i, dims)];
  });
  const uint32_t x = dataInput(c, type, dims, in);
  const uint32_t rank = static_cast<uint32_t>(dims.size());
  uint32_t b = 0, s = 0;
  if (runtime) {
    b = c.input(I32, {rank}, std::vector<double>(begin.begin(), begin.end()));
    s = c.input(I32, {rank}, std::vector<double>(size.begin(), size.end()));
  } else {
    b = c.int32Tensor(begin, {rank});
    s = c.int32Tensor(size, {rank});
  }
  exactOutput(c, type, out, want);
  return c.build({x, b, s});
}

// ---- SPLIT -------------------------------------------------------------------------------------------

OperationCase splitCase(const std::string& name, OperandType type, const Dims& dims, int32_t axis,
                        uint32_t parts, uint32_t seed) {
  CaseBuilder c("split_" + name, O::SPLIT);
  const auto in = randomMoveData(type, count(dims), seed);
  const uint32_t a = normalized(axis, dims.size());
  Dims out = dims;
  out[a] /= parts;
  const uint32_t x = dataInput(c, type, dims, in);
  for (uint32_t k = 0; k < parts; ++k) {
    exactOutput(c, type, out, generate(out, [&](const Coords& o) {
                  Coords i = o;
                  i[a] += k * out[a];
                  return in[flatOf(i, dims)];
                }));
  }
  return c.build({x, c.int32(axis), c.int32(static_cast<int32_t>(parts))});
}

// ---- TILE --------------------------------------------------------------------------------------------

OperationCase tileCase(const std::string& name, OperandType type, const Dims& dims,
                       std::vector<int32_t> multiples, uint32_t seed) {
  CaseBuilder c("tile_" + name, O::TILE);
  const auto in = randomMoveData(type, count(dims), seed);
  Dims out = dims;
  for (size_t d = 0; d < dims.size(); ++d)
    out[d] *= static_cast<uint32_t>(multiples[d]);
  const auto want = generate(out, [&](const Coords& o) {
    Coords i = o;
    for (size_t d = 0; d < i.size(); ++d)
      i[d] %= dims[d];
    return in[flatOf(i, dims)];
  });
  const uint32_t x = dataInput(c, type, dims, in);
  const uint32_t m = c.int32Tensor(multiples, {static_cast<uint32_t>(multiples.size())});
  exactOutput(c, type, out, want);
  return c.build({x, m});
}

// ---- GATHER ------------------------------------------------------------------------------------------

// Output [dims before axis, indexDims, dims after axis]. `runtime`: the indices are a model input.
OperationCase gatherCase(const std::string& name, OperandType type, const Dims& dims, int32_t axis,
                         const Dims& indexDims, const std::vector<int32_t>& indices, bool runtime,
                         uint32_t seed) {
  CaseBuilder c("gather_" + name, O::GATHER);
  const auto in = randomMoveData(type, count(dims), seed);
  const uint32_t a = normalized(axis, dims.size());
  Dims out(dims.begin(), dims.begin() + a);
  out.insert(out.end(), indexDims.begin(), indexDims.end());
  out.insert(out.end(), dims.begin() + a + 1, dims.end());
  const size_t r = indexDims.size();
  const auto want = generate(out, [&](const Coords& o) {
    const Coords at(o.begin() + a, o.begin() + a + r);
    Coords i(o.begin(), o.begin() + a);
    i.push_back(static_cast<uint32_t>(indices[flatOf(at, indexDims)]));
    i.insert(i.end(), o.begin() + a + r, o.end());
    return in[flatOf(i, dims)];
  });
  const uint32_t x = dataInput(c, type, dims, in);
  const uint32_t idx = runtime ? c.input(I32, indexDims, std::vector<double>(indices.begin(), indices.end()))
                               : c.int32Tensor(indices, indexDims);
  exactOutput(c, type, out, want);
  return c.build({x, c.int32(axis), idx});
}

// By hand: rows 2, 0, 2 of [[1, 2], [3, 4], [5, 6]].
OperationCase gatherByHand() {
  CaseBuilder c("gather_float_by_hand", O::GATHER);
  const uint32_t x = c.input(F32, {3, 2}, {1, 2, 3, 4, 5, 6});
  const uint32_t idx = c.int32Tensor({2, 0, 2}, {3});
  exactOutput(c, F32, {3, 2}, {5, 6, 1, 2, 5, 6});
  return c.build({x, c.int32(0), idx});
}

// ---- EXPAND_DIMS ----------------------------------------------------------------------------------------

OperationCase expandDimsCase(const std::string& name, OperandType type, const Dims& dims, int32_t axis,
                             uint32_t seed) {
  CaseBuilder c("expand_dims_" + name, O::EXPAND_DIMS);
  const auto in = randomMoveData(type, count(dims), seed);
  Dims out = dims;
  out.insert(out.begin() + normalized(axis, dims.size() + 1), 1);
  const uint32_t x = dataInput(c, type, dims, in);
  exactOutput(c, type, out, in);  // the same elements in the same order
  return c.build({x, c.int32(axis)});
}

// ---- PAD_V2 ------------------------------------------------------------------------------------------

// paddings: rank {before, after} pairs; `value` as the tensor stores it (real or quantized integer).
OperationCase padV2Case(const std::string& name, OperandType type, const Dims& dims,
                        const std::vector<int32_t>& paddings, double value, uint32_t seed) {
  CaseBuilder c("pad_v2_" + name, O::PAD_V2);
  const auto in = randomMoveData(type, count(dims), seed);
  Dims out = dims;
  for (size_t d = 0; d < dims.size(); ++d)
    out[d] += static_cast<uint32_t>(paddings[2 * d] + paddings[2 * d + 1]);
  const auto want = generate(out, [&](const Coords& o) {
    Coords i(o.size());
    for (size_t d = 0; d < o.size(); ++d) {
      const int64_t p = int64_t{o[d]} - paddings[2 * d];
      if (p < 0 || p >= dims[d]) return value;
      i[d] = static_cast<uint32_t>(p);
    }
    return in[flatOf(i, dims)];
  });
  const uint32_t x = dataInput(c, type, dims, in);
  const uint32_t p = c.int32Tensor(paddings, {static_cast<uint32_t>(dims.size()), 2});
  const uint32_t v = type == F32   ? c.float32(static_cast<float>(value))
                     : type == F16 ? c.float16(static_cast<float>(value))
                                   : c.int32(static_cast<int32_t>(value));
  exactOutput(c, type, out, want);
  return c.build({x, p, v});
}

// ---- MIRROR_PAD ------------------------------------------------------------------------------------------

// Where padded coordinate p (relative to the input's first element) reads: REFLECT mirrors across
// the edge element, SYMMETRIC across the edge itself.
uint32_t mirrored(int64_t p, int64_t n, bool symmetric) {
  if (p < 0) return static_cast<uint32_t>(symmetric ? -1 - p : -p);
  if (p >= n) return static_cast<uint32_t>(symmetric ? 2 * n - 1 - p : 2 * n - 2 - p);
  return static_cast<uint32_t>(p);
}

OperationCase mirrorPadCase(const std::string& name, OperandType type, const Dims& dims,
                            const std::vector<int32_t>& paddings, bool symmetric, uint32_t seed) {
  CaseBuilder c(std::string("mirror_pad_") + (symmetric ? "symmetric_" : "reflect_") + name, O::MIRROR_PAD);
  const auto in = randomMoveData(type, count(dims), seed);
  Dims out = dims;
  for (size_t d = 0; d < dims.size(); ++d)
    out[d] += static_cast<uint32_t>(paddings[2 * d] + paddings[2 * d + 1]);
  const auto want = generate(out, [&](const Coords& o) {
    Coords i(o.size());
    for (size_t d = 0; d < o.size(); ++d)
      i[d] = mirrored(int64_t{o[d]} - paddings[2 * d], dims[d], symmetric);
    return in[flatOf(i, dims)];
  });
  const uint32_t x = dataInput(c, type, dims, in);
  const uint32_t p = c.int32Tensor(paddings, {static_cast<uint32_t>(dims.size()), 2});
  exactOutput(c, type, out, want);
  return c.build({x, p, c.int32(symmetric ? 1 : 0)});
}

// By hand: [1, 2, 3] padded by 2 on both sides.
OperationCase mirrorPadByHand(bool symmetric) {
  CaseBuilder c(std::string("mirror_pad_") + (symmetric ? "symmetric" : "reflect") + "_int32_by_hand",
                O::MIRROR_PAD);
  const uint32_t x = c.input(I32, {3}, {1, 2, 3});
  const uint32_t p = c.int32Tensor({2, 2}, {1, 2});
  exactOutput(
      c, I32, {7},
      symmetric ? std::vector<double>{2, 1, 1, 2, 3, 3, 2} : std::vector<double>{3, 2, 1, 2, 3, 2, 1});
  return c.build({x, p, c.int32(symmetric ? 1 : 0)});
}

// ---- REVERSE -------------------------------------------------------------------------------------------

OperationCase reverseCase(const std::string& name, OperandType type, const Dims& dims, int32_t axis,
                          uint32_t seed) {
  CaseBuilder c("reverse_" + name, O::REVERSE);
  const auto in = randomMoveData(type, count(dims), seed);
  const auto a = static_cast<uint32_t>(axis);
  const auto want = generate(dims, [&](const Coords& o) {
    Coords i = o;
    i[a] = dims[a] - 1 - o[a];
    return in[flatOf(i, dims)];
  });
  const uint32_t x = dataInput(c, type, dims, in);
  exactOutput(c, type, dims, want);
  return c.build({x, c.int32Tensor({axis}, {1})});
}

// ---- CHANNEL_SHUFFLE --------------------------------------------------------------------------------------

// The axis seen as [groups, K] and transposed: input (g, k) lands at output k * groups + g.
OperationCase channelShuffleCase(const std::string& name, OperandType type, const Dims& dims, int32_t groups,
                                 int32_t axis, uint32_t seed) {
  CaseBuilder c("channel_shuffle_" + name, O::CHANNEL_SHUFFLE);
  const auto in = randomMoveData(type, count(dims), seed);
  const uint32_t a = normalized(axis, dims.size());
  const uint32_t g = static_cast<uint32_t>(groups), k = dims[a] / g;
  std::vector<double> want(in.size());
  for (size_t flat = 0; flat < in.size(); ++flat) {
    Coords o = coordsOf(flat, dims);
    const uint32_t group = o[a] / k, within = o[a] % k;
    o[a] = within * g + group;
    want[flatOf(o, dims)] = in[flat];
  }
  const uint32_t x = dataInput(c, type, dims, in);
  exactOutput(c, type, dims, want);
  return c.build({x, c.int32(groups), c.int32(axis)});
}

// By hand: 6 channels in 2 groups.
OperationCase channelShuffleByHand() {
  CaseBuilder c("channel_shuffle_float_by_hand", O::CHANNEL_SHUFFLE);
  const uint32_t x = c.input(F32, {1, 6}, {0, 1, 2, 3, 4, 5});
  exactOutput(c, F32, {1, 6}, {0, 3, 1, 4, 2, 5});
  return c.build({x, c.int32(2), c.int32(1)});
}

// ---- PACK ------------------------------------------------------------------------------------------------

// `inputs` tensors of `dims` stacked at `axis` (0..rank); input 1 is a constant, the others model inputs.
OperationCase packCase(const std::string& name, OperandType type, const Dims& dims, uint32_t inputs,
                       int32_t axis, uint32_t seed) {
  CaseBuilder c("pack_" + name, O::PACK);
  std::vector<std::vector<double>> data(inputs);
  std::vector<uint32_t> operands{c.int32(axis)};
  const Q q = moveQuantFor(type);
  for (uint32_t k = 0; k < inputs; ++k) {
    data[k] = randomMoveData(type, count(dims), seed + k);
    operands.push_back(k == 1 ? c.constant(type, dims, data[k], q.scale, q.zeroPoint)
                              : dataInput(c, type, dims, data[k]));
  }
  const auto a = static_cast<uint32_t>(axis);
  Dims out = dims;
  out.insert(out.begin() + a, inputs);
  const auto want = generate(out, [&](const Coords& o) {
    Coords i = o;
    i.erase(i.begin() + a);
    return data[o[a]][flatOf(i, dims)];
  });
  exactOutput(c, type, out, want);
  return c.build(operands);
}

}  // namespace

std::vector<OperationCase> tensor2Cases() {
  std::vector<OperationCase> cases;
  uint32_t seed = 1300;
  for (OperandType t : kDataOrInt) {
    const std::string s = typeSuffix(t);
    cases.push_back(sliceCase(s, t, {2, 3, 4}, {1, 0, 1}, {1, -1, 2}, false, ++seed));
    cases.push_back(splitCase(s, t, {2, 6, 2}, 1, 3, ++seed));
    cases.push_back(tileCase(s, t, {2, 3}, {2, 3}, ++seed));
    cases.push_back(gatherCase(s, t, {3, 4}, 0, {4}, {2, 0, 2, 1}, false, ++seed));
    cases.push_back(expandDimsCase(s, t, {2, 3}, 1, ++seed));
    cases.push_back(mirrorPadCase(s, t, {3, 4}, {2, 1, 1, 3}, false, ++seed));
    cases.push_back(mirrorPadCase(s, t, {3, 4}, {3, 0, 4, 2}, true, ++seed));
    cases.push_back(reverseCase(s, t, {2, 3, 4}, 1, ++seed));
    cases.push_back(packCase(s, t, {2, 3}, 3, 1, ++seed));
  }
  // PAD_V2: the pad value per type (quantized ones as stored integers, away from the zero point).
  cases.push_back(padV2Case("float", F32, {2, 3}, {1, 0, 2, 1}, -2.5, ++seed));
  cases.push_back(padV2Case("float16", F16, {2, 3}, {1, 0, 2, 1}, 1.5, ++seed));
  cases.push_back(padV2Case("quant8", Q8, {2, 3}, {1, 0, 2, 1}, 7, ++seed));
  cases.push_back(padV2Case("quant8_signed", Q8S, {2, 3}, {1, 0, 2, 1}, -100, ++seed));
  cases.push_back(padV2Case("float_rank4", F32, {1, 2, 3, 2}, {0, 1, 1, 0, 2, 2, 0, 1}, 9.0, ++seed));
  cases.push_back(padV2Case("float_rank1", F32, {4}, {3, 2}, 0.5, ++seed));
  cases.push_back(padV2Case("quant8_rank3_zero_point", Q8, {2, 2, 3}, {1, 1, 0, 0, 0, 2}, 100, ++seed));
  cases.push_back(padV2Case("quant8_signed_rank3_extremes", Q8S, {2, 2, 3}, {0, 1, 1, 0, 1, 1}, 127, ++seed));
  cases.push_back(padV2Case("quant8_signed_min", Q8S, {3}, {1, 1}, -128, ++seed));
  cases.push_back(padV2Case("float16_rank4", F16, {2, 1, 2, 2}, {1, 0, 0, 1, 1, 1, 0, 0}, -0.25, ++seed));
  // CHANNEL_SHUFFLE: negative axes, groups 1 (identity) and groups = channels (identity again).
  for (OperandType t : kData)
    cases.push_back(channelShuffleCase(typeSuffix(t), t, {2, 3, 6}, 3, -1, ++seed));
  cases.push_back(channelShuffleByHand());
  cases.push_back(channelShuffleCase("float_rank4_nhwc", F32, {1, 2, 2, 8}, 2, 3, ++seed));
  cases.push_back(channelShuffleCase("float_nhwc_two_groups_of_11", F32, {2, 3, 5, 22}, 2, 3, ++seed));
  cases.push_back(channelShuffleCase("float_axis1", F32, {2, 6, 3}, 2, 1, ++seed));
  cases.push_back(channelShuffleCase("quant8_axis_minus3", Q8, {4, 2, 3}, 2, -3, ++seed));
  cases.push_back(channelShuffleCase("float16_one_group", F16, {3, 4}, 1, -1, ++seed));
  cases.push_back(channelShuffleCase("quant8_signed_groups_equal_channels", Q8S, {2, 5}, 5, 1, ++seed));
  cases.push_back(channelShuffleCase("float_rank1", F32, {12}, 4, 0, ++seed));
  // SLICE: size -1 everywhere, single elements, runtime parameters, rank 1 and 4.
  cases.push_back(sliceCase("float_all_minus_one", F32, {3, 4}, {0, 0}, {-1, -1}, false, ++seed));
  cases.push_back(sliceCase("float_rank4", F32, {2, 3, 4, 5}, {1, 1, 0, 2}, {1, 2, 4, -1}, false, ++seed));
  cases.push_back(sliceCase("int32_rank1_one", I32, {7}, {6}, {1}, false, ++seed));
  cases.push_back(sliceCase("float_runtime_begin_size", F32, {4, 5}, {1, 2}, {3, -1}, true, ++seed));
  cases.push_back(sliceCase("quant8_runtime_begin_size", Q8, {2, 3, 4}, {0, 2, 1}, {2, 1, 3}, true, ++seed));
  // SPLIT: into one part, into every element, negative axes, rank 1 and 4.
  cases.push_back(splitCase("float_one_part", F32, {3, 4}, 0, 1, ++seed));
  cases.push_back(splitCase("quant8_one_part", Q8, {2, 2}, -1, 1, ++seed));
  cases.push_back(splitCase("float_axis_minus1", F32, {2, 3, 4}, -1, 2, ++seed));
  cases.push_back(splitCase("int32_axis0_many", I32, {6, 2}, 0, 6, ++seed));
  cases.push_back(splitCase("float16_axis_minus3", F16, {4, 1, 3}, -3, 2, ++seed));
  cases.push_back(splitCase("quant8_signed_rank4", Q8S, {2, 2, 4, 3}, 2, 4, ++seed));
  cases.push_back(splitCase("float_rank1", F32, {8}, 0, 4, ++seed));
  // TILE: multiples of 1, rank 1, 3 and 4.
  cases.push_back(tileCase("float_rank3", F32, {2, 1, 3}, {1, 3, 2}, ++seed));
  cases.push_back(tileCase("int32_rank1", I32, {3}, {4}, ++seed));
  cases.push_back(tileCase("quant8_ones", Q8, {2, 3}, {1, 1}, ++seed));
  cases.push_back(tileCase("float16_rank4", F16, {1, 2, 1, 2}, {2, 1, 3, 2}, ++seed));
  cases.push_back(tileCase("quant8_signed_rank1", Q8S, {5}, {2}, ++seed));
  // GATHER: negative axes, indices of rank 2 and given at execution, repeated, a single index.
  cases.push_back(gatherByHand());
  cases.push_back(
      gatherCase("float_axis_minus1_indices_rank2", F32, {2, 3, 4}, -1, {2, 2}, {3, 0, 1, 1}, false, ++seed));
  cases.push_back(gatherCase("float_axis1_runtime", F32, {2, 5, 3}, 1, {3}, {4, 4, 0}, true, ++seed));
  cases.push_back(gatherCase("int32_one_index", I32, {4}, 0, {1}, {3}, false, ++seed));
  cases.push_back(gatherCase("quant8_axis_minus2", Q8, {3, 2, 2}, -2, {3}, {1, 0, 1}, false, ++seed));
  cases.push_back(
      gatherCase("quant8_signed_axis2_runtime", Q8S, {2, 2, 3}, 2, {2, 2}, {2, 0, 0, 2}, true, ++seed));
  cases.push_back(gatherCase("float16_axis_minus3", F16, {3, 2, 2}, -3, {2}, {2, 2}, false, ++seed));
  // EXPAND_DIMS: every position, negative axes.
  cases.push_back(expandDimsCase("float_axis0", F32, {2, 3}, 0, ++seed));
  cases.push_back(expandDimsCase("float_axis_last", F32, {2, 3}, 2, ++seed));
  cases.push_back(expandDimsCase("float_axis_minus1", F32, {2, 3}, -1, ++seed));
  cases.push_back(expandDimsCase("quant8_axis_minus3", Q8, {2, 3}, -3, ++seed));
  cases.push_back(expandDimsCase("int32_rank1", I32, {4}, -2, ++seed));
  cases.push_back(expandDimsCase("float16_rank4", F16, {1, 2, 3, 2}, 4, ++seed));
  // MIRROR_PAD: by hand, rank 1 and 3, no padding in some dimensions, the largest paddings allowed.
  cases.push_back(mirrorPadByHand(false));
  cases.push_back(mirrorPadByHand(true));
  cases.push_back(mirrorPadCase("float_rank3", F32, {2, 3, 4}, {1, 0, 0, 0, 2, 3}, false, ++seed));
  cases.push_back(mirrorPadCase("float_rank3", F32, {2, 3, 4}, {2, 1, 0, 3, 4, 0}, true, ++seed));
  cases.push_back(mirrorPadCase("quant8_rank1_edge", Q8, {2}, {1, 1}, false, ++seed));
  cases.push_back(mirrorPadCase("quant8_signed_one_element", Q8S, {1, 3}, {1, 1, 0, 0}, true, ++seed));
  cases.push_back(mirrorPadCase("float16_rank4", F16, {2, 2, 3, 2}, {1, 1, 0, 1, 2, 2, 1, 0}, false, ++seed));
  cases.push_back(mirrorPadCase("int32_no_padding", I32, {2, 3}, {0, 0, 0, 0}, true, ++seed));
  // REVERSE: every axis, rank 1 and 4, a dimension of 1.
  cases.push_back(reverseCase("float_axis0", F32, {2, 3, 4}, 0, ++seed));
  cases.push_back(reverseCase("float_axis2", F32, {2, 3, 4}, 2, ++seed));
  cases.push_back(reverseCase("int32_rank1", I32, {5}, 0, ++seed));
  cases.push_back(reverseCase("quant8_rank4", Q8, {2, 3, 2, 2}, 3, ++seed));
  cases.push_back(reverseCase("float16_dimension_of_one", F16, {3, 1, 2}, 1, ++seed));
  // PACK: axis 0 and the last axis, one input, many inputs, rank 1 and 3.
  cases.push_back(packCase("float_axis0", F32, {2, 3}, 3, 0, ++seed));
  cases.push_back(packCase("float_axis_last", F32, {2, 3}, 2, 2, ++seed));
  cases.push_back(packCase("int32_one_input", I32, {4}, 1, 0, ++seed));
  cases.push_back(packCase("quant8_rank1_axis1", Q8, {3}, 4, 1, ++seed));
  cases.push_back(packCase("float16_rank3_axis2", F16, {2, 2, 3}, 3, 2, ++seed));
  cases.push_back(packCase("quant8_signed_axis0_many", Q8S, {2, 2}, 6, 0, ++seed));
  return cases;
}

}  // namespace nnrt::test::conformance
