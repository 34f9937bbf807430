#include "plugins/opencl/cl_context.hpp"

#include <algorithm>

#include "plugins/opencl/cl_errors.hpp"

namespace nnrt::opencl {
namespace {

constexpr size_t kLogExcerpt = 160;  // the reason buffer holds 256 bytes in all

// The lines of a build log that report errors, or the start of the log when none says "error".
std::string logExcerpt(const std::string& log) {
  std::string errors;
  size_t start = 0;
  while (start < log.size() && errors.size() < kLogExcerpt) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    std::string_view line(log.data() + start, end - start);
    if (line.find("error") != std::string_view::npos) {
      if (!errors.empty()) errors += " | ";
      errors += line;
    }
    start = end + 1;
  }
  std::string text = errors.empty() ? log : errors;
  std::replace(text.begin(), text.end(), '\n', ' ');
  if (text.size() > kLogExcerpt) text = text.substr(0, kLogExcerpt) + "...";
  return text;
}

std::string buildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS)
    return {};
  std::string log(size, '\0');
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) != CL_SUCCESS) {
    return {};
  }
  log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
  return log;
}

}  // namespace

driver::Result<std::shared_ptr<DeviceContext>> DeviceContext::create(ClDeviceInfo info) {
  std::shared_ptr<DeviceContext> ctx(new DeviceContext(std::move(info)));
  const cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(ctx->info_.platform), 0};
  cl_int err = CL_SUCCESS;
  ctx->context_.reset(clCreateContext(properties, 1, &ctx->info_.device, nullptr, nullptr, &err));
  if (err != CL_SUCCESS) return clFail(err, "clCreateContext for '" + ctx->info_.name + "'");
  return ctx;
}

driver::Result<ClProgram> DeviceContext::finishBuild(ClProgram program, const std::string& options,
                                                     const char* what) const {
  const cl_int err = clBuildProgram(program.get(), 1, &info_.device, options.c_str(), nullptr, nullptr);
  if (err == CL_SUCCESS) return program;
  driver::Error error = clError(err, what);
  const std::string log = buildLog(program.get(), info_.device);
  if (!log.empty()) error.message += "; build log: " + logExcerpt(log);
  noteError(error);
  return Unexpected(std::move(error));
}

driver::Result<ClProgram> DeviceContext::buildFromSource(const std::string& source,
                                                         const std::string& options) const {
  const char* text = source.c_str();
  const size_t length = source.size();
  cl_int err = CL_SUCCESS;
  ClProgram program(clCreateProgramWithSource(context_.get(), 1, &text, &length, &err));
  if (err != CL_SUCCESS) return clFail(err, "clCreateProgramWithSource");
  return finishBuild(std::move(program), options, "clBuildProgram");
}

driver::Result<ClProgram> DeviceContext::buildFromBinary(std::span<const uint8_t> binary,
                                                         const std::string& options) const {
  const unsigned char* bytes = binary.data();
  const size_t length = binary.size();
  cl_int binaryStatus = CL_SUCCESS;
  cl_int err = CL_SUCCESS;
  ClProgram program(
      clCreateProgramWithBinary(context_.get(), 1, &info_.device, &length, &bytes, &binaryStatus, &err));
  if (err == CL_SUCCESS && binaryStatus != CL_SUCCESS) err = binaryStatus;
  if (err != CL_SUCCESS) return clFail(err, "clCreateProgramWithBinary");
  return finishBuild(std::move(program), options, "clBuildProgram of the cached binary");
}

driver::Result<std::vector<uint8_t>> DeviceContext::programBinary(cl_program program) const {
  size_t size = 0;
  cl_int err = clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
  if (err != CL_SUCCESS) return clFail(err, "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
  if (size == 0) return driver::generalFailure("the OpenCL driver gives no program binary to cache");
  std::vector<uint8_t> binary(size);
  unsigned char* out = binary.data();
  err = clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof out, &out, nullptr);
  if (err != CL_SUCCESS) return clFail(err, "clGetProgramInfo(CL_PROGRAM_BINARIES)");
  return binary;
}

driver::Result<ClKernel> DeviceContext::createKernel(cl_program program, const std::string& name) const {
  cl_int err = CL_SUCCESS;
  ClKernel kernel(clCreateKernel(program, name.c_str(), &err));
  if (err != CL_SUCCESS) return clFail(err, "clCreateKernel(" + name + ")");
  return kernel;
}

driver::Result<ClQueue> DeviceContext::createQueue(bool profiling) const {
  cl_int err = CL_SUCCESS;
  ClQueue queue(clCreateCommandQueue(context_.get(), info_.device,
                                     profiling ? CL_QUEUE_PROFILING_ENABLE : cl_command_queue_properties{0},
                                     &err));
  if (err != CL_SUCCESS) {
    driver::Error error = clError(err, "clCreateCommandQueue");
    noteError(error);
    return Unexpected(std::move(error));
  }
  return queue;
}

driver::Result<ClMem> DeviceContext::createBuffer(size_t bytes, cl_mem_flags flags,
                                                  const void* initial) const {
  if (bytes == 0) initial = nullptr;  // OpenCL has no empty buffers; one unused byte stands in
  bytes = std::max<size_t>(bytes, 1);
  if (initial != nullptr) flags |= CL_MEM_COPY_HOST_PTR;
  if (info_.maxAllocation != 0 && bytes > info_.maxAllocation) {
    return driver::fail(driver::ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                        "a tensor needs " + std::to_string(bytes) + " bytes, more than '" + info_.name +
                            "' allocates at once (CL_DEVICE_MAX_MEM_ALLOC_SIZE " +
                            std::to_string(info_.maxAllocation) + ")");
  }
  cl_int err = CL_SUCCESS;
  ClMem buffer(clCreateBuffer(context_.get(), flags, bytes, const_cast<void*>(initial), &err));
  if (err != CL_SUCCESS) {
    driver::Error error = clError(err, "clCreateBuffer of " + std::to_string(bytes) + " bytes");
    noteError(error);
    return Unexpected(std::move(error));
  }
  return buffer;
}

void DeviceContext::noteError(const driver::Error& error) const {
  if (error.status == driver::ErrorStatus::DEVICE_UNAVAILABLE) lost_.store(true, std::memory_order_relaxed);
}

}  // namespace nnrt::opencl
