// The conformance suite on the reference CPU plugin. It runs every case except the valid NNAPI
// variants it does not implement yet: per-channel quantized filters and quant8 MEAN.
#include "conformance/conformance_suite.hpp"

namespace nnrt::test::conformance {

INSTANTIATE_TEST_SUITE_P(
    Cpu, OperationConformance,
    conformanceCasesFor({"cpu",
                         "libnnrt_driver_cpu.so",
                         {{"threads", "2"}},
                         {"conv2d_quant8_per_channel", "depthwise_conv2d_quant8_per_channel", "mean_quant8"},
                         false,
                         {}}),
    conformanceCaseName);

}  // namespace nnrt::test::conformance
