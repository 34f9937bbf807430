// The model layer may use memory and support, not device.
#include "core/memory/memory.hpp"
#include "core/device/driver_device.hpp"
