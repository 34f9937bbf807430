// Signatures of the ops_image.cpp family: for every operation, a valid form per allowed operand type
// (with the feature level it needs) and the invalid variants Android refuses at addOperation.
#include <gtest/gtest.h>

#include "nnrt/driver/ops/operation.hpp"
#include "tests/ops/op_builder.hpp"

namespace nnrt::ops::testing {
namespace {

}  // namespace
}  // namespace nnrt::ops::testing
