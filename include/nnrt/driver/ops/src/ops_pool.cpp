// AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D: implicit or explicit padding, optional NCHW layout.
#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

namespace {
using OT = OperandType;
}  // namespace

// Feature levels: TENSOR_FLOAT32 and TENSOR_QUANT8_ASYMM since 1 (L2_POOL_2D takes floats only),
// TENSOR_FLOAT16 and the layout flag since 3, TENSOR_QUANT8_ASYMM_SIGNED since 4. Android checks no
// rank when the model is built; the rank 4 and the output quantization wait for Check::Full.
Result<void> validatePool(const OpArgs& op) {
  if (op.type == static_cast<int32_t>(OperationType::L2_POOL_2D)) {
    NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32}));
  } else {
    NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  }
  const int32_t type = op.inputs[0].type;
  if (isType(type, OT::TENSOR_FLOAT16)) op.needs(3);
  if (isType(type, OT::TENSOR_QUANT8_ASYMM_SIGNED)) op.needs(4);
  NNRT_RETURN_IF_ERROR(checkRankAtFull(op, 0, "input", 4, 4));
  NNRT_ASSIGN_OR_RETURN(WindowParams w, readWindowParams(op, WindowKind::Pool));
  if (op.inputs.size() > (w.implicit ? 7u : 10u)) op.needs(3);  // the layout flag
  NNRT_RETURN_IF_ERROR(checkOutputType(op, 0));
  return op.full() ? checkSameQuantization(op, 0, 0) : Result<void>{};
}

Result<std::vector<Shape>> inferPool(const OpArgs& op) {
  NNRT_ASSIGN_OR_RETURN(WindowParams w, readWindowParams(op, WindowKind::Pool));
  const auto in = op.inputs[0].dims;
  if (in.size() != 0 && in.size() != 4) return inputError(op, 0, "input", "must have rank 4");
  Shape out(4, 0);
  if (in.empty()) return std::vector<Shape>{out};
  out[0] = in[0];
  if (!w.nchw) return std::vector<Shape>{out};  // the layout is not known yet
  const ImageLayout l = imageLayout(*w.nchw);
  const uint32_t filterH = w.filterH ? static_cast<uint32_t>(*w.filterH) : 0;
  const uint32_t filterW = w.filterW ? static_cast<uint32_t>(*w.filterW) : 0;
  NNRT_ASSIGN_OR_RETURN(out[l.h], windowOutputSize(op, w, true, in[l.h], filterH));
  NNRT_ASSIGN_OR_RETURN(out[l.w], windowOutputSize(op, w, false, in[l.w], filterW));
  out[l.c] = in[l.c];
  return std::vector<Shape>{out};
}

}  // namespace nnrt::ops::detail
