// The C API of models, memories and vendor extensions.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>
#include <nnrt/nnrt.h>

#include <cstring>

#include "core/capi/handles.hpp"
#include "core/device/device_registry.hpp"

using nnrt::Error;
using nnrt::ResultCode;
using nnrt::capi::guarded;
using nnrt::capi::report;
using nnrt::capi::unexpectedNull;

namespace {

// Extension calls are refused (BAD_DATA) to programs the policy does not allow.
int checkExtensionAccess(const char* function) {
  auto decision = nnrt::DeviceRegistry::global().extensionAccess();
  if (decision.allowed) return ANEURALNETWORKS_NO_ERROR;
  return report(function, Error{ResultCode::BAD_DATA, "vendor extensions are not allowed for this program: " + decision.reason});
}

// The arguments checked here, before the model, come after its state in Android: a finished
// model is BAD_STATE first.
int checkNotFinished(const char* function, const ANeuralNetworksModel* model) {
  auto modifiable = model->builder.checkModifiable();
  return modifiable ? ANEURALNETWORKS_NO_ERROR : report(function, modifiable.error());
}

}  // namespace

extern "C" {

int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd, size_t offset,
                                       ANeuralNetworksMemory** memory) {
  static constexpr const char* kFn = "ANeuralNetworksMemory_createFromFd";
  if (memory == nullptr) return unexpectedNull(kFn, "memory");
  *memory = nullptr;
  return guarded(kFn, [&]() -> int {
    auto created = nnrt::Memory::fromFd(size, protect, fd, offset);
    if (!created) return report(kFn, created.error());
    *memory = new ANeuralNetworksMemory{std::move(*created)};
    return ANEURALNETWORKS_NO_ERROR;
  });
}

void ANeuralNetworksMemory_free(ANeuralNetworksMemory* memory) { delete memory; }

int ANeuralNetworksModel_create(ANeuralNetworksModel** model) {
  static constexpr const char* kFn = "ANeuralNetworksModel_create";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  *model = nullptr;
  return guarded(kFn, [&]() -> int {
    *model = new ANeuralNetworksModel{nnrt::ModelBuilder(nnrt::DeviceRegistry::global().extensions())};
    return ANEURALNETWORKS_NO_ERROR;
  });
}

void ANeuralNetworksModel_free(ANeuralNetworksModel* model) { delete model; }

int ANeuralNetworksModel_finish(ANeuralNetworksModel* model) {
  static constexpr const char* kFn = "ANeuralNetworksModel_finish";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  return guarded(kFn, [&]() -> int { return report(kFn, model->builder.finish()); });
}

int ANeuralNetworksModel_addOperand(ANeuralNetworksModel* model, const ANeuralNetworksOperandType* type) {
  static constexpr const char* kFn = "ANeuralNetworksModel_addOperand";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  if (type == nullptr) return unexpectedNull(kFn, "type");
  if (int refused = checkNotFinished(kFn, model)) return refused;
  if ((type->dimensions == nullptr) != (type->dimensionCount == 0)) {
    return report(kFn, Error{ResultCode::BAD_DATA, std::string("type->dimensions is ") +
                                                       (type->dimensions == nullptr ? "NULL" : "not NULL") +
                                                       " but type->dimensionCount is " +
                                                       std::to_string(type->dimensionCount)});
  }
  return guarded(kFn, [&]() -> int {
    return report(kFn, model->builder.addOperand(type->type, {type->dimensions, type->dimensionCount}, type->scale,
                                                 type->zeroPoint));
  });
}

int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel* model, int32_t index, const void* buffer,
                                         size_t length) {
  static constexpr const char* kFn = "ANeuralNetworksModel_setOperandValue";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  if (buffer == nullptr && length != 0) return unexpectedNull(kFn, "buffer (with a non-zero length)");
  return guarded(kFn, [&]() -> int { return report(kFn, model->builder.setOperandValue(index, buffer, length)); });
}

int ANeuralNetworksModel_setOperandValueFromMemory(ANeuralNetworksModel* model, int32_t index,
                                                   const ANeuralNetworksMemory* memory, size_t offset,
                                                   size_t length) {
  static constexpr const char* kFn = "ANeuralNetworksModel_setOperandValueFromMemory";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  if (memory == nullptr) return unexpectedNull(kFn, "memory");
  return guarded(kFn, [&]() -> int {
    if (memory->memory->description() != nullptr) {
      if (int refused = checkNotFinished(kFn, model)) return refused;
      return report(kFn, Error{ResultCode::BAD_DATA, "a memory from a description holds execution inputs and "
                                                     "outputs, not operand values"});
    }
    return report(kFn, model->builder.setOperandValueFromMemory(index, memory->memory, offset, length));
  });
}

