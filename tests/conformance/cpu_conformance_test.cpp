// The conformance suite on the reference CPU plugin: it runs every case, as configured by default
// (the hot operations on the oneDNN fast layer where it takes them, the light ones from 32768
// elements) and with every operation the fast layer takes on it (fast_min_elements 0: the
// conformance cases are small).
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

INSTANTIATE_TEST_SUITE_P(
    CpuEveryFast, OperationConformance,
    conformanceCasesFor({"cpu",
                         "libnnrt_driver_cpu.so",
                         {{"threads", "2"}, {"fast_min_elements", "0"}},
                         {},
                         false,
                         {}}),
    conformanceCaseName);

}  // namespace nnrt::test::conformance
