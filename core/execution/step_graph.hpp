// The steps of a compiled model as a oneTBB flow graph: one node per step, one edge per
// dependency, so independent steps run at the same time. A graph serves one execution at a time;
// a StepGraphPool keeps built graphs for reuse, so concurrent executions of one compilation each
// take their own graph (built once, reused after) instead of waiting on a shared one.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace nnrt {

// Runs one step of one execution. launch() returns at once or when done; it calls `done` exactly
// once when the step has finished (possibly on another thread, possibly before returning).
class StepLauncher {
 public:
  virtual ~StepLauncher() = default;
  virtual void launch(size_t step, std::function<void()> done) = 0;
};

class StepGraph {
 public:
  // dependsOn[i]: the steps whose outputs step i reads.
  explicit StepGraph(const std::vector<std::vector<size_t>>& dependsOn);
  ~StepGraph();
  StepGraph(const StepGraph&) = delete;
  StepGraph& operator=(const StepGraph&) = delete;

  // Runs every step through `launcher`, each after its dependencies, and returns when all are done.
  void run(StepLauncher& launcher);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class StepGraphPool {
 public:
  explicit StepGraphPool(std::vector<std::vector<size_t>> dependsOn) : dependsOn_(std::move(dependsOn)) {}
  // A graph for one run: a free one, or a new one when every graph is busy.
  std::unique_ptr<StepGraph> acquire();
  void release(std::unique_ptr<StepGraph> graph);

 private:
  std::vector<std::vector<size_t>> dependsOn_;
  std::mutex mutex_;  // held only to pop or push a graph
  std::vector<std::unique_ptr<StepGraph>> free_;
};

}  // namespace nnrt
