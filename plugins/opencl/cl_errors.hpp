// OpenCL error codes by name, for messages.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

namespace nnrt::opencl {

// "CL_OUT_OF_RESOURCES", or "CL error -9999" for a code it does not know.
const char* clErrorName(cl_int code);

}  // namespace nnrt::opencl
