// Conformance cases of the image family (see operation_case.hpp).
#include "conformance/operation_case.hpp"

namespace nnrt::test::conformance {

std::vector<OperationCase> imageCases() {
  std::vector<OperationCase> cases;
  return cases;
}

}  // namespace nnrt::test::conformance
