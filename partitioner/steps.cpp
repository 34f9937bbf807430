// Step formation: the dataflow graph, Android's per-device ready queues, step inputs and outputs,
// and the dependencies between steps. Everything is linear in operations + operands + edges, apart
// from sorting each step's (small) input and output groups.
#include "partitioner/steps.hpp"

#include <algorithm>
#include <deque>
#include <iterator>
#include <optional>
#include <string>
#include <utility>

#include <boost/graph/topological_sort.hpp>

namespace nnrt::partition::detail {
namespace {

using driver::invalidArgument;

const char* lifetimeName(int32_t lifetime) {
  switch (lifetime) {
    case NNRT_LIFETIME_TEMPORARY_VARIABLE:
      return "a temporary";
    case NNRT_LIFETIME_SUBGRAPH_INPUT:
      return "a model input";
    case NNRT_LIFETIME_SUBGRAPH_OUTPUT:
      return "a model output";
    case NNRT_LIFETIME_CONSTANT_COPY:
    case NNRT_LIFETIME_CONSTANT_REFERENCE:
      return "a constant";
    case NNRT_LIFETIME_NO_VALUE:
      return "an omitted operand";
    case NNRT_LIFETIME_SUBGRAPH:
      return "a subgraph reference";
  }
  return "of an unknown lifetime";
}

bool isWritten(int32_t lifetime) {
  return lifetime == NNRT_LIFETIME_TEMPORARY_VARIABLE || lifetime == NNRT_LIFETIME_SUBGRAPH_OUTPUT;
}

void appendSorted(std::vector<uint32_t>& to, std::vector<uint32_t>& group) {
  std::sort(group.begin(), group.end());
  to.insert(to.end(), group.begin(), group.end());
  group.clear();
}

}  // namespace

driver::Result<std::vector<uint32_t>> checkOperations(const driver::Subgraph& main) {
  const auto operands = main.operands();
  const auto operations = main.operations();
  const auto operandCount = static_cast<uint32_t>(operands.size());
  const auto operationCount = static_cast<uint32_t>(operations.size());
  auto where = [](uint32_t operation, uint32_t operand) {
    return "operation " + std::to_string(operation) + ": operand " + std::to_string(operand);
  };

  std::vector<uint32_t> producer(operandCount, kNoProducer);
  for (uint32_t j = 0; j < operationCount; ++j) {
    for (uint32_t k : driver::outputs(operations[j])) {
      if (k >= operandCount) return invalidArgument(where(j, k) + " does not exist");
      if (!isWritten(operands[k].lifetime)) {
        return invalidArgument(where(j, k) + " is written but is " + lifetimeName(operands[k].lifetime));
      }
      if (producer[k] != kNoProducer) {
        return invalidArgument(where(j, k) + " is also written by operation " + std::to_string(producer[k]));
      }
      producer[k] = j;
    }
  }

  // The first input read before it is written, if any: the order is not topological.
  std::optional<std::pair<uint32_t, uint32_t>> misordered;
  for (uint32_t j = 0; j < operationCount; ++j) {
    for (uint32_t k : driver::inputs(operations[j])) {
      if (k >= operandCount) return invalidArgument(where(j, k) + " does not exist");
      if (!isWritten(operands[k].lifetime)) continue;
      const uint32_t p = producer[k];
      if (p == kNoProducer) return invalidArgument(where(j, k) + " is read but no operation writes it");
      if (p >= j && !misordered) misordered.emplace(j, k);
    }
  }
  if (misordered) {
    const auto [j, k] = *misordered;
    const std::string detail = where(j, k) + " is written by operation " + std::to_string(producer[k]);
    const OperationGraph graph = buildOperationGraph(main, std::move(producer));
    try {
      std::vector<uint32_t> order;
      order.reserve(operationCount + operandCount);
      boost::topological_sort(graph.graph, std::back_inserter(order));
    } catch (const boost::not_a_dag&) {
      return invalidArgument("the operations form a cycle (" + detail + ")");
    }
    return invalidArgument("the operations are not in topological order (" + detail + ")");
  }
  return producer;
}

OperationGraph buildOperationGraph(const driver::Subgraph& main, std::vector<uint32_t> producer) {
  const auto operands = main.operands();
  const auto operations = main.operations();
  const auto operationCount = static_cast<uint32_t>(operations.size());

  OperationGraph result;
  result.operationCount = operationCount;
  result.producer = std::move(producer);
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  size_t edgeCount = 0;
  for (const nnrt_operation& operation : operations)
    edgeCount += operation.input_count + operation.output_count;
  edges.reserve(edgeCount);
  for (uint32_t j = 0; j < operationCount; ++j) {
    for (uint32_t k : driver::outputs(operations[j])) {
      edges.emplace_back(j, result.operandVertex(k));
    }
  }
  // In a checked subgraph an operand has a producer exactly when it is a temporary or a model output.
  for (uint32_t j = 0; j < operationCount; ++j) {
    for (uint32_t k : driver::inputs(operations[j])) {
      if (result.producer[k] != kNoProducer) edges.emplace_back(result.operandVertex(k), j);
    }
  }
  // The histogram sort behind edges_are_unsorted_multi_pass is stable: each vertex keeps its edges in
  // the order they were listed above.
  result.graph = OperationGraph::Graph(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(),
                                       operationCount + static_cast<uint32_t>(operands.size()));
  return result;
}

void formSteps(const driver::Subgraph& main, const OperationGraph& graph, std::span<const size_t> queueOrder,
               Plan& plan) {
  const auto operands = main.operands();
  const auto operations = main.operations();
  const auto operationCount = static_cast<uint32_t>(operations.size());
  const auto& g = graph.graph;

  // Android's OperandTracker: an operation is ready when no input written by another operation is
  // still unknown. pending[c] counts the input slots of c whose writer has not been placed in a step.
  std::vector<uint32_t> pending(operationCount, 0);
  for (auto [e, end] = boost::edges(g); e != end; ++e) {
    const uint32_t target = boost::target(*e, g);
    if (target < operationCount) ++pending[target];
  }

  std::vector<std::vector<uint32_t>> queues(queueOrder.size());
  // Interpreted control flow, looked at first and one operation per step (Android's interpreter queue).
  std::deque<uint32_t> interpreted;
  // Compact copies of what the walks below read in step order (the placements and operand structs are
  // large; random reads into them dominate the time on big models).
  std::vector<uint32_t> deviceOf(operationCount);
  for (uint32_t j = 0; j < operationCount; ++j)
    deviceOf[j] = static_cast<uint32_t>(plan.placements[j].device);
  std::vector<uint32_t> stepOf(operationCount, 0);
  std::vector<int8_t> lifetimes(operands.size());
  for (size_t k = 0; k < operands.size(); ++k)
    lifetimes[k] = static_cast<int8_t>(operands[k].lifetime);
  auto enqueue = [&](uint32_t operation) {
    if (deviceOf[operation] == kInterpreter) {
      interpreted.push_back(operation);
    } else {
      queues[deviceOf[operation]].push_back(operation);
    }
  };
  // Marks an operation as placed in step `stepIndex`: its consumers may become ready.
  auto place = [&](uint32_t operation, uint32_t stepIndex) {
    stepOf[operation] = stepIndex;
    for (auto [w, wEnd] = boost::out_edges(operation, g); w != wEnd; ++w) {
      const uint32_t written = boost::target(*w, g);
      for (auto [r, rEnd] = boost::out_edges(written, g); r != rEnd; ++r) {
        const uint32_t consumer = boost::target(*r, g);
        if (--pending[consumer] == 0) enqueue(consumer);
      }
    }
  };
  for (uint32_t j = 0; j < operationCount; ++j) {
    if (pending[j] == 0) enqueue(j);
  }

  plan.steps.clear();
  for (;;) {
    const auto stepIndex = static_cast<uint32_t>(plan.steps.size());
    if (!interpreted.empty()) {
      const uint32_t operation = interpreted.front();
      interpreted.pop_front();
      place(operation, stepIndex);
      Step& step = plan.steps.emplace_back();
      step.device = kInterpreter;
      step.operations = {operation};
      const auto& in = operations[operation].inputs;
      const bool isIf = operations[operation].type == static_cast<int32_t>(driver::OperationType::IF);
      for (uint32_t k = isIf ? 1 : 0; k < (isIf ? 3u : 2u); ++k)
        step.subgraphs.push_back(operands[in[k]].location.offset);
      continue;
    }
    auto next =
        std::find_if(queueOrder.begin(), queueOrder.end(), [&](size_t d) { return !queues[d].empty(); });
    if (next == queueOrder.end()) break;
    std::vector<uint32_t>& queue = queues[*next];
    // Operations that become ready on this device while it is drained join this step: the queue, once
    // drained, holds exactly the step's operations in order.
    for (size_t head = 0; head < queue.size(); ++head) {
      place(queue[head], stepIndex);
    }
    Step& step = plan.steps.emplace_back();
    step.device = *next;
    step.operations.assign(queue.begin(), queue.end());  // one allocation; the queue keeps its capacity
    queue.clear();
  }

  // Per operand: the step that writes it, or kNone.
  constexpr uint32_t kNone = kNoProducer;
  const auto& producer = graph.producer;
  std::vector<uint32_t> writtenIn(operands.size(), kNone);
  for (size_t k = 0; k < operands.size(); ++k) {
    if (producer[k] != kNoProducer) writtenIn[k] = stepOf[producer[k]];
  }
  // Operands written in one step and read in another. Only the flags of written operands are read
  // (below, for step outputs), so unwritten ones need no test (their flag is set and never used).
  std::vector<uint8_t> crossesSteps(operands.size(), 0);
  for (uint32_t j = 0; j < operationCount; ++j) {
    const uint32_t s = stepOf[j];
    for (uint32_t k : driver::inputs(operations[j])) {
      crossesSteps[k] |= static_cast<uint8_t>(writtenIn[k] != s);
    }
  }

  std::vector<uint32_t> inputOf(operands.size(), kNone);         // last step that took the operand as input
  std::vector<uint32_t> dependencyOf(plan.steps.size(), kNone);  // last consumer step recorded per producer
  std::vector<uint32_t> modelInputs, temporaries, outputsReadBack, modelOutputs, temporariesOut;
  // (producer, consumer) in consumer order, sorted at the end.
  std::vector<std::pair<uint32_t, uint32_t>> dependencies;
  for (uint32_t s = 0; s < plan.steps.size(); ++s) {
    Step& step = plan.steps[s];
    for (uint32_t operation : step.operations) {
      for (uint32_t k : driver::inputs(operations[operation])) {
        if (inputOf[k] == s) continue;
        const int32_t lifetime = lifetimes[k];
        if (lifetime == NNRT_LIFETIME_SUBGRAPH_INPUT) {
          inputOf[k] = s;
          modelInputs.push_back(k);
          continue;
        }
        const uint32_t from = writtenIn[k];
        if (from == kNone || from == s) continue;  // constants, omitted, or written in this step
        inputOf[k] = s;
        (lifetime == NNRT_LIFETIME_TEMPORARY_VARIABLE ? temporaries : outputsReadBack).push_back(k);
        if (dependencyOf[from] != s) {
          dependencyOf[from] = s;
          dependencies.emplace_back(from, s);
        }
      }
      for (uint32_t k : driver::outputs(operations[operation])) {
        if (lifetimes[k] == NNRT_LIFETIME_SUBGRAPH_OUTPUT) {
          modelOutputs.push_back(k);
        } else if (crossesSteps[k]) {
          temporariesOut.push_back(k);
        }
      }
    }
    // Android refuses a step without inputs (its operations read only constants) and one without
    // outputs (nothing it writes is used). nnrt allows both: the first simply waits for nothing; the
    // second only computes unused results, which the compilation may skip.
    step.inputs.reserve(modelInputs.size() + temporaries.size() + outputsReadBack.size());
    appendSorted(step.inputs, modelInputs);
    appendSorted(step.inputs, temporaries);
    appendSorted(step.inputs, outputsReadBack);
    step.outputs.reserve(modelOutputs.size() + temporariesOut.size());
    appendSorted(step.outputs, modelOutputs);
    appendSorted(step.outputs, temporariesOut);
  }

  // Sorted by producer, then consumer. The list is in consumer order, so a stable counting sort by
  // producer sorts it in linear time.
  std::vector<uint32_t> first(plan.steps.size() + 1, 0);
  for (const auto& dependency : dependencies) {
    ++first[dependency.first + 1];
  }
  for (size_t s = 1; s < first.size(); ++s) {
    first[s] += first[s - 1];
  }
  plan.dependencies.assign(dependencies.size(), {});
  for (const auto& [from, to] : dependencies) {
    plan.dependencies[first[from]++] = {from, to};
  }
}

Step wholeModelStep(const driver::Subgraph& main, size_t device) {
  Step step;
  step.device = device;
  step.operations.resize(main.operations().size());
  for (uint32_t j = 0; j < step.operations.size(); ++j) {
    step.operations[j] = j;
  }
  step.inputs.assign(main.inputIndexes().begin(), main.inputIndexes().end());
  step.outputs.assign(main.outputIndexes().begin(), main.outputIndexes().end());
  return step;
}

}  // namespace nnrt::partition::detail