int ANeuralNetworksModel_setOperandValueFromModel(ANeuralNetworksModel* model, int32_t index,
                                                  const ANeuralNetworksModel* value) {
  static constexpr const char* kFn = "ANeuralNetworksModel_setOperandValueFromModel";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  if (value == nullptr) return unexpectedNull(kFn, "value");
  return guarded(kFn, [&]() -> int {
    return report(kFn, model->builder.setOperandValueFromModel(index, value->builder.finishedModel()));
  });
}

int ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
    ANeuralNetworksModel* model, int32_t index, const ANeuralNetworksSymmPerChannelQuantParams* channelQuant) {
  static constexpr const char* kFn = "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  if (channelQuant == nullptr) return unexpectedNull(kFn, "channelQuant");
  if (int refused = checkNotFinished(kFn, model)) return refused;
  if ((channelQuant->scales == nullptr) != (channelQuant->scaleCount == 0)) {
    return report(kFn, Error{ResultCode::BAD_DATA, std::string("channelQuant->scales is ") +
                                                       (channelQuant->scales == nullptr ? "NULL" : "not NULL") +
                                                       " but channelQuant->scaleCount is " +
                                                       std::to_string(channelQuant->scaleCount)});
  }
  return guarded(kFn, [&]() -> int {
    return report(kFn, model->builder.setOperandSymmPerChannelQuantParams(
                           index, channelQuant->channelDim, {channelQuant->scales, channelQuant->scaleCount}));
  });
}

int ANeuralNetworksModel_addOperation(ANeuralNetworksModel* model, ANeuralNetworksOperationType type,
                                      uint32_t inputCount, const uint32_t* inputs, uint32_t outputCount,
                                      const uint32_t* outputs) {
  static constexpr const char* kFn = "ANeuralNetworksModel_addOperation";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  // As Android: NULL lists are refused whatever the counts, and a list with a count of 0 is BAD_DATA.
  if (inputs == nullptr) return unexpectedNull(kFn, "inputs");
  if (outputs == nullptr) return unexpectedNull(kFn, "outputs");
  if (int refused = checkNotFinished(kFn, model)) return refused;
  if (inputCount == 0) return report(kFn, Error{ResultCode::BAD_DATA, "inputs is not NULL but inputCount is 0"});
  if (outputCount == 0) return report(kFn, Error{ResultCode::BAD_DATA, "outputs is not NULL but outputCount is 0"});
  return guarded(kFn, [&]() -> int {
    return report(kFn, model->builder.addOperation(type, {inputs, inputCount}, {outputs, outputCount}));
  });
}

int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel* model, uint32_t inputCount,
                                                  const uint32_t* inputs, uint32_t outputCount,
                                                  const uint32_t* outputs) {
  static constexpr const char* kFn = "ANeuralNetworksModel_identifyInputsAndOutputs";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  // As Android: NULL lists are refused whatever the counts. Unlike Android, an empty input list (a
  // model of constants only) is accepted; docs/runtime.md lists this difference.
  if (inputs == nullptr) return unexpectedNull(kFn, "inputs");
  if (outputs == nullptr) return unexpectedNull(kFn, "outputs");
  if (int refused = checkNotFinished(kFn, model)) return refused;
  if (outputCount == 0) return report(kFn, Error{ResultCode::BAD_DATA, "outputs is not NULL but outputCount is 0"});
  return guarded(kFn, [&]() -> int {
    return report(kFn, model->builder.identifyInputsAndOutputs({inputs, inputCount}, {outputs, outputCount}));
  });
}

int ANeuralNetworksModel_relaxComputationFloat32toFloat16(ANeuralNetworksModel* model, bool allow) {
  static constexpr const char* kFn = "ANeuralNetworksModel_relaxComputationFloat32toFloat16";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  return guarded(kFn, [&]() -> int { return report(kFn, model->builder.relaxComputationFloat32toFloat16(allow)); });
}

