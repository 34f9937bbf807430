// The extension allowlist policy, end to end through the C API. The configuration and the
// application id come from the environment (see CMakeLists.txt); NNRT_EXPECT says the outcome:
// "allowed", "denied", or "app_id_api" (denied until the program sets an allowed id through
// ANeuralNetworksNnrt_setApplicationId).
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>
#include <gtest/gtest.h>
#include <nnrt/nnrt.h>

#include <cstdlib>
#include <string>

#include "nnrt_examples/fibonacci_extension.h"

namespace {

std::string expectation() {
  const char* e = std::getenv("NNRT_EXPECT");
  return e != nullptr ? e : "";
}

int tryExtension() {
  ANeuralNetworksModel* model = nullptr;
  EXPECT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
  int32_t type = 0;
  int result = ANeuralNetworksModel_getExtensionOperandType(model, EXAMPLE_FIBONACCI_EXTENSION_NAME, EXAMPLE_INT64, &type);
  if (result == ANEURALNETWORKS_NO_ERROR) {
    EXPECT_EQ(type & 0xFFFF, EXAMPLE_INT64);
  }
  ANeuralNetworksModel_free(model);
  return result;
}

TEST(ExtensionPolicy, DecidesAsConfigured) {
  const std::string expected = expectation();
  ASSERT_FALSE(expected.empty()) << "run through ctest: NNRT_EXPECT is not set";
  if (expected == "app_id_api") {
    EXPECT_EQ(tryExtension(), ANEURALNETWORKS_BAD_DATA);
    ASSERT_EQ(ANeuralNetworksNnrt_setApplicationId("com.example.allowed"), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(tryExtension(), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksNnrt_setApplicationId(nullptr), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(tryExtension(), ANEURALNETWORKS_BAD_DATA);
    return;
  }
  EXPECT_EQ(tryExtension(), expected == "allowed" ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_BAD_DATA);
  // Device extension queries follow the same rule.
  ANeuralNetworksDevice* device = nullptr;
  ASSERT_EQ(ANeuralNetworks_getDevice(1, &device), ANEURALNETWORKS_NO_ERROR);
  bool supported = false;
  int r = ANeuralNetworksDevice_getExtensionSupport(device, EXAMPLE_FIBONACCI_EXTENSION_NAME, &supported);
  EXPECT_EQ(r, expected == "allowed" ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(supported, expected == "allowed");
}

}  // namespace
