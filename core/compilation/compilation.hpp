// ANeuralNetworksCompilation: asks every candidate device what it supports, partitions the model,
// prepares every step on its device (in parallel, from cache when possible), and falls back as
// the policy allows. The result, a CompiledModel, is immutable and shared by every execution.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/config/runtime_config.hpp"
#include "core/device/device_registry.hpp"
#include "core/model/model.hpp"
#include "core/model/model_view.hpp"
#include "nnrt/driver/clock.hpp"
#include "nnrt/driver/ops/operation.hpp"
#include "core/support/status.hpp"
#include "partitioner/partitioner.hpp"

namespace nnrt {

// How a plan's temporaries are laid out (core/execution/plan_runner.hpp): the execution layer, above
// this one, makes it.
struct StepLayout;

struct CompiledStep {
  std::shared_ptr<DriverDevice> device;      // null for an interpreted step
  std::shared_ptr<PreparedModel> prepared;   // null for an interpreted step
  std::shared_ptr<const ModelView> subModel;  // null when the step is the whole model
  std::vector<uint32_t> inputs;         // source operand indexes, the step model's input order
  std::vector<uint32_t> outputs;
  std::vector<size_t> dependsOn;        // steps whose outputs this one reads
  bool cacheHit = false;                // prepared from the compilation cache
  // An IF or WHILE the runtime interprets: its operation (index into its subgraph's operations) and
  // the referenced subgraphs it runs (IF: then, else; WHILE: condition, body).
  bool interpreted = false;
  uint32_t operation = 0;
  std::vector<uint32_t> subgraphs;
};

// The compiled plan of one subgraph: the main one, or a referenced one that interpreted control flow
// runs.
struct CompiledSubgraph {
  uint32_t subgraph = kMainSubgraph;
  std::vector<CompiledStep> steps;  // empty for a referenced subgraph nothing interprets
  // Shapes of every operand as far as the declared shapes determine them (0 = unknown).
  std::vector<ops::Shape> staticShapes;
  // How the temporaries are laid out, and the step graphs, when there are several steps or one is
  // interpreted: made by the execution layer on the first run of this subgraph and kept for every
  // later one (thread-safe through `once`).
  struct LazyLayout {
    std::once_flag once;
    std::shared_ptr<const StepLayout> layout;
  };
  std::shared_ptr<LazyLayout> layout = std::make_shared<LazyLayout>();
  bool direct() const { return steps.size() == 1 && !steps[0].interpreted; }  // no layout: straight to the driver
};

// The plan of a referenced subgraph, with the devices' view of it.
struct SubgraphPlan {
  std::vector<partition::DeviceView> views;
  partition::Plan plan;
};

// The devices and plan a compilation would use, without preparing anything (`nnrt plan`).
struct PlanResult {
  std::vector<std::shared_ptr<DriverDevice>> devices;
  std::vector<partition::DeviceView> views;
  partition::Policy policy;
  partition::Plan plan;
  // By referenced subgraph index: the plans of those that interpreted control flow runs (planned
  // like the main subgraph, with the same devices and policy); nullopt for the others.
  std::vector<std::optional<SubgraphPlan>> subgraphPlans;
};

struct CompileOptions {
  std::optional<int32_t> preference;  // unset: the configuration's default
  int32_t priority = NNRT_PRIORITY_MEDIUM;
  uint64_t timeoutNs = 0;  // 0: none
  std::filesystem::path cacheDir;
  std::vector<uint8_t> cacheToken;  // 32 bytes when caching
};

// Plans `model` over the registry's available devices (or exactly `explicitDevices` when given).
Result<PlanResult> planModel(const FinishedModel& model, const DeviceRegistry& registry,
                             const std::vector<std::shared_ptr<DriverDevice>>& explicitDevices,
                             const CompileOptions& options);

class CompiledModel {
 public:
  const FinishedModel& model() const { return *model_; }
  const std::shared_ptr<const FinishedModel>& sharedModel() const { return model_; }
  const std::vector<CompiledStep>& steps() const { return main_.steps; }
  const CompiledSubgraph& main() const { return main_; }
  // Referenced subgraph `subgraph` (nnrt_model.referenced index).
  const CompiledSubgraph& referenced(uint32_t subgraph) const { return referenced_[subgraph]; }
  const PlanResult& plan() const { return plan_; }
  // Shapes of every main-subgraph operand as far as the declared shapes determine them (0 = unknown).
  const std::vector<ops::Shape>& staticShapes() const { return main_.staticShapes; }
  // Why the compilation fell back to the whole model on the fallback device, or "".
  const std::string& fallbackNote() const { return fallbackNote_; }
  // Whether a failed step may be retried on the fallback device at execution time.
  bool executionFallbackAllowed() const { return executionFallback_ != nullptr; }
  // The fallback device's preparation of step `step` of `sub` (main() or a referenced subgraph; for
  // main(), step = steps().size() means the whole model), made on first use and shared. Thread-safe.
  Result<std::shared_ptr<PreparedModel>> fallbackPrepared(const CompiledSubgraph& sub, size_t step) const;
  const std::shared_ptr<DriverDevice>& fallbackDevice() const { return executionFallback_; }
  int32_t preference() const { return plan_.policy.preference; }

 private:
  friend class Compilation;
  std::shared_ptr<const FinishedModel> model_;
  PlanResult plan_;
  CompiledSubgraph main_;
  std::vector<CompiledSubgraph> referenced_;  // one per referenced subgraph of the model
  std::string fallbackNote_;
  std::shared_ptr<DriverDevice> executionFallback_;
  int32_t priority_ = NNRT_PRIORITY_MEDIUM;
  mutable std::mutex fallbackMutex_;
  // By (subgraph, step).
  mutable std::map<std::pair<uint32_t, size_t>, std::shared_ptr<PreparedModel>> fallbackPrepared_;
};

class Compilation {
 public:
  Compilation(std::shared_ptr<const FinishedModel> model, const DeviceRegistry& registry,
              std::vector<std::shared_ptr<DriverDevice>> explicitDevices);

  Result<void> setPreference(int32_t preference);
  Result<void> setPriority(int32_t priority);
  Result<void> setTimeout(uint64_t durationNs);
  Result<void> setCaching(const std::string& cacheDir, const uint8_t* token);
  Result<void> finish();

  bool finished() const { return compiled_ != nullptr; }
  bool forExplicitDevices() const { return !explicitDevices_.empty(); }
  // Made by ANeuralNetworksCompilation_createForDevices with exactly one device: the compilations
  // whose deadlines and timing Android's C API accepts.
  bool forOneExplicitDevice() const { return explicitDevices_.size() == 1; }
  std::shared_ptr<const CompiledModel> compiled() const { return compiled_; }

 private:
  Result<void> checkModifiable() const;
  // Prepares every device step of every compiled subgraph.
  Result<void> prepareSteps(CompiledModel& compiled, uint64_t deadlineNs);

  std::shared_ptr<const FinishedModel> model_;
  const DeviceRegistry& registry_;
  std::vector<std::shared_ptr<DriverDevice>> explicitDevices_;
  CompileOptions options_;
  std::shared_ptr<CompiledModel> compiled_;
  bool failed_ = false;
};

}  // namespace nnrt
