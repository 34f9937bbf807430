#include "plugins/cpu/cpu_device.hpp"

#include <cblas.h>
#include <oneapi/tbb/version.h>

namespace nnrt::cpu {

CpuDevice::CpuDevice(int threads) : threads_(threads) {
  // openblas_get_config() reads "OpenBLAS 0.3.21 NO_LAPACKE ...": keep the first two words.
  std::string blas = openblas_get_config();
  blas = blas.substr(0, blas.find(' ', blas.find(' ') + 1));
  version_ = "0.1.0 (" + blas + ", oneTBB " + TBB_VERSION_STRING + ")";
  // The reference device: every operand type costs 1.0 in time and power.
  for (auto type : {driver::OperandType::FLOAT32, driver::OperandType::INT32, driver::OperandType::UINT32,
                    driver::OperandType::TENSOR_FLOAT32, driver::OperandType::TENSOR_INT32,
                    driver::OperandType::TENSOR_QUANT8_ASYMM, driver::OperandType::BOOL}) {
    capabilities_.operandPerformance.push_back({static_cast<int32_t>(type), {1.0f, 1.0f}});
  }
}

driver::Result<std::vector<bool>> CpuDevice::getSupportedOperations_1_3(const driver::Model& model,
                                                                        const driver::Explainer& explain) const {
  std::vector<bool> supported(model.main().operations().size(), false);
  for (uint32_t i = 0; i < supported.size(); ++i) explain(i, "the cpu driver has no kernels yet");
  return supported;
}

driver::Result<std::unique_ptr<driver::PreparedModel>> CpuDevice::prepareModel_1_3(const driver::Model&,
                                                                                   const driver::PrepareOptions&,
                                                                                   const driver::CacheFiles&) const {
  return driver::invalidArgument("the cpu driver has no kernels yet");
}

}  // namespace nnrt::cpu
