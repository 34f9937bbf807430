// Loading the fast layer (libnnrt_cpu_dnnl.so) beside the driver.
//
// oneDNN, as Debian builds it, runs on OpenMP (libgomp). libgomp reads its environment once, when it
// is loaded, and by default lets an idle team thread spin for a long while (milliseconds) before it
// sleeps: on a busy machine those spinning threads take cores from other work. Loading the layer
// here, after the driver has started, lets the driver bound that spin first: unless the user set
// OMP_WAIT_POLICY or GOMP_SPINCOUNT, a team thread spins for at most kSpinCount polls (tens of
// microseconds: long enough to bridge the gap between two layers of one execution, which a sleeping
// team pays ~25 µs per layer for) and then sleeps. An application that loaded libgomp before nnrt
// keeps its own setting.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "plugins/cpu/fast_path.hpp"
#include "plugins/cpu/kernels/activation.hpp"
#include "plugins/cpu/kernels/exp_float.hpp"
#include "plugins/cpu/kernels/nonlinear.hpp"
#include "plugins/cpu/kernels/parallel.hpp"

namespace nnrt::cpu {
namespace {

constexpr const char* kSpinCount = "3000";

std::filesystem::path ownDirectory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&loadFastLayer), &info) == 0 || info.dli_fname == nullptr) return {};
  return std::filesystem::path(info.dli_fname).parent_path();
}

}  // namespace

std::unique_ptr<FastLayer> loadFastLayer(const std::filesystem::path& directory, const FastLayerOptions& options,
                                         std::string& why) {
  if (std::getenv("OMP_WAIT_POLICY") == nullptr && std::getenv("GOMP_SPINCOUNT") == nullptr)
    setenv("GOMP_SPINCOUNT", kSpinCount, 0);
  const std::filesystem::path path = (directory.empty() ? ownDirectory() : directory) / kFastLayerLibrary;
  // Never unloaded (RTLD_NODELETE): OpenMP's threads outlive any one device.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (library == nullptr) {
    const char* error = dlerror();
    why = "cannot load " + path.string() + ": " + (error != nullptr ? error : "unknown error");
    return nullptr;
  }
  auto create = reinterpret_cast<CreateFastLayerFn>(dlsym(library, kFastLayerEntry));
  if (create == nullptr) {
    why = path.string() + " has no " + kFastLayerEntry;
    return nullptr;
  }
  std::unique_ptr<FastLayer> layer(create(options));
  if (layer == nullptr) why = path.string() + " could not start (no usable CPU engine)";
  return layer;
}

bool isLightOperation(int32_t type) {
  using driver::OperationType;
  switch (static_cast<OperationType>(type)) {
    case OperationType::ADD:
    case OperationType::SUB:
    case OperationType::MUL:
    case OperationType::DIV:
    case OperationType::MAXIMUM:
    case OperationType::MINIMUM:
    case OperationType::RELU:
    case OperationType::RELU1:
    case OperationType::RELU6:
    case OperationType::LOGISTIC:
    case OperationType::TANH:
    case OperationType::HARD_SWISH:
    case OperationType::ELU:
    case OperationType::PRELU:
    case OperationType::SOFTMAX:
    case OperationType::TRANSPOSE:
      return true;
    default:
      return false;
  }
}

namespace {

// The epilogue's element-wise operation, by the reference kernels' functions.
void applyOperation(const Epilogue& epilogue, float* values, size_t count) {
  switch (epilogue.op) {
    case EpilogueOp::None:
      return;
    case EpilogueOp::Swish:
      // As LOGISTIC then MUL compute each value (the same float operations, so the same bits).
      detail::parallelFor(count, 16, [values](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) values[i] *= 1.0f / (1.0f + expFloat(-values[i]));
      });
      return;
    case EpilogueOp::HardSwish:
      return hardSwish(values, count, values);
    case EpilogueOp::Logistic:
      return logistic(values, count, values);
    case EpilogueOp::Tanh:
      return tanh(values, count, values);
    case EpilogueOp::Multiply: {  // as MUL and DIV compute it
      const float k = epilogue.alpha;
      detail::parallelFor(count, 1, [values, k](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) values[i] = values[i] * k;
      });
      return;
    }
    case EpilogueOp::Divide: {
      const float k = epilogue.alpha;
      detail::parallelFor(count, 1, [values, k](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) values[i] = values[i] / k;
      });
      return;
    }
    case EpilogueOp::LeakyRelu: {
      // As PRELU computes it (kernels/nonlinear.cpp).
      const Shape one{{1}};
      const float alpha = epilogue.alpha;
      const Shape all{{static_cast<uint32_t>(count)}};
      return prelu(values, all, &alpha, one, values, all);
    }
  }
}

}  // namespace

void applyEpilogue(const Epilogue& epilogue, float* values, size_t count, const float* residual) {
  applyOperation(epilogue, values, count);
  if (!epilogue.residual) return;
  // As ADD computes it (kernels/elementwise.cpp): the sum, then the fused activation's clamp.
  const driver::FloatRange range = driver::activationRange(epilogue.activation);
  detail::parallelFor(count, 1, [values, residual, range](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) values[i] = std::min(std::max(values[i] + residual[i], range.min), range.max);
  });
}

}  // namespace nnrt::cpu
