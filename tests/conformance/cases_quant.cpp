// Conformance cases of the quant family (see operation_case.hpp).
#include "conformance/operation_case.hpp"

namespace nnrt::test::conformance {

std::vector<OperationCase> quantCases() {
  std::vector<OperationCase> cases;
  return cases;
}

}  // namespace nnrt::test::conformance
