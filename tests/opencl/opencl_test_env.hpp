// Shared by the opencl driver tests: the real plugin file loaded through the runtime's DriverLibrary
// and DriverDevice (once per option set for the whole test binary, since PoCL compiles with LLVM),
// models and requests built with tests/support, and comparison helpers.
//
// Every model is built from the same embedded program source with the same options per precision,
// so PoCL compiles that program once per precision; later builds hit its kernel cache.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/device/driver_device.hpp"
#include "core/device/driver_library.hpp"
#include "support/test_model.hpp"

namespace nnrt::opencl::test {

using driver::OperandType;
using driver::OperationType;
using nnrt::test::TestModel;
using nnrt::test::TestRequest;
using Options = std::vector<std::pair<std::string, std::string>>;

struct Plugin {
  std::shared_ptr<DriverLibrary> library;
  std::shared_ptr<DriverDevice> device;  // the first device the plugin offers
  nnrt_device* raw = nullptr;            // the same, for calls the runtime wrapper does not offer
  std::string error;                     // why it did not load
  bool deviceFp16 = false;               // the device has cl_khr_fp16
};

// The plugin opened with `options` ({calibrate: false} by default), loaded once per option set.
const Plugin& plugin(const Options& options = {{"calibrate", "false"}});
// Loads a fresh instance (not cached), for tests about opening itself.
Plugin loadPlugin(const Options& options);

// Skips the test (with the reason) when the machine has no OpenCL platform at all; any other load
// failure fails the test.
#define NNRT_REQUIRE_OPENCL(p)                                                                  \
  do {                                                                                          \
    if (!(p).device) {                                                                          \
      if ((p).error.find("no OpenCL platform") != std::string::npos) GTEST_SKIP() << (p).error; \
      FAIL() << (p).error;                                                                      \
    }                                                                                           \
  } while (0)

std::vector<float> randomFloats(size_t n, float lo, float hi, uint32_t seed);
size_t elementCount(const std::vector<uint32_t>& dims);

// Prepares `model` on the plugin's device (no cache).
Result<std::shared_ptr<PreparedModel>> prepare(const Plugin& p, TestModel& model);

// Runs a prepared model with float32 inputs (narrowed to float16 for TENSOR_FLOAT16 model inputs) and
// returns float32 outputs (widened from float16), sized from the model's declared output shapes.
std::vector<std::vector<float>> execute(const PreparedModel& prepared, TestModel& model,
                                        const std::vector<std::vector<float>>& inputs);
// prepare() + execute(), failing the test on any error.
std::vector<std::vector<float>> run(const Plugin& p, TestModel& model,
                                    const std::vector<std::vector<float>>& inputs);

// |actual - expected| <= tolerance * max(1, |expected|) for every element.
void expectClose(const std::vector<float>& actual, const std::vector<float>& expected, float tolerance,
                 const std::string& what);

inline constexpr float kFloat32Tolerance = 1e-4f;
inline constexpr float kFloat16Tolerance = 1e-2f;

}  // namespace nnrt::opencl::test
