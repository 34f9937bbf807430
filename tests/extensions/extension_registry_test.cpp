// The extension registry: what the devices describe, prefixes, conflicts and names.
#include <gtest/gtest.h>

#include "core/model/extension_registry.hpp"

namespace nnrt {
namespace {

driver::Extension fibonacci() { return {"com.example.fibonacci", {{0, false, 8}, {1, true, 8}}}; }

TEST(ExtensionRegistryTest, NameSyntax) {
  EXPECT_TRUE(isValidExtensionName("com.example.fibonacci"));
  EXPECT_TRUE(isValidExtensionName("org.vendor_x.op2"));
  EXPECT_FALSE(isValidExtensionName("fibonacci"));           // no '.'
  EXPECT_FALSE(isValidExtensionName("Com.Example.Fib"));     // uppercase
  EXPECT_FALSE(isValidExtensionName("com..example"));        // empty segment
  EXPECT_FALSE(isValidExtensionName(".com.example"));
  EXPECT_FALSE(isValidExtensionName("com.example."));
  EXPECT_FALSE(isValidExtensionName("com.exa mple"));
  EXPECT_FALSE(isValidExtensionName(""));
}

TEST(ExtensionRegistryTest, PrefixesAreHandedOutFromOneAndStay) {
  auto registry = ExtensionRegistry::fromList(
      {{"fib", fibonacci()}, {"other", driver::Extension{"com.example.other", {{0, true, 4}}}}});
  auto a = registry->prefixOf("com.example.other");
  auto b = registry->prefixOf("com.example.fibonacci");
  auto c = registry->prefixOf("com.example.other");
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*a, 1);
  EXPECT_EQ(*b, 2);
  EXPECT_EQ(*c, 1);
  EXPECT_EQ(registry->nameOf(2), "com.example.fibonacci");
  EXPECT_FALSE(registry->nameOf(3).has_value());
  EXPECT_FALSE(registry->nameOf(0).has_value());
  auto type = registry->operandType((2 << 16) | 1);
  ASSERT_TRUE(type.has_value());
  EXPECT_TRUE(type->isTensor);
  EXPECT_EQ(type->byteSize, 8u);
  auto missing = registry->operandType((2 << 16) | 7);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message, "extension 'com.example.fibonacci' has no operand type 7");
  EXPECT_FALSE(registry->operandType((9 << 16) | 0).has_value());
}

TEST(ExtensionRegistryTest, SameDescriptionOnTwoDevicesIsFine) {
  auto registry = ExtensionRegistry::fromList({{"a", fibonacci()}, {"b", fibonacci()}});
  EXPECT_NE(registry->find("com.example.fibonacci"), nullptr);
  EXPECT_TRUE(registry->disabled().empty());
}

TEST(ExtensionRegistryTest, ConflictingDescriptionsDisableTheExtension) {
  driver::Extension different = fibonacci();
  different.operandTypes[1].byteSize = 4;
  auto registry = ExtensionRegistry::fromList({{"gpu", fibonacci()}, {"npu", different}, {"dsp", fibonacci()}});
  EXPECT_EQ(registry->find("com.example.fibonacci"), nullptr);
  ASSERT_EQ(registry->disabled().size(), 1u);
  EXPECT_EQ(registry->disabled().at("com.example.fibonacci"), "devices 'gpu' and 'npu' describe it differently");
  auto prefix = registry->prefixOf("com.example.fibonacci");
  ASSERT_FALSE(prefix.has_value());
  EXPECT_EQ(prefix.error().code, ResultCode::BAD_DATA);
  EXPECT_EQ(prefix.error().message,
            "extension 'com.example.fibonacci' is disabled: devices 'gpu' and 'npu' describe it differently");
}

TEST(ExtensionRegistryTest, UnknownAndMalformedNames) {
  auto registry = ExtensionRegistry::fromList({{"fib", fibonacci()}});
  auto unknown = registry->prefixOf("com.example.unknown");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().message, "no device supports extension 'com.example.unknown'");
  auto malformed = registry->prefixOf("NotAName");
  ASSERT_FALSE(malformed.has_value());
  EXPECT_EQ(malformed.error().code, ResultCode::BAD_DATA);
}

TEST(ExtensionRegistryTest, DevicesDescribingMalformedNamesAreIgnored) {
  auto registry = ExtensionRegistry::fromList({{"bad", driver::Extension{"Bad Name", {}}}});
  EXPECT_EQ(registry->find("Bad Name"), nullptr);
}

}  // namespace
}  // namespace nnrt
