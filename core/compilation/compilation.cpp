#include "core/compilation/compilation.hpp"

#include <atomic>
#include <thread>

#include "core/compilation/compilation_cache.hpp"
#include "core/execution/plan_runner.hpp"
#include "core/support/log.hpp"

namespace nnrt {
namespace {

constexpr size_t kMaxPreparationThreads = 8;

partition::Policy toPolicy(const config::PolicyConfig& c, const CompileOptions& options,
                           bool explicitDevices) {
  partition::Policy p;
  p.preference = options.preference.value_or(c.preference);
  switch (c.partitioning) {
    case config::PartitioningMode::WithFallback:
      p.mode = partition::Mode::WithFallback;
      break;
    case config::PartitioningMode::WithoutFallback:
      p.mode = partition::Mode::WithoutFallback;
      break;
    case config::PartitioningMode::Disabled:
      p.mode = partition::Mode::Disabled;
      break;
  }
  p.fallbackDevice = c.fallbackDevice;
  p.deviceOrder = c.deviceOrder;
  p.pins = c.pins;
  p.deny = c.deny;
  p.explicitDevices = explicitDevices;
  return p;
}

// The configuration entry a device came from ("opencl" for "opencl:1").
std::string entryOf(const std::string& deviceName) {
  return deviceName.substr(0, deviceName.find(':'));
}

// What the partitioner knows of a device for one model. A device that fails the support query
// supports nothing (Android's rule), with the failure as the reason.
partition::DeviceView deviceView(const DriverDevice& device, const nnrt_model& view) {
  partition::DeviceView v;
  v.name = device.name();
  v.entry = entryOf(device.name());
  v.type = device.type();
  v.capabilities = device.capabilities();
  for (const auto& e : device.extensions())
    v.extensions.push_back(e.name);
  auto support = device.getSupportedOperations(view);
  if (support) {
    v.supported = std::move(support->supported);
    v.unsupportedReasons = std::move(support->reasons);
  } else {
    logWarning("device '" + device.name() + "': " + support.error().message);
    v.supported.assign(view.main.operation_count, false);
    v.unsupportedReasons.assign(view.main.operation_count,
                                "the driver failed the query: " + support.error().message);
  }
  return v;
}

// Shapes of every operand from the declared shapes, propagated through the operations.
std::vector<ops::Shape> inferStaticShapes(const FinishedModel& model) {
  std::vector<ops::Shape> shapes(model.operands.size());
  for (size_t i = 0; i < model.operands.size(); ++i)
    shapes[i] = model.operands[i].dimensions;
  driver::Model view(model.view->view());
  driver::Subgraph main = view.main();
  for (const nnrt_operation& op : main.operations()) {
    std::vector<ops::Arg> in = ops::inputArgs(view, main, op);
    for (uint32_t k = 0; k < op.input_count; ++k)
      in[k].dims = shapes[op.inputs[k]];
    std::vector<ops::Arg> out = ops::outputArgs(view, main, op);
    auto inferred = ops::inferShapes({op.type, in, out, model.relaxed});
    if (!inferred) continue;
    for (uint32_t k = 0; k < op.output_count && k < inferred->size(); ++k) {
      ops::Shape& s = shapes[op.outputs[k]];
      const ops::Shape& got = (*inferred)[k];
      if (s.empty()) {
        s = got;
      } else if (s.size() == got.size()) {
        for (size_t d = 0; d < s.size(); ++d) {
          if (s[d] == 0) s[d] = got[d];
        }
      }
    }
  }
  return shapes;
}

}  // namespace

Result<PlanResult> planModel(const FinishedModel& model, const DeviceRegistry& registry,
                             const std::vector<std::shared_ptr<DriverDevice>>& explicitDevices,
                             const CompileOptions& options) {
  PlanResult result;
  if (!explicitDevices.empty()) {
    result.devices = explicitDevices;
  } else {
    for (const auto& d : registry.devices()) {
      if (d->available()) result.devices.push_back(d);
    }
  }
  if (result.devices.empty())
    return fail(ResultCode::BAD_DATA, "no device is available to compile the model");
  const nnrt_model& view = model.view->view();
  for (const auto& device : result.devices) {
    result.views.push_back(deviceView(*device, view));
  }
  result.policy = toPolicy(registry.config().policy, options, !explicitDevices.empty());
  auto plan = partition::partition(driver::Model(view), result.views, result.policy);
  if (!plan) return Unexpected(Error{ResultCode::BAD_DATA, plan.error().message});
  result.plan = std::move(*plan);
  return result;
}

Compilation::Compilation(std::shared_ptr<const FinishedModel> model, const DeviceRegistry& registry,
                         std::vector<std::shared_ptr<DriverDevice>> explicitDevices)
    : model_(std::move(model)), registry_(registry), explicitDevices_(std::move(explicitDevices)) {}

Result<void> Compilation::checkModifiable() const {
  if (compiled_) return fail(ResultCode::BAD_STATE, "the compilation is already finished");
  if (failed_) return fail(ResultCode::BAD_STATE, "the compilation failed to finish and cannot be used");
  return {};
}

Result<void> Compilation::setPreference(int32_t preference) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  if (preference < NNRT_PREFER_LOW_POWER || preference > NNRT_PREFER_SUSTAINED_SPEED) {
    return fail(ResultCode::BAD_DATA, "preference " + std::to_string(preference) +
                                          " is not PREFER_LOW_POWER (0), PREFER_FAST_SINGLE_ANSWER (1) or "
                                          "PREFER_SUSTAINED_SPEED (2)");
  }
  options_.preference = preference;
  return {};
}

