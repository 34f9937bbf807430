// The second layer of the cpu driver's kernels: fast implementations of the hot operations, built
// once at preparation for one operation's exact shapes, parameters and constant weights.
//
// Every operation has a reference kernel (the kernel tables of cpu_operations.hpp: readable, the
// one the tests trust). At preparation the driver offers each operation whose shapes and parameters
// are static to the fast layer; the layer either returns a FastKernel (primitives created, weights
// packed, activation fused, scratch memory allocated) or refuses with a reason, and the reference
// kernel runs. At execution a step whose inputs still have their prepared shapes runs its
// FastKernel; anything else (a request that changes a shape) runs the reference kernel.
//
// The layer lives in its own library (libnnrt_cpu_dnnl.so, oneDNN on OpenMP), which the driver
// loads at start-up after bounding how long idle OpenMP threads spin (fast_path_loader.cpp). Without
// that library, or with the option `fast: off`, the driver runs its reference kernels only.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nnrt/driver/activation.hpp"
#include "nnrt/driver/expected.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernels/gemm.hpp"
#include "plugins/cpu/kernels/parallel.hpp"

namespace nnrt::cpu {

class FastKernel {
 public:
  virtual ~FastKernel() = default;
  // What runs, for logs and docs: e.g. "oneDNN brgconv:avx512_core".
  virtual const std::string& name() const = 0;
  // Runs the operation on `call` (the shapes it was prepared for; outputs sized as prepared).
  // Not reentrant: the driver calls the kernels of one device one at a time (CoreLease), each with
  // every thread of the device.
  virtual driver::Result<void> run(const KernelCall& call) = 0;
};

// Element-wise work after a float32 CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D, TRANSPOSE_CONV_2D,
// FULLY_CONNECTED (with no fused activation) or BATCH_MATMUL that its fast kernel applies to each output value before
// writing it: what an exporter spells as separate operations (CpuPreparedModel::matchEpilogue finds
// them). Swish is x * LOGISTIC(x) (SiLU: EfficientNet, YOLOv5+, LLaMA's feed-forward), LeakyRelu a
// PRELU by one constant slope `alpha` (ONNX's LeakyRelu: YOLO, GANs), Multiply and Divide a MUL or DIV
// by one constant `alpha` (attention's scale after a BATCH_MATMUL), the others the NNAPI operation of
// the same name. After a CONV_2D, then, `residual`: an ADD of a tensor of the output's shape and the
// ADD's fused `activation` (a residual network's shortcut: the kernel adds the values its output
// buffer holds when it runs, which the driver puts there, and writes the sums over them).
enum class EpilogueOp : uint8_t { None, Swish, HardSwish, Logistic, Tanh, LeakyRelu, Multiply, Divide };
struct Epilogue {
  EpilogueOp op = EpilogueOp::None;
  float alpha = 0.0f;  // LeakyRelu: the slope below zero; Multiply, Divide: the single constant
  bool residual = false;
  driver::Activation activation = driver::Activation::None;  // the residual ADD's
  bool empty() const { return op == EpilogueOp::None && !residual; }
};
// Its element-wise operation's operations, e.g. "LOGISTIC MUL" (not the residual ADD).
inline const char* epilogueName(const Epilogue& epilogue) {
  switch (epilogue.op) {
    case EpilogueOp::None: return "";
    case EpilogueOp::Swish: return "LOGISTIC MUL";
    case EpilogueOp::HardSwish: return "HARD_SWISH";
    case EpilogueOp::Logistic: return "LOGISTIC";
    case EpilogueOp::Tanh: return "TANH";
    case EpilogueOp::LeakyRelu: return "PRELU";
    case EpilogueOp::Multiply: return "MUL";
    case EpilogueOp::Divide: return "DIV";
  }
  return "";
}
// `epilogue` of `count` values in place, by the reference kernels' functions (an execution that runs
// the reference kernel of a step whose fast kernel took an epilogue), then the residual ADD of
// `residual` (`count` values; null without one).
void applyEpilogue(const Epilogue& epilogue, float* values, size_t count, const float* residual = nullptr);

// Forms the layer makes of a model's constants (weights packed for a product) that several kernels of
// the model may share: the steps of an unrolled recurrence read the same weights, which are then
// packed once and stay in the cache from one step to the next. Keyed by the constant's address and a
// description of the form; one map per model preparation (an address means the same values only
// within one model), and the kernels keep what they take from it.
using SharedForms = std::map<std::pair<const void*, std::string>, std::shared_ptr<const void>>;

// A row-major float32 constant of `rows` x `cols` (one matrix, or several one after the other in memory).
struct ConstantMatrix {
  const float* data;
  size_t rows, cols;
};

// What the driver asks of a fast kernel beyond its operation: an epilogue, and operands read or written
// through strides instead of densely (a TRANSPOSE before or after a BATCH_MATMUL that the driver folded
// into it: the kernel reads the TRANSPOSE's input, or writes its output, in place), and
// where forms of constants shared by the model's kernels go.
struct KernelOptions {
  Epilogue epilogue;
  // Per input (index < inputs) or the output (index == kOutput): the distance in elements between
  // neighbours along each of the operand's dimensions, in the tensor the execution binds to it.
  struct Strided {
    static constexpr int kOutput = -1;
    int index = kOutput;
    std::vector<int64_t> strides;
  };
  std::vector<Strided> strided;
  SharedForms* shared = nullptr;  // null: nothing is shared
  const std::vector<int64_t>* stridesOf(int index) const {
    for (const Strided& s : strided)
      if (s.index == index) return &s.strides;
    return nullptr;
  }
};

class FastLayer {
 public:
  virtual ~FastLayer() = default;
  // The library and the instruction set it runs on, e.g. "oneDNN 2.6.3 (avx512_core)".
  virtual const std::string& description() const = 0;
  // A kernel for `op` (declared shapes, constant values) with its decoded `params`, or
  // INVALID_ARGUMENT with why this layer does not take it (the reference kernel then runs).
  // Thread-safe.
  // `options.epilogue` is applied to the output (None for every operation but those named at
  // Epilogue); strided operands are taken by BATCH_MATMUL only (others refuse them).
  virtual driver::Result<std::unique_ptr<FastKernel>> prepare(const ops::OpArgs& op, const OpParams& params,
                                                              const KernelOptions& options) = 0;
  // Lets `producer` write its output in a layout of the layer's own that `consumer` reads as its
  // input 0 (e.g. the blocked layout of two Winograd convolutions in a row), skipping the copies to
  // and from NNAPI's layout between them. The driver asks only for a tensor that nothing else reads
  // or returns, and then runs the consumer's fast kernel exactly when the producer's ran
  // (CpuPreparedModel::chainFastSteps). Returns whether the two kernels are now chained.
  virtual bool chain(FastKernel& /*producer*/, FastKernel& /*consumer*/) { return false; }
  // The threads the layer's kernels run on, for the reference kernels of an execution that holds
  // every core (detail::ScopedExecutor); null: they keep to oneTBB.
  virtual const detail::ParallelExecutor* executor() const { return nullptr; }
  // A single-threaded SGEMM for the reference kernels' products (detail::ScopedSgemm), callable from
  // any thread of the device; null: they keep to OpenBLAS.
  virtual detail::SgemmFn sgemm() const { return nullptr; }
  // The matrix-vector products a reference kernel does over `matrices` (constants of one step: a
  // recurrent operation's weights, KernelEntry::stepMatrices), prepared in the layer's own form
  // (detail::ScopedProducts at execution); null when the layer has none. Thread-safe.
  virtual std::unique_ptr<detail::PreparedProducts> prepareProducts(std::span<const ConstantMatrix> /*matrices*/,
                                                                    SharedForms* /*shared*/) {
    return nullptr;
  }
};

// Light operations: element-wise arithmetic, activations, SOFTMAX and TRANSPOSE, a few operations per
// element. On few elements the fast layer loses to the reference kernels (waking the OpenMP team and
// taking every core cost microseconds, the reference kernel less): the driver offers a light
// operation to the layer only from kFastMinElements output elements on (the device option
// fast_min_elements). CONCATENATION is not offered at all: the reference kernel's copies beat
// oneDNN's concat at every size, next to fast kernels too. Measurements: docs/cpu-performance.md.
bool isLightOperation(int32_t type);
inline constexpr size_t kFastMinElements = 32768;

// How the fast layer is set up (the cpu device's options).
struct FastLayerOptions {
  int threads = 1;        // the threads of every kernel (oneDNN's OpenMP team)
  bool winograd = true;   // 3x3 stride-1 float32 CONV_2D as Winograd F(2x2, 3x3) where it wins
};

// The fast layer library's one entry point. The driver and the library are built and installed
// together; the entry's name carries the version of the options and of the FastLayer interface.
using CreateFastLayerFn = FastLayer* (*)(const FastLayerOptions& options);
inline constexpr const char* kFastLayerLibrary = "libnnrt_cpu_dnnl.so";
inline constexpr const char* kFastLayerEntry = "nnrt_cpu_create_fast_layer_6";

// Loads the fast layer from `directory` (the driver passes its own; empty: beside the driver's
// library). Returns null, with the reason in `why`, when it is missing or fails to load.
std::unique_ptr<FastLayer> loadFastLayer(const std::filesystem::path& directory, const FastLayerOptions& options,
                                         std::string& why);

}  // namespace nnrt::cpu
