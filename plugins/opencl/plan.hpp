// What one execution of a model does on the device, for one set of input shapes: every operand's
// shape and the kernel launches in order, each argument naming an operand (whose buffer the execution
// binds) or a value. Built once at preparation when every shape is known, else per execution.
// Immutable once built; shared between executions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nnrt/driver/ops/operation.hpp"
#include "plugins/opencl/model_copy.hpp"

namespace nnrt::opencl {

inline ops::Shape shapeOf(std::span<const uint32_t> dims) {
  return ops::Shape(dims.begin(), dims.end());
}

struct KernelArg {
  enum class Kind { Buffer, Int, Int4, Float, LocalBytes };
  Kind kind = Kind::Int;
  uint32_t operand = 0;           // Buffer: the operand whose device buffer is passed
  std::array<int32_t, 4> ints{};  // Int (ints[0]) and Int4
  float real = 0.0f;              // Float
  size_t bytes = 0;               // LocalBytes: size of a __local argument

  static KernelArg buffer(uint32_t operand) { return {Kind::Buffer, operand, {}, 0.0f, 0}; }
  static KernelArg integer(int32_t v) { return {Kind::Int, 0, {v, 0, 0, 0}, 0.0f, 0}; }
  static KernelArg int4(std::array<int32_t, 4> v) { return {Kind::Int4, 0, v, 0.0f, 0}; }
  static KernelArg number(float v) { return {Kind::Float, 0, {}, v, 0}; }
  static KernelArg local(size_t bytes) { return {Kind::LocalBytes, 0, {}, 0.0f, bytes}; }
};

struct Launch {
  std::string kernel;
  std::vector<KernelArg> args;
  uint32_t dimensions = 1;
  std::array<size_t, 2> global{0, 0};
  std::array<size_t, 2> local{0, 0};
};

struct Plan {
  std::vector<ops::Shape> shapes;  // per operand of the main subgraph
  std::vector<Launch> launches;
};

// What the launchers may choose from on this device and program.
struct LaunchLimits {
  size_t maxWorkGroupSize = 1;
  std::vector<bool> gemmUsable;  // per gemmConfigs() entry: its kernels fit the device
};

// Shapes of the model inputs, in input order, every dimension known. Fails with INVALID_ARGUMENT when
// the shapes do not fit the model (naming the operation), with GENERAL_FAILURE when the device cannot
// run it (a tensor too large for 32-bit indexing, no GEMM tile that fits).
driver::Result<std::shared_ptr<const Plan>> buildPlan(const ModelCopy& model,
                                                      std::span<const ops::Shape> inputShapes,
                                                      const LaunchLimits& limits);

// Adds the launches of one operation. `in` and `out` are the operand indexes of the operation's
// inputs and outputs; `op` carries their shapes (all known) and the constant parameters.
driver::Result<void> planOperation(const ops::OpArgs& op, std::span<const uint32_t> in,
                                   std::span<const uint32_t> out, const LaunchLimits& limits,
                                   std::vector<Launch>& launches);

namespace detail {
// launch_elementwise.cpp
driver::Result<void> planBinary(const ops::OpArgs& op, std::span<const uint32_t> in, uint32_t out,
                                const LaunchLimits& limits, std::vector<Launch>& launches);
driver::Result<void> planActivation(const ops::OpArgs& op, uint32_t in, uint32_t out,
                                    const LaunchLimits& limits, std::vector<Launch>& launches);
driver::Result<void> planReshape(const ops::OpArgs& op, uint32_t in, uint32_t out, const LaunchLimits& limits,
                                 std::vector<Launch>& launches);
driver::Result<void> planConcatenation(const ops::OpArgs& op, std::span<const uint32_t> in, uint32_t out,
                                       const LaunchLimits& limits, std::vector<Launch>& launches);
driver::Result<void> planSoftmax(const ops::OpArgs& op, uint32_t in, uint32_t out, const LaunchLimits& limits,
                                 std::vector<Launch>& launches);
// launch_window.cpp
driver::Result<void> planFullyConnected(const ops::OpArgs& op, std::span<const uint32_t> in, uint32_t out,
                                        const LaunchLimits& limits, std::vector<Launch>& launches);
driver::Result<void> planConv2D(const ops::OpArgs& op, std::span<const uint32_t> in, uint32_t out,
                                const LaunchLimits& limits, std::vector<Launch>& launches);
driver::Result<void> planDepthwiseConv2D(const ops::OpArgs& op, std::span<const uint32_t> in, uint32_t out,
                                         const LaunchLimits& limits, std::vector<Launch>& launches);
driver::Result<void> planPool(const ops::OpArgs& op, uint32_t in, uint32_t out, const LaunchLimits& limits,
                              std::vector<Launch>& launches);

// A one-dimensional launch of `count` work-items (rounded up to the work-group size).
Launch linearLaunch(std::string kernel, size_t count, const LaunchLimits& limits);
int32_t toInt(size_t value);  // callers have checked that every element count fits in int32
}  // namespace detail

}  // namespace nnrt::opencl
