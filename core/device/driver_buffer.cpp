#include "core/device/driver_buffer.hpp"

#include <cstddef>

namespace nnrt {
namespace {

// Whether the plugin's table reaches the ABI 1.1 entry that ends at `end` (offsetof + size).
bool covers(const nnrt_driver_api& api, size_t end) { return api.struct_size >= end; }

#define NNRT_ENTRY_END_(entry) (offsetof(nnrt_driver_api, entry) + sizeof(nnrt_driver_api::entry))

bool powerOfTwoUpTo4096(uint32_t v) { return v != 0 && v <= 4096 && (v & (v - 1)) == 0; }

}  // namespace

bool DriverBuffer::offered(const DriverDevice& device) {
  const nnrt_driver_api& api = device.library().api();
  return covers(api, NNRT_ENTRY_END_(release_buffer)) && api.allocate != nullptr && api.buffer_copy_to != nullptr &&
         api.buffer_copy_from != nullptr && api.release_buffer != nullptr;
}

Result<std::shared_ptr<DriverBuffer>> DriverBuffer::allocate(std::shared_ptr<DriverDevice> device, int32_t type,
                                                             float scale, int32_t zeroPoint,
                                                             std::span<const uint32_t> dimensions,
                                                             const std::vector<BufferRole>& roles) {
  const std::string where = "allocate on device '" + device->name() + "'";
  if (!offered(*device)) return fail(ResultCode::OP_FAILED, where + ": the driver does not offer buffers");
  std::shared_ptr<DriverBuffer> buffer(new DriverBuffer());
  std::vector<nnrt_prepared_model*> handles;
  std::vector<nnrt_buffer_role> inputs, outputs;
  for (const BufferRole& role : roles) {
    uint32_t model = 0;
    while (model < buffer->prepared_.size() && buffer->prepared_[model] != role.prepared) ++model;
    if (model == buffer->prepared_.size()) {
      buffer->prepared_.push_back(role.prepared);
      handles.push_back(role.prepared->handle());
    }
    (role.input ? inputs : outputs).push_back({model, role.ioIndex, role.frequency});
  }
  nnrt_reason reason{};
  nnrt_buffer* handle = nullptr;
  const nnrt_driver_api& api = device->library().api();
  nnrt_status s = api.allocate(device->handle(), type, scale, zeroPoint, static_cast<uint32_t>(dimensions.size()),
                               dimensions.data(), handles.data(), static_cast<uint32_t>(handles.size()),
                               inputs.data(), static_cast<uint32_t>(inputs.size()), outputs.data(),
                               static_cast<uint32_t>(outputs.size()), &handle, &reason);
  if (s != NNRT_STATUS_NONE) return Unexpected(driverError(s, reason, where));
  if (handle == nullptr) return fail(ResultCode::OP_FAILED, where + ": the driver returned no buffer");
  buffer->device_ = std::move(device);
  buffer->buffer_ = handle;
  return buffer;
}

DriverBuffer::~DriverBuffer() {
  if (buffer_ != nullptr) device_->library().api().release_buffer(buffer_);
}

Result<void> DriverBuffer::copyTo(std::span<uint8_t> dst) const {
  nnrt_memory_pool pool{NNRT_POOL_HOST, dst.data(), dst.size()};
  nnrt_reason reason{};
  nnrt_status s = device_->library().api().buffer_copy_to(buffer_, &pool, &reason);
  if (s != NNRT_STATUS_NONE) return Unexpected(driverError(s, reason, "copy out of a buffer of device '" + device_->name() + "'"));
  return {};
}

Result<void> DriverBuffer::copyFrom(std::span<const uint8_t> src, std::span<const uint32_t> dimensions) const {
  nnrt_memory_pool pool{NNRT_POOL_HOST, const_cast<uint8_t*>(src.data()), src.size()};  // read only
  nnrt_reason reason{};
  nnrt_status s = device_->library().api().buffer_copy_from(buffer_, &pool, static_cast<uint32_t>(dimensions.size()),
                                                             dimensions.data(), &reason);
  if (s != NNRT_STATUS_NONE) return Unexpected(driverError(s, reason, "copy into a buffer of device '" + device_->name() + "'"));
  return {};
}

nnrt_memory_preference memoryPreference(const DriverDevice& device) {
  constexpr nnrt_memory_preference kDefault{64, 1};
  const nnrt_driver_api& api = device.library().api();
  if (!covers(api, NNRT_ENTRY_END_(get_memory_preference)) || api.get_memory_preference == nullptr) return kDefault;
  nnrt_memory_preference preference = kDefault;
  api.get_memory_preference(device.handle(), &preference);
  if (!powerOfTwoUpTo4096(preference.alignment)) preference.alignment = kDefault.alignment;
  if (!powerOfTwoUpTo4096(preference.padding)) preference.padding = kDefault.padding;
  return preference;
}

Result<std::unique_ptr<DriverBurst>> DriverBurst::configure(std::shared_ptr<PreparedModel> prepared) {
  const nnrt_driver_api& api = prepared->library()->api();
  if (!covers(api, NNRT_ENTRY_END_(release_burst)) || api.configure_burst == nullptr || api.execute_burst == nullptr ||
      api.release_burst == nullptr) {
    return std::unique_ptr<DriverBurst>();
  }
  nnrt_reason reason{};
  nnrt_burst* handle = nullptr;
  nnrt_status s = api.configure_burst(prepared->handle(), &handle, &reason);
  if (s != NNRT_STATUS_NONE) {
    return Unexpected(driverError(s, reason, "configure_burst on device '" + prepared->deviceName() + "'"));
  }
  if (handle == nullptr) return fail(ResultCode::OP_FAILED, "configure_burst on device '" + prepared->deviceName() + "' returned no burst");
  std::unique_ptr<DriverBurst> burst(new DriverBurst());
  burst->prepared_ = std::move(prepared);
  burst->burst_ = handle;
  return burst;
}

DriverBurst::~DriverBurst() {
  // An out-of-service device may still be running a call through this burst: it is leaked.
  if (burst_ != nullptr && prepared_->inService()) prepared_->library()->api().release_burst(burst_);
}

Result<driver::ExecutionResult> DriverBurst::execute(const nnrt_request& request, bool measure, uint64_t deadlineNs,
                                                     uint64_t loopTimeoutNs) {
  return prepared_->executeBounded(
      request, deadlineNs, "burst execution on device '" + prepared_->deviceName() + "'",
      [library = prepared_->library(), burst = burst_, measure, deadlineNs, loopTimeoutNs](
          const nnrt_request& view, nnrt_output_shape* shapes, uint32_t count, nnrt_timing* timing,
          nnrt_reason* reason) {
        return library->api().execute_burst(burst, &view, measure ? 1 : 0, deadlineNs, loopTimeoutNs, shapes, count,
                                            timing, reason);
      });
}

}  // namespace nnrt
