// OpenCL error codes by name, and as driver errors.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <string_view>

#include "nnrt/driver/types.hpp"

namespace nnrt::opencl {

// "CL_OUT_OF_RESOURCES", or "unknown OpenCL error" for a code it does not know.
const char* clErrorName(cl_int code);

// The HAL status a failed OpenCL call maps to: CL_OUT_OF_RESOURCES, CL_OUT_OF_HOST_MEMORY and
// CL_MEM_OBJECT_ALLOCATION_FAILURE -> RESOURCE_EXHAUSTED_TRANSIENT (the device may have room again
// later; the driver reports RESOURCE_EXHAUSTED_PERSISTENT itself for a tensor larger than the device
// can ever allocate); CL_DEVICE_NOT_AVAILABLE and errors that mean the device was lost ->
// DEVICE_UNAVAILABLE; everything else -> GENERAL_FAILURE.
driver::ErrorStatus clErrorStatus(cl_int code);

// "<what> failed: CL_OUT_OF_RESOURCES (-5)" with the status of clErrorStatus.
driver::Error clError(cl_int code, std::string_view what);
inline Unexpected<driver::Error> clFail(cl_int code, std::string_view what) {
  return Unexpected<driver::Error>(clError(code, what));
}

}  // namespace nnrt::opencl
