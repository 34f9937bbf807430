// The conformance suite on the reference CPU plugin: it runs every case.
#include "conformance/conformance_suite.hpp"

namespace nnrt::test::conformance {

INSTANTIATE_TEST_SUITE_P(
    Cpu, OperationConformance,
    conformanceCasesFor({"cpu",
                         "libnnrt_driver_cpu.so",
                         {{"threads", "2"}},
                         {},
                         false,
                         {}}),
    conformanceCaseName);

}  // namespace nnrt::test::conformance
