// The device of the public C API named `name` (nullptr when there is none), for tests that pick a
// device of their runtime.yaml by name.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include <android/NeuralNetworks.h>

namespace nnrt::test {

inline const ANeuralNetworksDevice* deviceNamed(const std::string& name) {
  uint32_t count = 0;
  EXPECT_EQ(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* device = nullptr;
    const char* deviceName = nullptr;
    EXPECT_EQ(ANeuralNetworks_getDevice(i, &device), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksDevice_getName(device, &deviceName), ANEURALNETWORKS_NO_ERROR);
    if (name == deviceName) return device;
  }
  return nullptr;
}

}  // namespace nnrt::test
