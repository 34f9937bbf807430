#include "core/support/status.hpp"

namespace nnrt {

const char* resultCodeName(ResultCode code) {
  switch (code) {
    case ResultCode::NO_ERROR: return "NO_ERROR";
    case ResultCode::OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    case ResultCode::INCOMPLETE: return "INCOMPLETE";
    case ResultCode::UNEXPECTED_NULL: return "UNEXPECTED_NULL";
    case ResultCode::BAD_DATA: return "BAD_DATA";
    case ResultCode::OP_FAILED: return "OP_FAILED";
    case ResultCode::BAD_STATE: return "BAD_STATE";
    case ResultCode::UNMAPPABLE: return "UNMAPPABLE";
    case ResultCode::OUTPUT_INSUFFICIENT_SIZE: return "OUTPUT_INSUFFICIENT_SIZE";
    case ResultCode::UNAVAILABLE_DEVICE: return "UNAVAILABLE_DEVICE";
    case ResultCode::MISSED_DEADLINE_TRANSIENT: return "MISSED_DEADLINE_TRANSIENT";
    case ResultCode::MISSED_DEADLINE_PERSISTENT: return "MISSED_DEADLINE_PERSISTENT";
    case ResultCode::RESOURCE_EXHAUSTED_TRANSIENT: return "RESOURCE_EXHAUSTED_TRANSIENT";
    case ResultCode::RESOURCE_EXHAUSTED_PERSISTENT: return "RESOURCE_EXHAUSTED_PERSISTENT";
    case ResultCode::DEAD_OBJECT: return "DEAD_OBJECT";
  }
  return "UNKNOWN_RESULT";
}

ResultCode toResultCode(driver::ErrorStatus status) {
  using driver::ErrorStatus;
  switch (status) {
    case ErrorStatus::NONE: return ResultCode::NO_ERROR;
    case ErrorStatus::DEVICE_UNAVAILABLE: return ResultCode::UNAVAILABLE_DEVICE;
    case ErrorStatus::GENERAL_FAILURE: return ResultCode::OP_FAILED;
    case ErrorStatus::OUTPUT_INSUFFICIENT_SIZE: return ResultCode::OUTPUT_INSUFFICIENT_SIZE;
    case ErrorStatus::INVALID_ARGUMENT: return ResultCode::BAD_DATA;
    case ErrorStatus::MISSED_DEADLINE_TRANSIENT: return ResultCode::MISSED_DEADLINE_TRANSIENT;
    case ErrorStatus::MISSED_DEADLINE_PERSISTENT: return ResultCode::MISSED_DEADLINE_PERSISTENT;
    case ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT: return ResultCode::RESOURCE_EXHAUSTED_TRANSIENT;
    case ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT: return ResultCode::RESOURCE_EXHAUSTED_PERSISTENT;
  }
  return ResultCode::OP_FAILED;
}

Error fromDriver(const driver::Error& error, const std::string& context) {
  std::string message = context + ": " + driver::errorStatusName(error.status);
  if (!error.message.empty()) message += " (" + error.message + ")";
  return Error{toResultCode(error.status), std::move(message)};
}

}  // namespace nnrt
