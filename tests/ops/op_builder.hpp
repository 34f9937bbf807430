// Test helper: builds the Args of one operation with the storage they point into.
//
//   OpBuilder b(OperationType::ADD);
//   b.tensor(OperandType::TENSOR_FLOAT32, {2, 3}).tensor(OperandType::TENSOR_FLOAT32, {3}).i32(0)
//    .out(OperandType::TENSOR_FLOAT32, {2, 3});
//   EXPECT_TRUE(nnrt::ops::validate(b.args()));
//
// The OpArgs view stays valid while the builder lives and is not changed.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "nnrt/driver/ops/operation.hpp"

namespace nnrt::ops::testing {

using driver::OperandType;
using driver::OperationType;

class OpBuilder {
 public:
  explicit OpBuilder(OperationType type) : type_(static_cast<int32_t>(type)) {}
  // The Args point into storage_: a copy would share it, a move keeps it (deque elements stay put).
  OpBuilder(const OpBuilder&) = delete;
  OpBuilder& operator=(const OpBuilder&) = delete;
  OpBuilder(OpBuilder&&) = default;
  OpBuilder& operator=(OpBuilder&&) = default;

  // A tensor input whose value is not known (a model input or a temporary).
  OpBuilder& tensor(OperandType type, Shape dims, float scale = 0, int32_t zeroPoint = 0) {
    inputs_.push_back(make(type, std::move(dims), scale, zeroPoint, nullptr, 0));
    return *this;
  }
  // Shorthands for the common data types.
  OpBuilder& f32(Shape dims) { return tensor(OperandType::TENSOR_FLOAT32, std::move(dims)); }
  OpBuilder& q8(Shape dims, float scale, int32_t zeroPoint) {
    return tensor(OperandType::TENSOR_QUANT8_ASYMM, std::move(dims), scale, zeroPoint);
  }
  // A constant TENSOR_INT32 input; dims default to [values.size()].
  OpBuilder& ints(std::vector<int32_t> values, Shape dims = {}) {
    if (dims.empty()) dims = {static_cast<uint32_t>(values.size())};
    inputs_.push_back(make(OperandType::TENSOR_INT32, std::move(dims), 0, 0, values.data(),
                           values.size() * sizeof(int32_t)));
    return *this;
  }
  // Scalars with a value.
  OpBuilder& i32(int32_t v) { return scalar(OperandType::INT32, &v, sizeof v); }
  OpBuilder& f32Scalar(float v) { return scalar(OperandType::FLOAT32, &v, sizeof v); }
  OpBuilder& f16Scalar(uint16_t bits) { return scalar(OperandType::FLOAT16, &bits, sizeof bits); }
  OpBuilder& boolean(bool v) {
    uint8_t b = v ? 1 : 0;
    return scalar(OperandType::BOOL, &b, 1);
  }
  // A scalar whose value is not known yet (e.g. a model input).
  OpBuilder& unknownScalar(OperandType type) {
    inputs_.push_back(make(type, {}, 0, 0, nullptr, 0));
    return *this;
  }
  // An omitted optional input (NO_VALUE) of the given type.
  OpBuilder& omitted(OperandType type, Shape dims = {}) {
    Arg a = make(type, std::move(dims), 0, 0, nullptr, 0);
    a.omitted = true;
    inputs_.push_back(a);
    return *this;
  }
  // A TENSOR_QUANT8_SYMM_PER_CHANNEL input with its operand description.
  OpBuilder& perChannel(Shape dims, std::vector<float> scales, uint32_t channelDim) {
    Arg a = make(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, std::move(dims), 0, 0, nullptr, 0);
    Stored& s = storage_.back();
    s.scales = std::move(scales);
    s.operand = nnrt_operand{};
    s.operand.type = a.type;
    s.operand.rank = static_cast<uint32_t>(s.dims.size());
    s.operand.dimensions = s.dims.data();
    s.operand.extra_kind = NNRT_EXTRA_CHANNEL_QUANT;
    s.operand.channel_scales = s.scales.data();
    s.operand.channel_scale_count = static_cast<uint32_t>(s.scales.size());
    s.operand.channel_dim = channelDim;
    a.operand = &s.operand;
    inputs_.push_back(a);
    return *this;
  }
  OpBuilder& out(OperandType type, Shape dims, float scale = 0, int32_t zeroPoint = 0) {
    outputs_.push_back(make(type, std::move(dims), scale, zeroPoint, nullptr, 0));
    return *this;
  }
  OpBuilder& f32Out(Shape dims) { return out(OperandType::TENSOR_FLOAT32, std::move(dims)); }

  // Access to change one input after building, e.g. to make a test variant.
  Arg& input(size_t i) { return inputs_[i]; }
  Arg& output(size_t i) { return outputs_[i]; }

  OpArgs args() const { return OpArgs{type_, inputs_, outputs_, false}; }

 private:
  struct Stored {
    Shape dims;
    std::vector<uint8_t> bytes;
    std::vector<float> scales;
    nnrt_operand operand{};
  };

  OpBuilder& scalar(OperandType type, const void* value, size_t size) {
    inputs_.push_back(make(type, {}, 0, 0, value, size));
    return *this;
  }

  Arg make(OperandType type, Shape dims, float scale, int32_t zeroPoint, const void* value, size_t size) {
    Stored& s = storage_.emplace_back();
    s.dims = std::move(dims);
    if (value != nullptr) {
      s.bytes.resize(size);
      if (size > 0) std::memcpy(s.bytes.data(), value, size);
    }
    Arg a;
    a.type = static_cast<int32_t>(type);
    a.dims = s.dims;
    a.scale = scale;
    a.zeroPoint = zeroPoint;
    if (value != nullptr) {
      a.data = s.bytes.empty() ? static_cast<const void*>(&s) : s.bytes.data();
      a.length = size;
    }
    return a;
  }

  int32_t type_;
  std::deque<Stored> storage_;  // stable addresses for the spans and pointers in the Args
  std::vector<Arg> inputs_, outputs_;
};

// The error message of a failed Result, or "" when it succeeded.
template <class R>
std::string errorOf(const R& result) {
  return result.has_value() ? std::string() : result.error().message;
}

// The feature level validateSignature gives (what addOperation accepts), or -1 with the error as a
// test failure when refused.
inline int32_t signatureLevel(const OpBuilder& b) {
  auto level = validateSignature(b.args());
  EXPECT_TRUE(level) << errorOf(level);
  return level ? *level : -1;
}

// The refusal at addOperation's depth, or "" when accepted.
inline std::string signatureError(const OpBuilder& b) {
  return errorOf(validateSignature(b.args()));
}

// The refusal at a device's depth (values and shapes checked too), or "" when accepted.
inline std::string fullError(const OpBuilder& b) {
  return errorOf(validate(b.args()));
}

}  // namespace nnrt::ops::testing
