// What the opaque handles of <android/NeuralNetworks.h> are inside nnrt, and the one function
// every C entry point goes through to turn a Result into a result code and a log line.
#pragma once

#include <atomic>
#include <memory>
#include <new>
#include <string>

#include "core/compilation/compilation.hpp"
#include "core/execution/event.hpp"
#include "core/execution/execution.hpp"
#include "core/execution/memory_desc.hpp"
#include "core/execution/plan_runner.hpp"
#include "core/memory/memory.hpp"
#include "core/model/model.hpp"
#include "core/support/log.hpp"
#include "core/support/status.hpp"

struct ANeuralNetworksModel {
  nnrt::ModelBuilder builder;
};
struct ANeuralNetworksCompilation {
  nnrt::Compilation compilation;
};
struct ANeuralNetworksExecution {
  nnrt::Execution execution;
  // Its compilation was made by createForDevices with one device: Android's C API accepts deadlines
  // and timing only then (nnrt's own Execution takes them for every plan).
  bool oneExplicitDevice = false;
};
struct ANeuralNetworksMemory {
  std::shared_ptr<nnrt::Memory> memory;
};
struct ANeuralNetworksMemoryDesc {
  nnrt::MemoryDescBuilder builder;
};
struct ANeuralNetworksEvent {
  std::shared_ptr<nnrt::Event> event;
};
struct ANeuralNetworksDevice {
  std::shared_ptr<nnrt::DriverDevice> device;
};
// A burst keeps execution resources from one burstCompute to the next (core/execution/plan_runner.hpp).
struct ANeuralNetworksBurst {
  explicit ANeuralNetworksBurst(std::shared_ptr<const nnrt::CompiledModel> compiled) : runner(std::move(compiled)) {}
  nnrt::BurstRunner runner;
  std::atomic<bool> busy{false};  // a burstCompute is running on it
};

namespace nnrt::capi {

// Logs "function: message" for a failure and returns its result code; NO_ERROR for success.
inline int report(const char* function, const Error& error) {
  log(error.code == ResultCode::OUTPUT_INSUFFICIENT_SIZE ? LogLevel::Info : LogLevel::Warning,
      std::string(function) + ": " + error.message);
  return static_cast<int>(error.code);
}
template <class T>
int report(const char* function, const Result<T>& result) {
  return result.has_value() ? 0 : report(function, result.error());
}

// Runs `body` (returning an int result code), turning exceptions into OUT_OF_MEMORY / OP_FAILED so
// that none crosses the C boundary.
template <class F>
int guarded(const char* function, F&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return report(function, Error{ResultCode::OUT_OF_MEMORY, "out of memory"});
  } catch (const std::exception& e) {
    return report(function, Error{ResultCode::OP_FAILED, std::string("internal error: ") + e.what()});
  }
}

inline int unexpectedNull(const char* function, const char* argument) {
  return report(function, Error{ResultCode::UNEXPECTED_NULL, std::string(argument) + " is NULL"});
}

// Deadlines and timing on `what` (a compilation or an execution) whose compilation was not made by
// createForDevices with one device: BAD_DATA, as NNAPI specifies.
inline int notForOneDevice(const char* function, const char* what) {
  return report(function, Error{ResultCode::BAD_DATA, std::string(what) + " whose compilation was not made by "
                                                      "ANeuralNetworksCompilation_createForDevices with one device"});
}

}  // namespace nnrt::capi
