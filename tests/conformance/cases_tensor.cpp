// DEPTH_TO_SPACE, SPACE_TO_DEPTH, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, STRIDED_SLICE, EMBEDDING_LOOKUP
// and HASHTABLE_LOOKUP in every operand type NNAPI lists for them through feature level 4: NHWC with
// the layout flag omitted or false, NCHW, block sizes above 2, padding with the zero point, negative
// indices and strides, each mask bit, lookups hitting and missing. These operations only move values,
// so every output is expected exactly (tolerance 0).
#include <string>
#include <utility>

#include "conformance/operation_case.hpp"
#include "support/reference_tensor.hpp"

namespace nnrt::test::conformance {

std::vector<OperationCase> tensorCases();

namespace {

using O = OperationType;

// The types of the image rearrangements and STRIDED_SLICE, with their case-name suffixes.
const std::pair<OperandType, const char*> kDataTypes[] = {
    {F32, "float"}, {F16, "float16"}, {Q8, "quant8"}, {Q8S, "quant8_signed"}};

using Q = MoveQuant;

// How a case gives the optional layout flag.
enum class Layout { Omitted, Nhwc, Nchw };

// The model input of an image operation (data given NHWC; NCHW cases store it transposed).
uint32_t imageInput(CaseBuilder& c, OperandType type, const ref::Tensor& nhwc, Layout layout) {
  const Q q = moveQuantFor(type);
  const ref::Tensor stored = layout == Layout::Nchw ? ref::nhwcToNchw(nhwc) : nhwc;
  return c.input(type, stored.dims, stored.values, q.scale, q.zeroPoint);
}
void imageOutput(CaseBuilder& c, OperandType type, const ref::Tensor& nhwc, Layout layout) {
  const Q q = moveQuantFor(type);
  const ref::Tensor stored = layout == Layout::Nchw ? ref::nhwcToNchw(nhwc) : nhwc;
  c.output(type, stored.dims, stored.values, q.scale, q.zeroPoint);
  c.tolerance(0.0, 0.0);  // pure data movement
}
void addLayout(CaseBuilder& c, std::vector<uint32_t>& inputs, Layout layout) {
  if (layout != Layout::Omitted) inputs.push_back(c.boolean(layout == Layout::Nchw));
}

// ---- DEPTH_TO_SPACE, SPACE_TO_DEPTH ---------------------------------------------------------------------

OperationCase depthSpaceCase(const std::string& name, O op, OperandType type, const ref::Tensor& nhwc,
                             uint32_t block, Layout layout) {
  CaseBuilder c(name, op);
  std::vector<uint32_t> inputs{imageInput(c, type, nhwc, layout), c.int32(static_cast<int32_t>(block))};
  addLayout(c, inputs, layout);
  imageOutput(c, type,
              op == O::DEPTH_TO_SPACE ? ref::depthToSpace(nhwc, block) : ref::spaceToDepth(nhwc, block),
              layout);
  return c.build(inputs);
}

OperationCase depthSpaceRandom(const std::string& name, O op, OperandType type, std::vector<uint32_t> dims,
                               uint32_t block, Layout layout, uint32_t seed) {
  const ref::Tensor nhwc{dims, randomMoveData(type, ref::count(dims), seed)};
  return depthSpaceCase(name, op, type, nhwc, block, layout);
}

// ---- BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND -------------------------------------------------------------

OperationCase batchToSpaceCase(const std::string& name, OperandType type, const ref::Tensor& nhwc,
                               uint32_t bh, uint32_t bw, Layout layout, bool runtimeBlock = false) {
  CaseBuilder c(name, O::BATCH_TO_SPACE_ND);
  const uint32_t in = imageInput(c, type, nhwc, layout);
  const std::vector<int32_t> block{static_cast<int32_t>(bh), static_cast<int32_t>(bw)};
  const uint32_t blockOperand =
      runtimeBlock ? c.input(I32, {2}, {double(bh), double(bw)}) : c.int32Tensor(block);
  std::vector<uint32_t> inputs{in, blockOperand};
  addLayout(c, inputs, layout);
  imageOutput(c, type, ref::batchToSpace(nhwc, bh, bw), layout);
  return c.build(inputs);
}

// pads = {top, bottom, left, right}; quantized inputs pad with their zero point (the real value 0).
OperationCase spaceToBatchCase(const std::string& name, OperandType type, const ref::Tensor& nhwc,
                               uint32_t bh, uint32_t bw, const std::vector<uint32_t>& pads, Layout layout) {
  CaseBuilder c(name, O::SPACE_TO_BATCH_ND);
  const uint32_t in = imageInput(c, type, nhwc, layout);
  const std::vector<int32_t> padding(pads.begin(), pads.end());
  std::vector<uint32_t> inputs{in, c.int32Tensor({static_cast<int32_t>(bh), static_cast<int32_t>(bw)}),
                               c.int32Tensor(padding, {2, 2})};
  addLayout(c, inputs, layout);
  imageOutput(c, type, ref::spaceToBatch(nhwc, bh, bw, pads, moveQuantFor(type).zeroPoint), layout);
  return c.build(inputs);
}

// ---- STRIDED_SLICE ------------------------------------------------------------------------------------

struct Slice {
  std::vector<int32_t> begin, end, strides;
  int32_t beginMask = 0, endMask = 0, shrinkMask = 0;
};

OperationCase stridedSliceCase(const std::string& name, OperandType type, const ref::Tensor& in,
                               const Slice& s, bool runtimeBegin = false) {
  CaseBuilder c(name, O::STRIDED_SLICE);
  const Q q = moveQuantFor(type);
  const uint32_t a = c.input(type, in.dims, in.values, q.scale, q.zeroPoint);
  uint32_t begin;
  if (runtimeBegin) {
    begin = c.input(I32, {static_cast<uint32_t>(s.begin.size())},
                    std::vector<double>(s.begin.begin(), s.begin.end()));
  } else {
    begin = c.int32Tensor(s.begin);
  }
  const uint32_t end = c.int32Tensor(s.end), strides = c.int32Tensor(s.strides);
  const ref::Tensor out =
      ref::stridedSlice(in, s.begin, s.end, s.strides, s.beginMask, s.endMask, s.shrinkMask);
  c.output(type, out.dims, out.values, q.scale, q.zeroPoint);
  c.tolerance(0.0, 0.0);
  return c.build({a, begin, end, strides, c.int32(s.beginMask), c.int32(s.endMask), c.int32(s.shrinkMask)});
}

OperationCase stridedSliceRandom(const std::string& name, OperandType type, const std::vector<uint32_t>& dims,
                                 const Slice& s, uint32_t seed, bool runtimeBegin = false) {
  return stridedSliceCase(name, type, {dims, randomMoveData(type, ref::count(dims), seed)}, s, runtimeBegin);
}

// ---- EMBEDDING_LOOKUP, HASHTABLE_LOOKUP -----------------------------------------------------------------

OperationCase embeddingLookupCase(const std::string& name, OperandType type,
                                  const std::vector<int32_t>& lookups, const ref::Tensor& values,
                                  bool constantValues = false) {
  CaseBuilder c(name, O::EMBEDDING_LOOKUP);
  const Q q = moveQuantFor(type);
  const uint32_t l = c.input(I32, {static_cast<uint32_t>(lookups.size())},
                             std::vector<double>(lookups.begin(), lookups.end()));
  const uint32_t v = constantValues ? c.constant(type, values.dims, values.values, q.scale, q.zeroPoint)
                                    : c.input(type, values.dims, values.values, q.scale, q.zeroPoint);
  const ref::Tensor out = ref::embeddingLookup(lookups, values);
  c.output(type, out.dims, out.values, q.scale, q.zeroPoint);
  c.tolerance(0.0, 0.0);
  return c.build({l, v});
}

// keys must be sorted ascending (NNAPI's requirement).
OperationCase hashtableLookupCase(const std::string& name, OperandType type,
                                  const std::vector<int32_t>& lookups, const std::vector<int32_t>& keys,
                                  const ref::Tensor& values, bool constantTable = false) {
  CaseBuilder c(name, O::HASHTABLE_LOOKUP);
  const Q q = moveQuantFor(type);
  const uint32_t l = c.input(I32, {static_cast<uint32_t>(lookups.size())},
                             std::vector<double>(lookups.begin(), lookups.end()));
  const std::vector<double> keyValues(keys.begin(), keys.end());
  const uint32_t k =
      constantTable ? c.int32Tensor(keys) : c.input(I32, {static_cast<uint32_t>(keys.size())}, keyValues);
  const uint32_t v = constantTable ? c.constant(type, values.dims, values.values, q.scale, q.zeroPoint)
                                   : c.input(type, values.dims, values.values, q.scale, q.zeroPoint);
  const auto [out, hits] = ref::hashtableLookup(lookups, keys, values);
  c.output(type, out.dims, out.values, q.scale, q.zeroPoint);
  c.tolerance(0.0, 0.0);
  c.output(Q8, {static_cast<uint32_t>(lookups.size())}, hits, 1.0f, 0);
  c.tolerance(0.0, 0.0);
  return c.build({l, k, v});
}

}  // namespace

std::vector<OperationCase> tensorCases() {
  std::vector<OperationCase> cases;
  const std::string s2d = "space_to_depth_", d2s = "depth_to_space_";
  for (const auto& [type, suffix] : kDataTypes) {
    const std::string t = suffix;
    const uint32_t seed = 700 + 10 * static_cast<uint32_t>(type);
    // DEPTH_TO_SPACE by hand: [1, 1, 2, 4] values 1..8, block 2. Pixel 0 holds 1 2 3 4, pixel 1 holds
    // 5 6 7 8; each spreads over a 2x2 block (channel = row * 2 + column): rows 1 2 5 6 / 3 4 7 8.
    {
      CaseBuilder c(d2s + t + "_hand", O::DEPTH_TO_SPACE);
      const Q q = moveQuantFor(type);
      const uint32_t in = c.input(type, {1, 1, 2, 4}, iota(8), q.scale, q.zeroPoint);
      c.output(type, {1, 2, 4, 1}, {1, 2, 5, 6, 3, 4, 7, 8}, q.scale, q.zeroPoint);
      c.tolerance(0.0, 0.0);
      cases.push_back(c.build({in, c.int32(2)}));
    }
    cases.push_back(depthSpaceRandom(d2s + t + "_block3", O::DEPTH_TO_SPACE, type, {2, 2, 3, 18}, 3,
                                     Layout::Nhwc, seed + 1));
    cases.push_back(depthSpaceRandom(d2s + t + "_nchw", O::DEPTH_TO_SPACE, type, {2, 3, 2, 8}, 2,
                                     Layout::Nchw, seed + 2));
    // SPACE_TO_DEPTH by hand, the inverse: rows 1 2 5 6 / 3 4 7 8 of [1, 2, 4, 1] -> [1, 1, 2, 4] 1..8.
    {
      CaseBuilder c(s2d + t + "_hand", O::SPACE_TO_DEPTH);
      const Q q = moveQuantFor(type);
      const uint32_t in = c.input(type, {1, 2, 4, 1}, {1, 2, 5, 6, 3, 4, 7, 8}, q.scale, q.zeroPoint);
      c.output(type, {1, 1, 2, 4}, iota(8), q.scale, q.zeroPoint);
      c.tolerance(0.0, 0.0);
      cases.push_back(c.build({in, c.int32(2)}));
    }
    cases.push_back(depthSpaceRandom(s2d + t + "_block4", O::SPACE_TO_DEPTH, type, {1, 8, 4, 3}, 4,
                                     Layout::Omitted, seed + 3));
    cases.push_back(depthSpaceRandom(s2d + t + "_nchw", O::SPACE_TO_DEPTH, type, {2, 6, 9, 2}, 3,
                                     Layout::Nchw, seed + 4));

    // BATCH_TO_SPACE_ND by hand: batches {1, 2} {3, 4} {5, 6} {7, 8} of [4, 1, 2, 1], block 2x2. Output
    // pixel (y, x) comes from batch (y % 2) * 2 + x % 2, column x / 2: rows 1 3 2 4 / 5 7 6 8.
    const std::string b2s = "batch_to_space_nd_" + t, s2b = "space_to_batch_nd_" + t;
    cases.push_back(batchToSpaceCase(b2s + "_hand", type, {{4, 1, 2, 1}, iota(8)}, 2, 2, Layout::Omitted));
    cases.back().outputs[0].expected.values = {1, 3, 2, 4, 5, 7, 6, 8};
    cases.push_back(batchToSpaceCase(b2s + "_block3x2", type,
                                     {{12, 2, 3, 3}, randomMoveData(type, 216, seed + 5)}, 3, 2, Layout::Nhwc));
    cases.push_back(batchToSpaceCase(b2s + "_nchw", type, {{8, 3, 2, 2}, randomMoveData(type, 96, seed + 6)}, 2,
                                     4, Layout::Nchw));
    // SPACE_TO_BATCH_ND by hand: [1, 2, 2, 1] 1 2 / 3 4 padded by 1 on every side into 4x4 (z the real
    // 0: 0.0 or the zero point), block 2x2. Batch (oy * 2 + ox) takes padded pixels (2y + oy, 2x + ox):
    // batch 0 = z z z 4, batch 1 = z z 3 z, batch 2 = z 2 z z, batch 3 = 1 z z z.
    {
      const double z = moveQuantFor(type).zeroPoint;
      cases.push_back(spaceToBatchCase(s2b + "_hand_padded", type, {{1, 2, 2, 1}, iota(4)}, 2, 2,
                                       {1, 1, 1, 1}, Layout::Omitted));
      cases.back().outputs[0].expected.values = {z, z, z, 4, z, z, 3, z, z, 2, z, z, 1, z, z, z};
    }
    cases.push_back(spaceToBatchCase(s2b + "_block3_padded", type,
                                     {{2, 4, 5, 2}, randomMoveData(type, 80, seed + 7)}, 3, 3, {2, 0, 1, 0},
                                     Layout::Nhwc));
    cases.push_back(spaceToBatchCase(s2b + "_nchw", type, {{2, 3, 4, 3}, randomMoveData(type, 72, seed + 8)}, 2,
                                     3, {1, 0, 0, 2}, Layout::Nchw));
    cases.push_back(spaceToBatchCase(s2b + "_no_padding", type,
                                     {{1, 4, 6, 2}, randomMoveData(type, 48, seed + 9)}, 2, 2, {0, 0, 0, 0},
                                     Layout::Omitted));

    // STRIDED_SLICE by hand: [2, 3] 1..6 (rows 1 2 3 / 4 5 6), begin {0, 2}, end {2, 0}, strides {1, -1}:
    // both rows, columns 2 then 1 -> [2, 2] 3 2 6 5.
    const std::string ss = "strided_slice_" + t;
    cases.push_back(
        stridedSliceCase(ss + "_hand_negative_stride", type, {{2, 3}, iota(6)}, {{0, 2}, {2, 0}, {1, -1}}));
    // Shrinking axis 0 at row 1, columns 0 and 2 (stride 2) -> [2] 4 6.
    cases.push_back(
        stridedSliceCase(ss + "_hand_shrink", type, {{2, 3}, iota(6)}, {{1, 0}, {2, 3}, {1, 2}, 0, 0, 1}));
    const std::vector<uint32_t> dims{3, 4, 5, 6};
    cases.push_back(stridedSliceRandom(ss + "_rank4_steps", type, dims,
                                       {{0, 1, 4, -1}, {3, 4, 0, -7}, {2, 2, -2, -1}}, seed + 10));
    // begin_mask on axes 0 and 2 (begin values ignored), end_mask on axes 1 and 3.
    cases.push_back(stridedSliceRandom(ss + "_masks", type, dims,
                                       {{2, 1, 3, 5}, {3, 9, -4, 0}, {1, 2, -1, 3}, 5, 10, 0}, seed + 11));
    // Every axis shrunk: a single element, shape [1].
    cases.push_back(stridedSliceRandom(ss + "_shrink_all", type, {2, 3, 4},
                                       {{1, -2, 3}, {2, -1, 4}, {1, 1, 1}, 0, 0, 7}, seed + 12));
  }

  // STRIDED_SLICE, more forms (float only): out-of-range and negative indices clamped, an empty
  // dimension-0 range from a masked end on a negative stride, runtime begin, rank 1 and 3.
  {
    cases.push_back(
        stridedSliceRandom("strided_slice_float_clamped", F32, {5, 4}, {{-9, 1}, {100, -100}, {2, -1}}, 900));
    cases.push_back(stridedSliceRandom("strided_slice_float_rank1_reverse_masks", F32, {7},
                                       {{0}, {0}, {-2}, 1, 1, 0}, 901));
    cases.push_back(stridedSliceRandom("strided_slice_float_runtime_begin", F32, {4, 6},
                                       {{1, -5}, {4, 6}, {2, 2}}, 902, true));
    cases.push_back(stridedSliceRandom("strided_slice_float_rank3_shrink_middle", F32, {3, 4, 5},
                                       {{0, -1, 1}, {3, 4, 4}, {1, 1, 1}, 0, 0, 2}, 903));
    cases.push_back(stridedSliceRandom("strided_slice_float_begin_mask_negative_stride", F32, {3, 5},
                                       {{0, 0}, {-4, 1}, {-1, -2}, 3, 0, 0}, 904));
  }

  // EMBEDDING_LOOKUP: F32, F16, I32, Q8, Q8S values.
  const std::pair<OperandType, const char*> kEmbeddingTypes[] = {
      {F32, "float"}, {F16, "float16"}, {I32, "int32"}, {Q8, "quant8"}, {Q8S, "quant8_signed"}};
  for (const auto& [type, suffix] : kEmbeddingTypes) {
    const std::string e = std::string("embedding_lookup_") + suffix;
    const uint32_t seed = 950 + 10 * static_cast<uint32_t>(type);
    // By hand: rows {1, 2} {3, 4} {5, 6}, lookups 2 0 2 -> 5 6 1 2 5 6.
    cases.push_back(embeddingLookupCase(e + "_hand", type, {2, 0, 2}, {{3, 2}, iota(6)}));
    cases.push_back(
        embeddingLookupCase(e + "_rank3", type, {4, 1, 1, 0, 3}, {{5, 3, 2}, randomMoveData(type, 30, seed)}));
    cases.push_back(embeddingLookupCase(e + "_constant_rank4", type, {0, 2},
                                        {{3, 2, 2, 3}, randomMoveData(type, 36, seed + 1)}, true));
  }

  // HASHTABLE_LOOKUP: F32, I32, Q8 values; a miss gives a row of stored zeros and hit 0.
  const std::pair<OperandType, const char*> kHashtableTypes[] = {
      {F32, "float"}, {I32, "int32"}, {Q8, "quant8"}};
  for (const auto& [type, suffix] : kHashtableTypes) {
    const std::string h = std::string("hashtable_lookup_") + suffix;
    const uint32_t seed = 980 + 10 * static_cast<uint32_t>(type);
    // By hand: keys -3 5 10 with rows {1, 2} {3, 4} {5, 6}; lookups 10 4 -3 -> 5 6 | 0 0 | 1 2, hits 1 0 1.
    cases.push_back(hashtableLookupCase(h + "_hand", type, {10, 4, -3}, {-3, 5, 10}, {{3, 2}, iota(6)}));
    cases.push_back(hashtableLookupCase(h + "_hits_and_misses", type, {7, -20, 123, 8, 1000, 42, -21},
                                        {-20, 1, 7, 8, 42, 99, 123, 500},
                                        {{8, 3}, randomMoveData(type, 24, seed)}));
    cases.push_back(hashtableLookupCase(h + "_all_miss_constant", type, {2, 4}, {1, 3, 5},
                                        {{3, 2, 2}, randomMoveData(type, 12, seed + 1)}, true));
    cases.push_back(hashtableLookupCase(h + "_rank1_values", type, {6, 2, 6}, {2, 6},
                                        {{2}, randomMoveData(type, 2, seed + 2)}));
  }
  return cases;
}

}  // namespace nnrt::test::conformance
