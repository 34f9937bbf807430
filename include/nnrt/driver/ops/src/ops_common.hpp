// Internal to core/ops: helpers shared by the operation family files (ops_*.cpp) and the parameter
// decoders. Every reader here is defensive: it reads a value only when the operand has the expected
// type and enough bytes, and reports "not known yet" otherwise, so shape inference can run on
// operations that validation has not accepted.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nnrt/driver/ops/operation.hpp"

namespace nnrt::ops::detail {

using driver::Result;
using Types = std::initializer_list<OperandType>;

inline constexpr uint32_t kMaxRank = 4;  // "Supported tensor rank: up to 4"
// The data types most operations take up to feature level 4.
inline constexpr Types kDataTypes = {OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                                     OperandType::TENSOR_QUANT8_ASYMM,
                                     OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

// ---- Messages ---------------------------------------------------------------------------------

// "CONV_2D input 1 (filter)", or "CONV_2D input 1" when name is empty.
std::string inputLabel(const OpArgs& op, size_t index, std::string_view name);
// "CONV_2D output 0"
std::string outputLabel(const OpArgs& op, size_t index);
Unexpected<driver::Error> inputError(const OpArgs& op, size_t index, std::string_view name,
                                     const std::string& problem);
Unexpected<driver::Error> outputError(const OpArgs& op, size_t index, const std::string& problem);
// "... (axis) must be in [-4, 4) for input 0 of rank 4, not 5"
Unexpected<driver::Error> axisError(const OpArgs& op, size_t index, std::string_view name, int32_t axis,
                                    uint32_t rank);
// A float with 9 significant digits, e.g. "0.00390625".
std::string formatFloat(float value);
// "TENSOR_FLOAT16, TENSOR_FLOAT32 or TENSOR_INT32"
std::string typeList(Types types);

// ---- Reading values that may not be known yet -------------------------------------------------

// Input i exists and was given a value or a declaration (not an omitted optional input).
bool isPresent(const OpArgs& op, size_t index);
std::optional<int32_t> knownInt32(const Arg& arg);  // an INT32 scalar with its value
std::optional<bool> knownBool(const Arg& arg);      // a BOOL scalar with its value
std::optional<float> knownFloat(const Arg& arg);    // a FLOAT32 or FLOAT16 scalar with its value
// The values of a TENSOR_INT32 operand whose value is known.
std::optional<std::vector<int32_t>> knownInt32Tensor(const Arg& arg);

// ---- Checks shared by the signatures ------------------------------------------------------------

bool typeIn(int32_t type, Types types);
// Input `index` is present and of one of `allowed`.
Result<void> checkInputType(const OpArgs& op, size_t index, std::string_view name, Types allowed);
// Input `index` has the type of input `like` ("must be TENSOR_FLOAT32 like input 0, not ...").
Result<void> checkSameType(const OpArgs& op, size_t index, std::string_view name, size_t like);
// Output `index` has the type of input 0.
Result<void> checkOutputType(const OpArgs& op, size_t index);
// A required scalar parameter of exactly this type.
Result<void> checkScalar(const OpArgs& op, size_t index, std::string_view name, OperandType type);
// An optional scalar parameter: absent, omitted, or of this type.
Result<void> checkOptionalScalar(const OpArgs& op, size_t index, std::string_view name, OperandType type);
// Known rank of input `index` within [minRank, maxRank] (an unknown rank passes).
Result<void> checkRank(const OpArgs& op, size_t index, std::string_view name, uint32_t minRank,
                       uint32_t maxRank);
// A FuseCode scalar: INT32, and 0..3 when known.
Result<void> checkFuseCode(const OpArgs& op, size_t index);
// For quantized types: output `out` has the scale and zero point of input `in`.
Result<void> checkSameQuantization(const OpArgs& op, size_t out, size_t in);
// For TENSOR_QUANT8_ASYMM (zeroPoint) and _SIGNED (signedZeroPoint): the fixed output scale.
Result<void> checkFixedOutputQuantization(const OpArgs& op, size_t out, float scale, int32_t zeroPoint,
                                          int32_t signedZeroPoint);
// A TENSOR_QUANT8_SYMM_PER_CHANNEL operand quantized along `channelDim` with one positive scale per
// channel. Checked only when the Arg carries its operand description.
Result<void> checkPerChannel(const OpArgs& op, size_t index, std::string_view name, uint32_t channelDim);
// The bias of FULLY_CONNECTED / CONV_2D / DEPTHWISE_CONV_2D, as the filter type decides.
Result<void> checkBias(const OpArgs& op, size_t bias, size_t input, size_t filter);
// Only the type of that bias (what Android checks when the model is built): the input's type for a
// float input, TENSOR_INT32 for a quantized one. Its zero point and scale are checkBias's.
Result<void> checkBiasType(const OpArgs& op, size_t bias, size_t input);
// The declared type of input `index`, also when it is an omitted optional input: Android checks
// the type of every operand an operation lists, given a value or not.
Result<void> checkDeclaredType(const OpArgs& op, size_t index, std::string_view name, OperandType type);
// checkRank, but only at Check::Full and for a present input: the ranks Android checks when the
// operation is prepared rather than when the model is built.
Result<void> checkRankAtFull(const OpArgs& op, size_t index, std::string_view name, uint32_t minRank,
                             uint32_t maxRank);
// Every listed input has a known rank (Android checks some ranks only then).
inline bool ranksKnown(const OpArgs& op, std::initializer_list<size_t> inputs) {
  for (size_t i : inputs) {
    if (i >= op.inputs.size() || op.inputs[i].rank() == 0) return false;
  }
  return true;
}

// ---- Shapes -----------------------------------------------------------------------------------

inline Shape toShape(std::span<const uint32_t> dims) {
  return Shape(dims.begin(), dims.end());
}
// NumPy-style broadcast from the trailing dimension; an unknown rank gives an unknown rank, an
// unknown dimension stays unknown unless the other side decides it.
Result<Shape> broadcastShapes(std::span<const uint32_t> a, std::span<const uint32_t> b);
// Output 0 has the shape of input 0 (element-wise operations).
Result<std::vector<Shape>> inferLikeInput0(const OpArgs& op);
// An axis in [-rank, rank) made non-negative; nullopt when out of range.
std::optional<uint32_t> normalizeAxis(int32_t axis, uint32_t rank);
// The output of a reduction of input 0 over the axes in input 1 (MEAN, REDUCE_*): reduced
// dimensions kept as 1 when `keep`, dropped otherwise ([1] when all are dropped). An unknown `keep`
// gives an unknown rank; unknown axes, unknown dimensions.
Result<std::vector<Shape>> reducedShape(const OpArgs& op, std::optional<bool> keep);

// ---- 2-D windows (CONV_2D, DEPTHWISE_CONV_2D, the pools) ----------------------------------------

enum class WindowKind { Conv, Depthwise, Pool };
inline constexpr int32_t kPaddingSame = 1;
inline constexpr int32_t kPaddingValid = 2;

// The scalar parameters of a windowed operation, each when known. Optional inputs that are absent
// or omitted take their defaults (NHWC, dilation 1).
struct WindowParams {
  bool implicit = false;
  std::optional<int32_t> paddingCode;                           // implicit form
  std::optional<int32_t> padLeft, padRight, padTop, padBottom;  // explicit form
  std::optional<int32_t> strideW, strideH;
  std::optional<int32_t> dilationW = 1, dilationH = 1;
  std::optional<int32_t> filterW, filterH;  // pools; convolutions read them from the filter
  std::optional<int32_t> depthMultiplier;   // DEPTHWISE_CONV_2D
  std::optional<int32_t> activation;
  size_t activationIndex = 0;  // position of the FuseCode input
  std::optional<bool> nchw = false;
};

// Tells the implicit form from the explicit one (by the input count and, where a count fits both,
// by whether the first optional position holds a BOOL), checks the parameter types and the known
// values (padding code, strides, pads, dilation, filter size, multiplier, FuseCode).
Result<WindowParams> readWindowParams(const OpArgs& op, WindowKind kind);

// Output size along one spatial dimension (0 when unknown). Fails when the padded input is smaller
// than the dilated filter.
Result<uint32_t> windowOutputSize(const OpArgs& op, const WindowParams& w, bool height, uint32_t in,
                                  uint32_t filter);

// Positions of height, width and channels in a 4-D image tensor.
struct ImageLayout {
  size_t h, w, c;
};
inline ImageLayout imageLayout(bool nchw) {
  return nchw ? ImageLayout{2, 3, 1} : ImageLayout{1, 2, 3};
}

}  // namespace nnrt::ops::detail
