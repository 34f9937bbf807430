// Internal to the partitioner: the operation graph and step formation (steps.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <boost/graph/compressed_sparse_row_graph.hpp>

#include "nnrt/driver/types.hpp"
#include "partitioner/plan.hpp"

namespace nnrt::partition::detail {

inline constexpr uint32_t kNoProducer = std::numeric_limits<uint32_t>::max();

// The main subgraph's dataflow as a bipartite graph, built once in linear time. Vertices
// [0, operationCount) are operations, operationVertex(k) is operand k. Edges: operation -> each operand
// it writes, in output order; operand -> the operation reading it, once per input slot, by ascending
// operation index. Only temporaries and model outputs have edges (constants, model inputs and
// omitted operands are known from the start). This is the order in which Android's OperandTracker
// visits consumers, so ready operations queue up in Android's order.
struct OperationGraph {
  using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                                   boost::no_property, uint32_t, uint32_t>;
  Graph graph;
  uint32_t operationCount = 0;
  std::vector<uint32_t> producer;  // per operand: the operation that writes it, or kNoProducer
  uint32_t operandVertex(uint32_t operand) const { return operationCount + operand; }
};

// Checks what the partitioner relies on: operand indexes in range, each operand written by at most
// one operation and only if it is a temporary or a model output, every temporary or model output that
// is read is written, and operations in topological order. Returns, per operand, the operation that
// writes it (kNoProducer when none).
driver::Result<std::vector<uint32_t>> checkOperations(const driver::Subgraph& main);

// Builds the graph of a subgraph that passed checkOperations(), from the producers it returned. Only
// plans on more than one device need it (for formSteps).
OperationGraph buildOperationGraph(const driver::Subgraph& main, std::vector<uint32_t> producer);

// Forms the steps of a multi-device plan from plan.placements[*].device (Android's per-device ready
// queues, see partitioner.hpp) and fills plan.steps and plan.dependencies. `queueOrder` lists every
// device index once, the queue looked at first being first.
void formSteps(const driver::Subgraph& main, const OperationGraph& graph, std::span<const size_t> queueOrder,
               Plan& plan);

// The one step of a single-device plan: every operation, the model's inputs and outputs in the model's
// order.
Step wholeModelStep(const driver::Subgraph& main, size_t device);

}  // namespace nnrt::partition::detail
