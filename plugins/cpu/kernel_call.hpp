// Reading a KernelCall: the helpers every table file of the cpu driver uses to turn a call into
// the arguments of a kernel of kernels/.
#pragma once

#include <variant>
#include <vector>

#include "nnrt/driver/ops/operation.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

inline Shape shapeOf(const ops::Arg& arg) {
  return Shape{std::vector<uint32_t>(arg.dims.begin(), arg.dims.end())};
}
inline Quant quantOf(const ops::Arg& arg) {
  return Quant{arg.scale, arg.zeroPoint};
}
inline size_t elementsOf(const ops::Arg& arg) {
  return shapeOf(arg).elements();
}
template <class T>
const T* input(const KernelCall& c, size_t i) {
  return static_cast<const T*>(c.op.inputs[i].data);
}
template <class T>
T* output(const KernelCall& c, size_t i = 0) {
  return static_cast<T*>(c.outputData[i]);
}

// The decoded parameters of the kind the table row promised.
template <class P>
driver::Result<const P*> paramsOf(const KernelCall& c) {
  const P* p = std::get_if<P>(&c.params);
  if (p == nullptr) {
    return driver::generalFailure("cpu driver bug: " + ops::operationName(c.op.type) +
                                  " got parameters of the wrong kind");
  }
  return p;
}

// A table row's decode function from an SDK decoder (ops::decodeConv2D, ...).
template <auto Decode>
driver::Result<OpParams> decodeWith(const ops::OpArgs& op) {
  NNRT_ASSIGN_OR_RETURN(auto params, Decode(op));
  return OpParams(std::move(params));
}
inline driver::Result<OpParams> noParams(const ops::OpArgs&) {
  return OpParams{};
}

}  // namespace nnrt::cpu
