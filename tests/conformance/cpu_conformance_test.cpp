// The conformance suite on the reference CPU plugin. It runs every case except the valid NNAPI
// variants it does not implement: float16, int32 and signed quant8 element-wise, per-channel
// quantized filters, and quant8 MEAN and TRANSPOSE.
#include "conformance/conformance_suite.hpp"

namespace nnrt::test::conformance {

INSTANTIATE_TEST_SUITE_P(
    Cpu, OperationConformance,
    conformanceCasesFor({"cpu",
                         "libnnrt_driver_cpu.so",
                         {{"threads", "2"}},
                         {"add_float16_broadcast", "mul_float16_relu", "add_int32", "mul_int32",
                          "add_quant8_signed", "logistic_float16", "softmax_float16", "conv2d_float16",
                          "depthwise_conv2d_float16", "conv2d_quant8_per_channel",
                          "depthwise_conv2d_quant8_per_channel", "fully_connected_float16",
                          "average_pool_float16", "l2_pool_float16", "mean_quant8", "transpose_quant8"},
                         false,
                         {}}),
    conformanceCaseName);

}  // namespace nnrt::test::conformance
