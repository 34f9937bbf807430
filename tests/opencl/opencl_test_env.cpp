#include "opencl/opencl_test_env.hpp"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cmath>
#include <mutex>
#include <random>

#include "support/tensor_data.hpp"

namespace nnrt::opencl::test {
namespace {

const std::filesystem::path kPluginPath = std::filesystem::path(NNRT_PLUGIN_DIR) / "libnnrt_driver_opencl.so";

bool anyDeviceHasFp16(const std::string& name) {
  cl_uint platforms = 0;
  if (clGetPlatformIDs(0, nullptr, &platforms) != CL_SUCCESS || platforms == 0) return false;
  std::vector<cl_platform_id> ids(platforms);
  clGetPlatformIDs(platforms, ids.data(), nullptr);
  for (cl_platform_id p : ids) {
    cl_uint count = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) continue;
    std::vector<cl_device_id> devices(count);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr);
    for (cl_device_id d : devices) {
      char text[1024] = {};
      clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof text - 1, text, nullptr);
      if (name != text) continue;
      size_t size = 0;
      clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, nullptr, &size);
      std::string extensions(size, '\0');
      clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr);
      return extensions.find("cl_khr_fp16") != std::string::npos;
    }
  }
  return false;
}

}  // namespace

Plugin loadPlugin(const Options& options) {
  Plugin p;
  auto library = DriverLibrary::load(kPluginPath, options);
  if (!library) {
    p.error = library.error().message;
    return p;
  }
  p.library = *library;
  const nnrt_driver_api& api = p.library->api();
  if (api.device_count(p.library->plugin()) == 0) {
    p.error = "the opencl plugin offers no device";
    return p;
  }
  p.raw = api.device_at(p.library->plugin(), 0);
  auto device = DriverDevice::create(p.library, p.raw, "opencl-test", config::PerformanceOverride{});
  if (!device) {
    p.error = device.error().message;
    return p;
  }
  p.device = *device;
  p.deviceFp16 = anyDeviceHasFp16(p.device->driverDeviceName());
  return p;
}

const Plugin& plugin(const Options& options) {
  static std::mutex mutex;
  static std::map<Options, std::unique_ptr<Plugin>> plugins;
  std::lock_guard lock(mutex);
  auto& slot = plugins[options];
  if (!slot) slot = std::make_unique<Plugin>(loadPlugin(options));
  return *slot;
}

std::vector<float> randomFloats(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v)
    x = dist(rng);
  return v;
}

size_t elementCount(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims)
    n *= d;
  return n;
}

Result<std::shared_ptr<PreparedModel>> prepare(const Plugin& p, TestModel& model) {
  return p.device->prepareModel(model.view(), NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM, 0,
                                CacheHandles{});
}

std::vector<std::vector<float>> execute(const PreparedModel& prepared, TestModel& model,
                                        const std::vector<std::vector<float>>& inputs) {
  TestRequest request(model.inputs().size(), model.outputs().size());
  for (uint32_t k = 0; k < inputs.size(); ++k) {
    if (model.operandType(model.inputs()[k]) == OperandType::TENSOR_FLOAT16) {
      std::vector<uint16_t> half(inputs[k].size());
      for (size_t i = 0; i < half.size(); ++i)
        half[i] = nnrt::test::floatToHalf(inputs[k][i]);
      request.setInput(k, half);
    } else {
      request.setInput(k, inputs[k]);
    }
  }
  for (uint32_t k = 0; k < model.outputs().size(); ++k) {
    const uint32_t operand = model.outputs()[k];
    const size_t element = model.operandType(operand) == OperandType::TENSOR_FLOAT16 ? 2 : 4;
    request.setOutput(k, elementCount(model.operandDims(operand)) * element);
  }
  auto result = prepared.execute(request.view(), false, 0, 0);
  EXPECT_TRUE(result.has_value()) << (result ? "" : result.error().message);
  std::vector<std::vector<float>> outputs;
  if (!result) return outputs;
  EXPECT_EQ(result->status, driver::ErrorStatus::NONE);
  for (uint32_t k = 0; k < model.outputs().size(); ++k) {
    if (model.operandType(model.outputs()[k]) == OperandType::TENSOR_FLOAT16) {
      std::vector<float> widened;
      for (uint16_t h : request.output<uint16_t>(k))
        widened.push_back(nnrt::test::halfToFloat(h));
      outputs.push_back(std::move(widened));
    } else {
      outputs.push_back(request.output<float>(k));
    }
  }
  return outputs;
}

std::vector<std::vector<float>> run(const Plugin& p, TestModel& model,
                                    const std::vector<std::vector<float>>& inputs) {
  auto prepared = prepare(p, model);
  EXPECT_TRUE(prepared.has_value()) << (prepared ? "" : prepared.error().message);
  if (!prepared) return {};
  return execute(**prepared, model, inputs);
}

void expectClose(const std::vector<float>& actual, const std::vector<float>& expected, float tolerance,
                 const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  size_t failures = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    const float bound = tolerance * std::max(1.0f, std::fabs(expected[i]));
    if (!(std::fabs(actual[i] - expected[i]) <= bound)) {
      ADD_FAILURE() << what << ": element " << i << " is " << actual[i] << ", expected " << expected[i];
      if (++failures == 5) return;
    }
  }
}

}  // namespace nnrt::opencl::test
