// A plugin whose static constructor calls abort(): loading it kills the process that loads it.
// Only loaded with `isolation: process`, where the driver host dies instead of the application.
#include <cstdlib>

#include "nnrt/driver/nnrt_driver.h"

namespace {
struct AbortAtLoad {
  AbortAtLoad() { std::abort(); }
} abortAtLoad;
}  // namespace

extern "C" __attribute__((visibility("default"))) const nnrt_driver_api* nnrt_driver_get_api(uint32_t) {
  return nullptr;
}