Result<void> Compilation::setPriority(int32_t priority) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  if (priority != NNRT_PRIORITY_LOW && priority != NNRT_PRIORITY_MEDIUM && priority != NNRT_PRIORITY_HIGH) {
    return fail(ResultCode::BAD_DATA,
                "priority " + std::to_string(priority) +
                    " is not PRIORITY_LOW (90), PRIORITY_MEDIUM (100) or PRIORITY_HIGH (110)");
  }
  options_.priority = priority;
  return {};
}

Result<void> Compilation::setTimeout(uint64_t durationNs) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  options_.timeoutNs = durationNs;
  return {};
}

Result<void> Compilation::setCaching(const std::string& cacheDir, const uint8_t* token) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  // As Android, the directory is not looked at here: one that cannot be used turns caching off at
  // finish (with a warning).
  options_.cacheDir = cacheDir;
  options_.cacheToken.assign(token, token + NNRT_CACHE_TOKEN_SIZE);
  return {};
}

Result<void> Compilation::prepareSteps(CompiledModel& compiled, uint64_t deadlineNs) {
  const FinishedModel& model = *model_;
  std::vector<CompiledStep>& steps = compiled.steps_;
  std::vector<std::optional<Error>> errors(steps.size());
  const int32_t preference = compiled.plan_.policy.preference;
  // Steps prepare in parallel. Each call blocks until its driver calls back, so they run on plain
  // threads (a few, pulling steps from a counter) rather than as oneTBB tasks, which must not block.
  auto prepareOne = [&](size_t i) {
    CompiledStep& step = steps[i];
    const nnrt_model& view = step.subModel ? step.subModel->view() : model.view->view();
    // What keeps the view alive for a preparation the runtime may give up on.
    std::shared_ptr<const void> keepAlive = step.subModel ? std::shared_ptr<const void>(step.subModel)
                                                          : std::shared_ptr<const void>(model_);
    std::optional<StepCacheFiles> cache;
    driver::CacheFileCounts counts = step.device->cacheFilesNeeded();
    if (!options_.cacheDir.empty() && counts.modelCache + counts.dataCache > 0) {
      auto files =
          StepCacheFiles::open(options_.cacheDir, options_.cacheToken, i, step.device->name(), counts);
      if (files) {
        cache.emplace(std::move(*files));
      } else {
        logWarning("compilation cache off for step " + std::to_string(i) + ": " + files.error().message);
      }
    }
    if (cache && cache->existing()) {
      auto prepared = step.device->prepareModelFromCache(deadlineNs, cache->handles());
      if (prepared) {
        step.prepared = std::move(*prepared);
        step.cacheHit = true;
        return;
      }
      logInfo("step " + std::to_string(i) + " on '" + step.device->name() + "' not prepared from cache (" +
              prepared.error().message + "); preparing from the model");
    }
    if (cache) cache->truncate();
    static const CacheHandles kNoCache;
    auto prepared = step.device->prepareModel(view, preference, options_.priority, deadlineNs,
                                              cache ? cache->handles() : kNoCache, keepAlive);
    if (prepared) {
      step.prepared = std::move(*prepared);
    } else {
      errors[i] = prepared.error();
    }
  };
  if (steps.size() == 1) {
    prepareOne(0);
  } else {
    std::atomic<size_t> next{0};
    std::vector<std::thread> workers(std::min<size_t>(steps.size(), kMaxPreparationThreads));
    for (auto& w : workers) {
      w = std::thread([&] {
        for (size_t i = next++; i < steps.size(); i = next++)
          prepareOne(i);
      });
    }
    for (auto& w : workers)
      w.join();
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    if (errors[i]) {
      return fail(errors[i]->code, "step " + std::to_string(i) + " on '" + steps[i].device->name() +
                                       "' failed to compile: " + errors[i]->message);
    }
  }
  return {};
}

