// The runtime's one error type: an NNAPI result code with a message. Functions return
// nnrt::Result<T> (a value or an Error); the C API edge logs the message once and returns the code.
#pragma once

#include <string>
#include <utility>

#include "nnrt/driver/expected.hpp"
#include "nnrt/driver/types.hpp"

namespace nnrt {

// NNAPI ResultCode values (the same numbers as ANEURALNETWORKS_* in NeuralNetworks.h).
enum class ResultCode : int {
  NO_ERROR = 0,
  OUT_OF_MEMORY = 1,
  INCOMPLETE = 2,
  UNEXPECTED_NULL = 3,
  BAD_DATA = 4,
  OP_FAILED = 5,
  BAD_STATE = 6,
  UNMAPPABLE = 7,
  OUTPUT_INSUFFICIENT_SIZE = 8,
  UNAVAILABLE_DEVICE = 9,
  MISSED_DEADLINE_TRANSIENT = 10,
  MISSED_DEADLINE_PERSISTENT = 11,
  RESOURCE_EXHAUSTED_TRANSIENT = 12,
  RESOURCE_EXHAUSTED_PERSISTENT = 13,
  DEAD_OBJECT = 14,
};

const char* resultCodeName(ResultCode code);

struct Error {
  ResultCode code = ResultCode::OP_FAILED;
  std::string message;
};

template <class T = void>
using Result = Expected<T, Error>;

inline Unexpected<Error> fail(ResultCode code, std::string message) {
  return Unexpected<Error>(Error{code, std::move(message)});
}

// HAL ErrorStatus -> NNAPI result code, as Android maps them.
ResultCode toResultCode(driver::ErrorStatus status);
// A driver error as a runtime error, prefixed with what was being done.
Error fromDriver(const driver::Error& error, const std::string& context);

}  // namespace nnrt
