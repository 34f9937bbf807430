#include "core/execution/memory_desc.hpp"

#include <cstring>
#include <map>

#include "core/device/driver_buffer.hpp"
#include "nnrt/driver/ops/operand_types.hpp"

namespace nnrt {
namespace {

// Type, scale, zero point and extra parameters: what Android compares between roles.
bool sameMetadata(const Operand& a, const Operand& b) {
  return a.type == b.type && a.scale == b.scale && a.zeroPoint == b.zeroPoint &&
         a.hasChannelQuant == b.hasChannelQuant && a.channelDim == b.channelDim && a.channelScales == b.channelScales &&
         a.hasExtensionData == b.hasExtensionData && a.extensionData == b.extensionData;
}

std::string roleName(bool input, uint32_t index) { return (input ? "input " : "output ") + std::to_string(index); }

// The steps of `compiled` that play a role: (step, io index within the step's model).
std::vector<std::pair<size_t, uint32_t>> stepRolesOf(const CompiledModel& compiled, bool input, uint32_t index) {
  std::vector<std::pair<size_t, uint32_t>> found;
  const auto& steps = compiled.steps();
  if (steps.size() == 1) return {{0, index}};
  const uint32_t operand = input ? compiled.model().inputs[index] : compiled.model().outputs[index];
  for (size_t s = 0; s < steps.size(); ++s) {
    const auto& list = input ? steps[s].inputs : steps[s].outputs;
    for (size_t k = 0; k < list.size(); ++k) {
      if (list[k] == operand) found.emplace_back(s, static_cast<uint32_t>(k));
    }
  }
  return found;
}

}  // namespace

std::optional<std::vector<uint32_t>> combineDimensions(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  if (a.size() != b.size()) return std::nullopt;
  std::vector<uint32_t> combined(a.size());
  for (size_t d = 0; d < a.size(); ++d) {
    if (a[d] != 0 && b[d] != 0 && a[d] != b[d]) return std::nullopt;
    combined[d] = a[d] != 0 ? a[d] : b[d];
  }
  return combined;
}

MemoryDescription::MemoryDescription(std::set<MemoryRole> roles,
                                     std::vector<std::shared_ptr<const CompiledModel>> compilations, Operand operand,
                                     std::vector<uint32_t> dimensions)
    : roles_(std::move(roles)),
      compilations_(std::move(compilations)),
      operand_(std::move(operand)),
      initialDimensions_(dimensions),
      dimensions_(std::move(dimensions)) {}

Result<void> MemoryDescription::checkArgument(const CompiledModel& compiled, bool input, uint32_t index,
                                              const std::vector<uint32_t>* typeDimensions, size_t offset,
                                              size_t length) const {
  if (!roles_.contains({&compiled, input, index})) {
    return fail(ResultCode::BAD_DATA, "the memory was not described for " + roleName(input, index) +
                                          " of this compilation (ANeuralNetworksMemoryDesc_add" +
                                          (input ? "Input" : "Output") + "Role)");
  }
  if (offset != 0 || length != 0) {
    return fail(ResultCode::BAD_DATA, "offset " + std::to_string(offset) + " and length " + std::to_string(length) +
                                          ": a memory from a description is used whole, with offset and length 0");
  }
  if (typeDimensions != nullptr) {
    if (!operand_.isTensor && !typeDimensions->empty()) {
      return fail(ResultCode::BAD_DATA, "type gives dimensions for a memory that holds a scalar");
    }
    if (!combineDimensions(*typeDimensions, initialDimensions_)) {
      return fail(ResultCode::BAD_DATA, "type's dimensions " + ops::shapeToString(*typeDimensions) +
                                            " do not fit the memory's " + ops::shapeToString(initialDimensions_));
    }
  }
  return {};
}

Result<void> MemoryDescription::checkInputDimensions(const std::vector<uint32_t>& dimensions) const {
  std::lock_guard lock(mutex_);
  if (!initialized_) {
    return fail(ResultCode::OP_FAILED, "an input memory is uninitialized: no execution wrote it and no copy filled it");
  }
  if (dimensions != dimensions_) {
    return fail(ResultCode::OP_FAILED, "an input memory holds " + ops::shapeToString(dimensions_) +
                                           " but the input is given as " + ops::shapeToString(dimensions));
  }
  return {};
}

MemoryDescription::Metadata MemoryDescription::metadata() const {
  std::lock_guard lock(mutex_);
  return {operandByteSize(operand_, dimensions_).value_or(0), dimensions_, &operand_};
}

bool MemoryDescription::updateMetadata(const Metadata& metadata) {
  if (metadata.operand != nullptr && !sameMetadata(*metadata.operand, operand_)) return false;
  if (!metadata.dimensions.empty() && !operand_.isTensor) return false;
  auto combined = combineDimensions(metadata.dimensions, initialDimensions_);
  if (!combined) return false;
  if (metadata.logicalSize != 0 && metadata.logicalSize != operandByteSize(operand_, *combined).value_or(0)) return false;
  std::lock_guard lock(mutex_);
  dimensions_ = std::move(*combined);
  return true;
}

void MemoryDescription::setInitialized(bool initialized) {
  std::lock_guard lock(mutex_);
  initialized_ = initialized;
}

bool MemoryDescription::initialized() const {
  std::lock_guard lock(mutex_);
  return initialized_;
}

std::optional<uint64_t> MemoryDescription::currentSize() const {
  std::lock_guard lock(mutex_);
  return operandByteSize(operand_, dimensions_);
}

Result<void> MemoryDescBuilder::checkNotFinished(const char* what) const {
  if (finished_) return fail(ResultCode::BAD_STATE, std::string(what) + ": the description is already finished");
  return {};
}

// The order of the checks is Android's.
Result<void> MemoryDescBuilder::addRole(std::shared_ptr<const CompiledModel> compiled, bool explicitDevices,
                                        bool input, uint32_t index, float frequency) {
  NNRT_RETURN_IF_ERROR(checkNotFinished(input ? "addInputRole" : "addOutputRole"));
  if (compiled && roles_.contains({compiled.get(), input, index})) {
    return fail(ResultCode::BAD_DATA, roleName(input, index) + " of this compilation is already a role");
  }
  // Android refuses an unfinished compilation here with BAD_DATA (the role lookup fails).
  if (!compiled) return fail(ResultCode::BAD_DATA, "the compilation is not finished");
  const FinishedModel& model = compiled->model();
  const auto& list = input ? model.inputs : model.outputs;
  if (index >= list.size()) {
    return fail(ResultCode::BAD_DATA, "index " + std::to_string(index) + " is out of range (the model has " +
                                          std::to_string(list.size()) + (input ? " inputs)" : " outputs)"));
  }
  const Operand& operand = model.operands[list[index]];
  if (operand_ && !sameMetadata(operand, *operand_)) {
    return fail(ResultCode::BAD_DATA, roleName(input, index) + " is " + ops::typeName(operand.type) +
                                          " (scale " + std::to_string(operand.scale) + ", zero point " +
                                          std::to_string(operand.zeroPoint) + "), incompatible with the roles' " +
                                          ops::typeName(operand_->type) + " (scale " +
                                          std::to_string(operand_->scale) + ", zero point " +
                                          std::to_string(operand_->zeroPoint) + ") or their extra parameters");
  }
  if (!operand.isTensor && !dimensions_.empty()) {
    return fail(ResultCode::BAD_DATA, roleName(input, index) + " is a scalar but the description has dimensions " +
                                          ops::shapeToString(dimensions_));
  }
  auto combined = combineDimensions(dimensions_, operand.dimensions);
  if (!combined) {
    return fail(ResultCode::BAD_DATA, roleName(input, index) + "'s dimensions " +
                                          ops::shapeToString(operand.dimensions) + " are incompatible with " +
                                          ops::shapeToString(dimensions_));
  }
  if (!(frequency > 0.0f && frequency <= 1.0f)) {
    return fail(ResultCode::BAD_DATA, "frequency " + std::to_string(frequency) + " is not in (0, 1]");
  }
  roles_.insert({compiled.get(), input, index});
  stepRoles_.emplace_back(compiled, MemoryRole{compiled.get(), input, index});
  frequencies_.push_back(frequency);
  if (std::find(compilations_.begin(), compilations_.end(), compiled) == compilations_.end())
    compilations_.push_back(compiled);
  anyExplicitDevices_ |= explicitDevices;
  operand_ = operand;
  dimensions_ = std::move(*combined);
  return {};
}

Result<void> MemoryDescBuilder::setDimensions(const std::vector<uint32_t>& dimensions) {
  NNRT_RETURN_IF_ERROR(checkNotFinished("setDimensions"));
  if (operand_ && !operand_->isTensor && !dimensions.empty()) {
    return fail(ResultCode::BAD_DATA, "the roles are scalars; dimensions " + ops::shapeToString(dimensions) +
                                          " cannot apply");
  }
  auto combined = combineDimensions(dimensions_, dimensions);
  if (!combined) {
    return fail(ResultCode::BAD_DATA, "dimensions " + ops::shapeToString(dimensions) + " are incompatible with " +
                                          ops::shapeToString(dimensions_));
  }
  dimensions_ = std::move(*combined);
  return {};
}

Result<void> MemoryDescBuilder::finish() {
  NNRT_RETURN_IF_ERROR(checkNotFinished("finish"));
  if (roles_.empty()) return fail(ResultCode::BAD_DATA, "no role was added (addInputRole, addOutputRole)");
  finished_ = true;
  return {};
}

Result<std::shared_ptr<Memory>> MemoryDescBuilder::allocate() const {
  if (!finished_) return fail(ResultCode::BAD_STATE, "the description is not finished");
  auto description = std::make_shared<MemoryDescription>(roles_, compilations_, *operand_, dimensions_);
  // The roles as the steps' prepared models play them; one device for all of them may allocate.
  std::vector<BufferRole> bufferRoles;
  std::map<const DriverDevice*, std::shared_ptr<DriverDevice>> devices;
  bool interpreted = false;  // a role is played by an IF or WHILE the runtime interprets: no driver has it
  for (size_t r = 0; r < stepRoles_.size(); ++r) {
    const auto& [compiled, role] = stepRoles_[r];
    for (const auto& [step, ioIndex] : stepRolesOf(*compiled, role.input, role.index)) {
      const CompiledStep& s = compiled->steps()[step];
      if (s.interpreted || s.device == nullptr) {
        interpreted = true;
        continue;
      }
      bufferRoles.push_back({s.prepared, role.input, ioIndex, frequencies_[r]});
      devices.emplace(s.device.get(), s.device);
    }
  }
  Error failure{ResultCode::OP_FAILED,
                interpreted ? std::string("a role is an operand of control flow (IF, WHILE) the runtime interprets; "
                                          "no driver can allocate the memory")
                : devices.size() == 1 ? "device '" + devices.begin()->first->name() + "' does not allocate buffers"
                                      : "the roles run on " + std::to_string(devices.size()) +
                                            " devices; no one driver can allocate the memory"};
  if (!interpreted && devices.size() == 1 && DriverBuffer::offered(*devices.begin()->first)) {
    auto buffer = DriverBuffer::allocate(devices.begin()->second, operand_->type, operand_->scale,
                                         operand_->zeroPoint, dimensions_, bufferRoles);
    if (buffer) return Memory::ofDriverBuffer(std::move(*buffer), std::move(description));
    failure = buffer.error();
  }
  // As Android: host memory instead, unless a compilation named its devices or the size is unknown.
  const std::optional<uint64_t> size = operandByteSize(*operand_, dimensions_);
  if (anyExplicitDevices_ || !size || *size == 0) {
    return fail(failure.code, failure.message + (anyExplicitDevices_
                                                     ? "; a role's compilation was made for explicit devices, so "
                                                       "the runtime does not allocate host memory instead"
                                                     : "; the size is unknown, so the runtime cannot allocate "
                                                       "host memory instead"));
  }
  return Memory::hostForDescription(static_cast<size_t>(*size), std::move(description));
}

Result<void> copyMemory(const Memory& src, const Memory& dst) {
  MemoryDescription* from = src.description();
  MemoryDescription* to = dst.description();
  if (&src == &dst) {
    if (to != nullptr) to->setInitialized(true);  // as Android: a copy onto itself succeeds, and initializes
    return {};
  }
  Result<void> result = [&]() -> Result<void> {
    if (from != nullptr && !from->initialized()) {
      return fail(ResultCode::BAD_DATA, "src is uninitialized: no execution wrote it and no copy filled it");
    }
    MemoryDescription::Metadata metadata = from != nullptr ? from->metadata() : MemoryDescription::Metadata{src.size(), {}, nullptr};
    const bool fits = to != nullptr ? to->updateMetadata(metadata)
                                    : metadata.logicalSize == 0 || metadata.logicalSize == dst.size();
    if (!fits) {
      return fail(ResultCode::BAD_DATA, "src (" + std::to_string(metadata.logicalSize) + " bytes" +
                                            (metadata.dimensions.empty() ? std::string()
                                                                         : ", " + ops::shapeToString(metadata.dimensions)) +
                                            ") does not fit dst (" +
                                            (to != nullptr ? ops::shapeToString(to->metadata().dimensions) + ", " : std::string()) +
                                            std::to_string(to != nullptr ? to->metadata().logicalSize : dst.size()) +
                                            " bytes)");
    }
    const DriverBuffer* srcBuffer = src.driverBuffer();
    const DriverBuffer* dstBuffer = dst.driverBuffer();
    const std::vector<uint32_t> dims = to != nullptr ? to->metadata().dimensions : std::vector<uint32_t>{};
    if (srcBuffer == nullptr && dstBuffer == nullptr) {
      if (src.size() != dst.size()) {
        return fail(ResultCode::BAD_DATA, "src has " + std::to_string(src.size()) + " bytes, dst " + std::to_string(dst.size()));
      }
      if (!dst.writable()) return fail(ResultCode::BAD_DATA, "dst is read-only");
      std::memmove(dst.data(), src.data(), src.size());
      return {};
    }
    if (dstBuffer == nullptr) {
      if (!dst.writable()) return fail(ResultCode::BAD_DATA, "dst is read-only");
      return srcBuffer->copyTo({dst.data(), dst.size()});
    }
    if (srcBuffer == nullptr) return dstBuffer->copyFrom({src.data(), src.size()}, dims);
    std::vector<uint8_t> staging(metadata.logicalSize);
    NNRT_RETURN_IF_ERROR(srcBuffer->copyTo(staging));
    return dstBuffer->copyFrom(staging, dims);
  }();
  if (to != nullptr) to->setInitialized(result.has_value());
  return result;
}

}  // namespace nnrt