Result<void> Compilation::finish() {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  const uint64_t deadlineNs = options_.timeoutNs == 0 ? 0 : driver::deadlineAfter(options_.timeoutNs);
  auto compiled = std::make_shared<CompiledModel>();
  compiled->model_ = model_;
  compiled->priority_ = options_.priority;
  auto planned = planModel(*model_, registry_, explicitDevices_, options_);
  if (!planned) {
    failed_ = true;
    return Unexpected(planned.error());
  }
  compiled->plan_ = std::move(*planned);
  compiled->staticShapes_ = inferStaticShapes(*model_);

  const auto& policy = registry_.config().policy;
  std::shared_ptr<DriverDevice> fallback = registry_.fallbackDevice();
  const bool fallbackAllowed = fallback && policy.partitioning == config::PartitioningMode::WithFallback &&
                               explicitDevices_.empty() && !model_->usesExtensionOrOem;

  auto buildSteps = [&](const partition::Plan& plan) {
    compiled->steps_.clear();
    for (const partition::Step& s : plan.steps) {
      CompiledStep step;
      step.device = compiled->plan_.devices[s.device];
      step.inputs = s.inputs;
      step.outputs = s.outputs;
      if (plan.steps.size() > 1)
        step.subModel = ModelView::subset(*model_, s.operations, s.inputs, s.outputs);
      compiled->steps_.push_back(std::move(step));
    }
    for (const auto& [producer, consumer] : plan.dependencies)
      compiled->steps_[consumer].dependsOn.push_back(producer);
  };
  buildSteps(compiled->plan_.plan);
  auto prepared = prepareSteps(*compiled, deadlineNs);
  if (!prepared && fallbackAllowed && prepared.error().code != ResultCode::MISSED_DEADLINE_PERSISTENT &&
      prepared.error().code != ResultCode::MISSED_DEADLINE_TRANSIENT) {
    // Android's rule: a step that fails to compile sends the whole model to the fallback device.
    size_t index = compiled->plan_.devices.size();
    for (size_t i = 0; i < compiled->plan_.devices.size(); ++i) {
      if (compiled->plan_.devices[i] == fallback) index = i;
    }
    if (index == compiled->plan_.devices.size()) {
      compiled->plan_.devices.push_back(fallback);
      compiled->plan_.views.push_back(deviceView(*fallback, model_->view->view()));
    }
    std::string note = "fallback: " + prepared.error().message;
    auto whole = partition::wholeModelPlan(driver::Model(model_->view->view()), compiled->plan_.views, index,
                                           note, compiled->plan_.policy);
    if (!whole) {
      failed_ = true;
      return fail(prepared.error().code, prepared.error().message + "; fallback to '" + fallback->name() +
                                             "' impossible: " + whole.error().message);
    }
    logWarning(note + "; running the whole model on '" + fallback->name() + "'");
    compiled->plan_.plan = std::move(*whole);
    compiled->fallbackNote_ = note;
    buildSteps(compiled->plan_.plan);
    prepared = prepareSteps(*compiled, deadlineNs);
  }
  if (!prepared) {
    failed_ = true;
    return Unexpected(prepared.error());
  }
  if (fallbackAllowed) compiled->executionFallback_ = fallback;
  if (compiled->steps_.size() > 1) compiled->layout_ = makeStepLayout(*compiled);
  compiled->fallbackPrepared_.resize(compiled->steps_.size() + 1);
  compiled_ = std::move(compiled);
  return {};
}

Result<std::shared_ptr<PreparedModel>> CompiledModel::fallbackPrepared(size_t step) const {
  if (!executionFallback_) return fail(ResultCode::OP_FAILED, "fallback is not allowed for this compilation");
  std::lock_guard lock(fallbackMutex_);
  if (fallbackPrepared_[step]) return fallbackPrepared_[step];
  const nnrt_model* view = &model_->view->view();
  std::shared_ptr<const void> keepAlive = model_;
  if (step < steps_.size() && steps_[step].subModel) {
    view = &steps_[step].subModel->view();
    keepAlive = steps_[step].subModel;
  }
  NNRT_ASSIGN_OR_RETURN(auto prepared, executionFallback_->prepareModel(*view, plan_.policy.preference, priority_, 0,
                                                                        CacheHandles{}, keepAlive));
  fallbackPrepared_[step] = prepared;
  return prepared;
}

}  // namespace nnrt
