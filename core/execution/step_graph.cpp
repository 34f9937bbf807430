#include "core/execution/step_graph.hpp"

#include <oneapi/tbb/flow_graph.h>

#include "core/support/tsan.hpp"

namespace nnrt {

namespace flow = tbb::flow;
using AsyncStep = flow::async_node<flow::continue_msg, flow::continue_msg>;

struct StepGraph::Impl {
  flow::graph graph;
  flow::broadcast_node<flow::continue_msg> start{graph};
  // Per step: `ready` fires once every predecessor finished; `step` launches it and completes
  // when its launcher calls done (the gateway keeps the graph waiting meanwhile).
  std::vector<std::unique_ptr<flow::continue_node<flow::continue_msg>>> ready;
  std::vector<std::unique_ptr<AsyncStep>> steps;
  StepLauncher* launcher = nullptr;
};

StepGraph::StepGraph(const std::vector<std::vector<size_t>>& dependsOn) : impl_(std::make_unique<Impl>()) {
  Impl& g = *impl_;
  const size_t n = dependsOn.size();
  for (size_t i = 0; i < n; ++i) {
    g.ready.push_back(std::make_unique<flow::continue_node<flow::continue_msg>>(
        g.graph, [](const flow::continue_msg& m) { return m; }));
    g.steps.push_back(std::make_unique<AsyncStep>(
        g.graph, flow::unlimited, [&g, i](const flow::continue_msg&, AsyncStep::gateway_type& gateway) {
          nnrtHappensAfter(&g);  // sees the run's set-up and every finished predecessor
          gateway.reserve_wait();
          g.launcher->launch(i, [&g, &gateway] {
            nnrtHappensBefore(&g);  // successors and the waiting caller see this step's results
            gateway.try_put(flow::continue_msg());
            gateway.release_wait();
          });
          nnrtHappensBefore(&g);  // the launch may complete on another thread; publish this one too
        }));
    flow::make_edge(*g.ready[i], *g.steps[i]);
  }
  for (size_t i = 0; i < n; ++i) {
    if (dependsOn[i].empty()) {
      flow::make_edge(g.start, *g.ready[i]);
    } else {
      for (size_t p : dependsOn[i]) flow::make_edge(*g.steps[p], *g.ready[i]);
    }
  }
}

StepGraph::~StepGraph() { impl_->graph.wait_for_all(); }

void StepGraph::run(StepLauncher& launcher) {
  impl_->launcher = &launcher;
  nnrtHappensBefore(impl_.get());
  impl_->start.try_put(flow::continue_msg());
  impl_->graph.wait_for_all();
  nnrtHappensAfter(impl_.get());
  impl_->launcher = nullptr;
}

std::unique_ptr<StepGraph> StepGraphPool::acquire() {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      auto graph = std::move(free_.back());
      free_.pop_back();
      return graph;
    }
  }
  return std::make_unique<StepGraph>(dependsOn_);
}

void StepGraphPool::release(std::unique_ptr<StepGraph> graph) {
  std::lock_guard lock(mutex_);
  free_.push_back(std::move(graph));
}

}  // namespace nnrt
