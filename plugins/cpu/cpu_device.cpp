#include "plugins/cpu/cpu_device.hpp"

#include <algorithm>
#include <utility>

#include <cblas.h>
#include <dlfcn.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/version.h>

#include "nnrt/driver/clock.hpp"
#include "nnrt/driver/ops/operand_types.hpp"
#include "nnrt/driver/ops/operation.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/cpu_prepared_model.hpp"

namespace nnrt::cpu {

namespace {

// More threads than the machine has would only oversubscribe it (and oneTBB refuses them anyway).
int usableThreads(int requested) {
  return std::max(1, std::min(requested, tbb::info::default_concurrency()));
}

}  // namespace

CpuDevice::CpuDevice(int threads, bool fast, size_t minElements, bool winograd, bool fusion, std::string profile)
    : threads_(std::make_shared<tbb::task_arena>(usableThreads(threads))),
      minElements_(minElements),
      fusion_(fusion),
      profile_(std::move(profile)) {
  threads_->initialize();
  // OpenBLAS single-threaded: after each call its threads spin (sched_yield) for tens of milliseconds,
  // against the OpenMP team and oneTBB (the unrolled GRU's two oneDNN products took 300 and 220 us
  // beside them, 100 and 40 without). The kernels split their products themselves (kernels/gemm.hpp).
  const bool pooled = openblas_get_num_threads() > 1;
  openblas_set_num_threads(1);
  // OpenBLAS started its pool when it was loaded (with this plugin), and the pool's threads spin
  // until their timeout, 0.1 s or so, beside the preparation and the first executions (the MLP's
  // first 300 executions at 2.1k/s instead of 2.9-3.1k/s). OpenBLAS's own shutdown of the pool (what
  // it does before a fork) stops them; a call that needs threads again would start a new pool.
  if (pooled) {
    using Shutdown = int (*)();
    if (auto shutdown = reinterpret_cast<Shutdown>(dlsym(RTLD_DEFAULT, "blas_thread_shutdown_"))) shutdown();
  }
  // openblas_get_config() reads "OpenBLAS 0.3.21 NO_LAPACKE ...": keep the first two words.
  std::string blas = openblas_get_config();
  blas = blas.substr(0, blas.find(' ', blas.find(' ') + 1));
  // The version string says which kernels run (`nnrt devices` shows it), and why not the fast ones.
  std::string kernels = "reference kernels only: option fast is off";
  if (fast) {
    std::string why;
    fast_ = loadFastLayer({}, FastLayerOptions{usableThreads(threads), winograd}, why);
    kernels = fast_ ? "fast layer: " + fast_->description() : "reference kernels only: " + why;
  }
  version_ = "0.1.0 (" + blas + ", oneTBB " + TBB_VERSION_STRING + "; " + kernels + ")";
  // The reference device: every operand type its kernels take costs 1.0 in time and power (sorted
  // by type, as the ABI asks).
  using OT = driver::OperandType;
  for (auto type : {OT::FLOAT32, OT::INT32, OT::UINT32, OT::TENSOR_FLOAT32, OT::TENSOR_INT32, OT::TENSOR_QUANT8_ASYMM,
                    OT::BOOL, OT::TENSOR_FLOAT16, OT::TENSOR_BOOL8, OT::FLOAT16,
                    OT::TENSOR_QUANT8_SYMM_PER_CHANNEL, OT::TENSOR_QUANT8_SYMM, OT::TENSOR_QUANT8_ASYMM_SIGNED}) {
    capabilities_.operandPerformance.push_back({static_cast<int32_t>(type), {1.0f, 1.0f}});
  }
  // The listing of ABI 1.1, from the kernel tables selectKernel() answers from.
  for (const auto& table : kernelTables()) {
    for (const KernelEntry& entry : table) {
      operationTable_.push_back({static_cast<int32_t>(entry.operation), static_cast<int32_t>(entry.inputType)});
    }
  }
  auto key = [](const nnrt_operation_support& s) { return std::pair(s.operation, s.operand_type); };
  std::sort(operationTable_.begin(), operationTable_.end(),
            [&](const auto& a, const auto& b) { return key(a) < key(b); });
  operationTable_.erase(std::unique(operationTable_.begin(), operationTable_.end(),
                                    [&](const auto& a, const auto& b) { return key(a) == key(b); }),
                        operationTable_.end());
}

driver::Result<std::vector<bool>> CpuDevice::getSupportedOperations_1_3(
    const driver::Model& model, const driver::Explainer& explain) const {
  const driver::Subgraph main = model.main();
  const auto operations = main.operations();
  std::vector<bool> supported(operations.size(), false);
  for (uint32_t i = 0; i < operations.size(); ++i) {
    const std::vector<ops::Arg> inputs = ops::inputArgs(model, main, operations[i]);
    const std::vector<ops::Arg> outputs = ops::outputArgs(model, main, operations[i]);
    std::string deferred;
    auto kernel = selectKernel(
        ops::OpArgs{operations[i].type, inputs, outputs, model.relaxComputationFloat32toFloat16()}, &deferred);
    supported[i] = kernel.has_value();
    if (!kernel) {
      explain(i, kernel.error().message);
    } else if (!deferred.empty()) {
      explain(i, "taken, but it will fail when it runs (OP_FAILED), as on Android: " + deferred);
    }
  }
  return supported;
}

driver::Result<std::unique_ptr<driver::PreparedModel>> CpuDevice::prepareModel_1_3(
    const driver::Model& model, const driver::PrepareOptions& options,
    const driver::CacheFiles& /*cache*/) const {
  if (options.deadlineNs != 0) {
    if (driver::deadlinePassed(options.deadlineNs)) {
      return driver::fail(driver::ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                          "the deadline passed before preparation");
    }
  }
  NNRT_ASSIGN_OR_RETURN(auto prepared,
                        CpuPreparedModel::create(model, threads_, lease_, fast_, minElements_, fusion_, profile_));
  return std::unique_ptr<driver::PreparedModel>(std::move(prepared));
}

driver::Result<std::unique_ptr<driver::Buffer>> CpuDevice::allocate(const driver::BufferDesc& desc,
                                                                    std::span<driver::PreparedModel* const>,
                                                                    std::span<const nnrt_buffer_role>,
                                                                    std::span<const nnrt_buffer_role>) const {
  std::optional<uint64_t> bytes = ops::byteSize(desc.type, desc.dimensions);
  if (ops::isTensorType(desc.type) && desc.dimensions.empty()) bytes.reset();
  if (!bytes || *bytes == 0) {
    return driver::invalidArgument("the cpu allocates buffers of known size only (" + ops::typeName(desc.type) + " " +
                                   ops::shapeToString(desc.dimensions) + ")");
  }
  return std::unique_ptr<driver::Buffer>(new driver::HostBuffer(static_cast<size_t>(*bytes)));
}

}  // namespace nnrt::cpu