int ANeuralNetworksModel_getSupportedOperationsForDevices(const ANeuralNetworksModel* model,
                                                          const ANeuralNetworksDevice* const* devices,
                                                          uint32_t numDevices, bool* supportedOps) {
  static constexpr const char* kFn = "ANeuralNetworksModel_getSupportedOperationsForDevices";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  if (devices == nullptr) return unexpectedNull(kFn, "devices");
  if (supportedOps == nullptr) return unexpectedNull(kFn, "supportedOps");
  return guarded(kFn, [&]() -> int {
    if (numDevices == 0) return report(kFn, Error{ResultCode::BAD_DATA, "numDevices is 0"});
    auto finished = model->builder.finishedModel();
    if (!finished) return report(kFn, Error{ResultCode::BAD_STATE, "the model is not finished"});
    const size_t count = finished->operations.size();
    std::vector<bool> any(count, false);
    for (uint32_t d = 0; d < numDevices; ++d) {
      if (devices[d] == nullptr) return unexpectedNull(kFn, ("devices[" + std::to_string(d) + "]").c_str());
      for (uint32_t e = d + 1; e < numDevices; ++e) {
        if (devices[e] == devices[d]) {
          return report(kFn, Error{ResultCode::BAD_DATA, "devices[" + std::to_string(d) + "] and devices[" +
                                                             std::to_string(e) + "] are the same device"});
        }
      }
      auto support = devices[d]->device->getSupportedOperations(finished->view->view());
      if (!support) {
        // As Android: a driver whose query fails (or answers nonsense) supports nothing.
        nnrt::logWarning(std::string(kFn) + ": " + support.error().message + "; the device supports nothing here");
        continue;
      }
      for (size_t i = 0; i < count; ++i) any[i] = any[i] || support->supported[i];
    }
    // Drivers answer in the sorted order; the caller asked in the order of addOperation.
    for (size_t i = 0; i < count; ++i) supportedOps[finished->originalIndex[i]] = any[i];
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksDevice_getExtensionSupport(const ANeuralNetworksDevice* device, const char* extensionName,
                                              bool* isExtensionSupported) {
  static constexpr const char* kFn = "ANeuralNetworksDevice_getExtensionSupport";
  if (device == nullptr) return unexpectedNull(kFn, "device");
  if (extensionName == nullptr) return unexpectedNull(kFn, "extensionName");
  if (isExtensionSupported == nullptr) return unexpectedNull(kFn, "isExtensionSupported");
  return guarded(kFn, [&]() -> int {
    if (int refused = checkExtensionAccess(kFn); refused != ANEURALNETWORKS_NO_ERROR) return refused;
    const auto& registry = *nnrt::DeviceRegistry::global().extensions();
    *isExtensionSupported = false;
    for (const auto& e : device->device->extensions()) {
      // An extension disabled for conflicting descriptions is supported by no device.
      if (e.name == extensionName && registry.find(e.name) != nullptr) *isExtensionSupported = true;
    }
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksModel_getExtensionOperandType(ANeuralNetworksModel* model, const char* extensionName,
                                                 uint16_t operandCodeWithinExtension, int32_t* type) {
  static constexpr const char* kFn = "ANeuralNetworksModel_getExtensionOperandType";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  if (extensionName == nullptr) return unexpectedNull(kFn, "extensionName");
  if (type == nullptr) return unexpectedNull(kFn, "type");
  return guarded(kFn, [&]() -> int {
    if (int refused = checkExtensionAccess(kFn); refused != ANEURALNETWORKS_NO_ERROR) return refused;
    auto prefix = model->builder.useExtension(extensionName);
    if (!prefix) return report(kFn, prefix.error());
    // As Android: any code within a known extension makes a type; addOperand refuses one the
    // extension does not describe.
    *type = nnrt::driver::extensionType(*prefix, operandCodeWithinExtension);
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksModel_getExtensionOperationType(ANeuralNetworksModel* model, const char* extensionName,
                                                   uint16_t operationCodeWithinExtension,
                                                   ANeuralNetworksOperationType* type) {
  static constexpr const char* kFn = "ANeuralNetworksModel_getExtensionOperationType";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  if (extensionName == nullptr) return unexpectedNull(kFn, "extensionName");
  if (type == nullptr) return unexpectedNull(kFn, "type");
  return guarded(kFn, [&]() -> int {
    if (int refused = checkExtensionAccess(kFn); refused != ANEURALNETWORKS_NO_ERROR) return refused;
    auto prefix = model->builder.useExtension(extensionName);
    if (!prefix) return report(kFn, prefix.error());
    // Extension descriptions list operand types only; which operations exist is the driver's
    // business (a driver refuses an operation it does not know).
    *type = nnrt::driver::extensionType(*prefix, operationCodeWithinExtension);
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksModel_setOperandExtensionData(ANeuralNetworksModel* model, int32_t index, const void* data,
                                                 size_t length) {
  static constexpr const char* kFn = "ANeuralNetworksModel_setOperandExtensionData";
  if (model == nullptr) return unexpectedNull(kFn, "model");
  if (data == nullptr && length != 0) return unexpectedNull(kFn, "data (with a non-zero length)");
  return guarded(kFn, [&]() -> int {
    if (int refused = checkExtensionAccess(kFn); refused != ANEURALNETWORKS_NO_ERROR) return refused;
    return report(kFn, model->builder.setOperandExtensionData(index, data, length));
  });
}

int ANeuralNetworksNnrt_setApplicationId(const char* applicationId) {
  nnrt::allowlist::setApplicationId(applicationId != nullptr ? applicationId : "");
  return ANEURALNETWORKS_NO_ERROR;
}

// Memory descriptors and hardware buffers: declared for source compatibility, not implemented.
int ANeuralNetworksMemory_createFromAHardwareBuffer(const AHardwareBuffer* ahwb, ANeuralNetworksMemory** memory) {
  static constexpr const char* kFn = "ANeuralNetworksMemory_createFromAHardwareBuffer";
  if (memory != nullptr) *memory = nullptr;
  if (ahwb == nullptr) return unexpectedNull(kFn, "ahwb");
  if (memory == nullptr) return unexpectedNull(kFn, "memory");
  return report(kFn, Error{ResultCode::BAD_DATA, "AHardwareBuffer does not exist on Linux"});
}

// Memory domains, with Android's checks and their order (core/execution/memory_desc.hpp).
int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc** desc) {
  static constexpr const char* kFn = "ANeuralNetworksMemoryDesc_create";
  if (desc == nullptr) return unexpectedNull(kFn, "desc");
  *desc = nullptr;
  return guarded(kFn, [&]() -> int {
    *desc = new ANeuralNetworksMemoryDesc{};
    return ANEURALNETWORKS_NO_ERROR;
  });
}

void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc* desc) { delete desc; }

static int addRole(const char* function, ANeuralNetworksMemoryDesc* desc, const ANeuralNetworksCompilation* compilation,
                   bool input, uint32_t index, float frequency) {
  if (desc == nullptr) return unexpectedNull(function, "desc");
  if (compilation == nullptr) return unexpectedNull(function, "compilation");
  return guarded(function, [&]() -> int {
    return report(function, desc->builder.addRole(compilation->compilation.compiled(),
                                                  compilation->compilation.forExplicitDevices(), input, index,
                                                  frequency));
  });
}

int ANeuralNetworksMemoryDesc_addInputRole(ANeuralNetworksMemoryDesc* desc, const ANeuralNetworksCompilation* compilation,
                                           uint32_t index, float frequency) {
  return addRole("ANeuralNetworksMemoryDesc_addInputRole", desc, compilation, true, index, frequency);
}

int ANeuralNetworksMemoryDesc_addOutputRole(ANeuralNetworksMemoryDesc* desc, const ANeuralNetworksCompilation* compilation,
                                            uint32_t index, float frequency) {
  return addRole("ANeuralNetworksMemoryDesc_addOutputRole", desc, compilation, false, index, frequency);
}

int ANeuralNetworksMemoryDesc_setDimensions(ANeuralNetworksMemoryDesc* desc, uint32_t rank, const uint32_t* dimensions) {
  static constexpr const char* kFn = "ANeuralNetworksMemoryDesc_setDimensions";
  if (desc == nullptr) return unexpectedNull(kFn, "desc");
  if (dimensions == nullptr && rank > 0) return unexpectedNull(kFn, "dimensions (with a non-zero rank)");
  return guarded(kFn, [&]() -> int {
    return report(kFn, desc->builder.setDimensions(std::vector<uint32_t>(dimensions, dimensions + rank)));
  });
}

int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc* desc) {
  static constexpr const char* kFn = "ANeuralNetworksMemoryDesc_finish";
  if (desc == nullptr) return unexpectedNull(kFn, "desc");
  return guarded(kFn, [&]() -> int { return report(kFn, desc->builder.finish()); });
}

int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc* desc, ANeuralNetworksMemory** memory) {
  static constexpr const char* kFn = "ANeuralNetworksMemory_createFromDesc";
  if (memory != nullptr) *memory = nullptr;
  if (desc == nullptr) return unexpectedNull(kFn, "desc");
  if (memory == nullptr) return unexpectedNull(kFn, "memory");
  return guarded(kFn, [&]() -> int {
    auto created = desc->builder.allocate();
    if (!created) return report(kFn, created.error());
    *memory = new ANeuralNetworksMemory{std::move(*created)};
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksMemory_copy(const ANeuralNetworksMemory* src, const ANeuralNetworksMemory* dst) {
  static constexpr const char* kFn = "ANeuralNetworksMemory_copy";
  if (src == nullptr) return unexpectedNull(kFn, "src");
  if (dst == nullptr) return unexpectedNull(kFn, "dst");
  return guarded(kFn, [&]() -> int { return report(kFn, nnrt::copyMemory(*src->memory, *dst->memory)); });
}

}  // extern "C"
