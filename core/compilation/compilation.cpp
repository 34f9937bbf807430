#include "core/compilation/compilation.hpp"

#include <malloc.h>

#include <atomic>
#include <thread>

#include "core/compilation/compilation_cache.hpp"
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

// Shapes of every operand of a subgraph (`view`'s main) from the declared shapes, propagated through
// the operations.
std::vector<ops::Shape> inferStaticShapes(const FinishedModel& model, const nnrt_model& subgraphView,
                                          uint32_t subgraph) {
  const std::vector<Operand>& operands = model.operandsOf(subgraph);
  std::vector<ops::Shape> shapes(operands.size());
  for (size_t i = 0; i < operands.size(); ++i)
    shapes[i] = operands[i].dimensions;
  driver::Model view(subgraphView);
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

template <class PlanOne>
Result<void> planSubgraphs(const FinishedModel& model, PlanResult& result, PlanOne planOne);

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
  NNRT_RETURN_IF_ERROR(planSubgraphs(model, result, [&](const driver::Model& subgraph, const auto& views) {
    return partition::partition(subgraph, views, result.policy);
  }));
  return result;
}

namespace {

// Plans the subgraphs that the interpreted steps of result.plan run, and those that theirs run, each
// once however often it is referenced, with `planOne(subgraph model, its device views)`: like models of
// their own, so that their operations may go to any device.
template <class PlanOne>
Result<void> planSubgraphs(const FinishedModel& model, PlanResult& result, PlanOne planOne) {
  result.subgraphPlans.assign(model.referenced.size(), std::nullopt);
  std::vector<uint32_t> pending;
  auto queueSubgraphs = [&](const partition::Plan& p) {
    for (const partition::Step& step : p.steps)
      pending.insert(pending.end(), step.subgraphs.begin(), step.subgraphs.end());
  };
  queueSubgraphs(result.plan);
  while (!pending.empty()) {
    const uint32_t k = pending.back();
    pending.pop_back();
    if (result.subgraphPlans[k]) continue;
    std::unique_ptr<ModelView> subgraphView = ModelView::referencedAsMain(model, k);
    SubgraphPlan& planned = result.subgraphPlans[k].emplace();
    for (const auto& device : result.devices)
      planned.views.push_back(deviceView(*device, subgraphView->view()));
    auto subgraphPlan = planOne(driver::Model(subgraphView->view()), planned.views);
    if (!subgraphPlan) {
      return fail(ResultCode::BAD_DATA, "referenced subgraph " + std::to_string(k) + ": " + subgraphPlan.error().message);
    }
    planned.plan = std::move(*subgraphPlan);
    queueSubgraphs(planned.plan);
  }
  return {};
}

}  // namespace

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
  // Every device step: the main subgraph's first (their cache files keep their numbers), then those of
  // the referenced subgraphs in index order.
  std::vector<CompiledStep*> steps;
  std::vector<std::string> names;  // "step 2" or "subgraph 1 step 0"
  auto collect = [&](CompiledSubgraph& sub, const std::string& prefix) {
    for (size_t i = 0; i < sub.steps.size(); ++i) {
      if (sub.steps[i].interpreted) continue;
      steps.push_back(&sub.steps[i]);
      names.push_back(prefix + "step " + std::to_string(i));
    }
  };
  collect(compiled.main_, "");
  for (CompiledSubgraph& sub : compiled.referenced_)
    collect(sub, "subgraph " + std::to_string(sub.subgraph) + " ");
  std::vector<std::optional<Error>> errors(steps.size());
  const int32_t preference = compiled.plan_.policy.preference;
  // Steps prepare in parallel. Each call blocks until its driver calls back, so they run on plain
  // threads (a few, pulling steps from a counter) rather than as oneTBB tasks, which must not block.
  auto prepareOne = [&](size_t i) {
    CompiledStep& step = *steps[i];
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
        logWarning("compilation cache off for " + names[i] + ": " + files.error().message);
      }
    }
    if (cache && cache->existing()) {
      auto prepared = step.device->prepareModelFromCache(deadlineNs, cache->handles());
      if (prepared) {
        step.prepared = std::move(*prepared);
        step.cacheHit = true;
        return;
      }
      logInfo(names[i] + " on '" + step.device->name() + "' not prepared from cache (" +
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
  } else if (!steps.empty()) {
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
      return fail(errors[i]->code, names[i] + " on '" + steps[i]->device->name() +
                                       "' failed to compile: " + errors[i]->message);
    }
  }
  return {};
}

namespace {

// After a large model's compilation: the memory freed meanwhile (the drivers' copies of the weights
// before their own layouts, the model file's parse an application loaded it from) goes back to the
// system. glibc keeps freed heap memory for reuse, and its dynamic mmap threshold, raised by every
// large block freed, puts the next large blocks on the heap too: ResNet-50 from its ONNX file kept
// 420 MB resident while running, 347 MB after a malloc_trim (weights 102 MB, held twice: the model's
// copy and oneDNN's reordered one). Small models skip it: nothing much to give back, and an
// application compiling thousands of them (a test suite) would pay the heap walk each time.
void releaseFreedMemory(const FinishedModel& model) {
  constexpr size_t kLargeModelBytes = size_t{16} << 20;
  size_t bytes = 0;
  for (const nnrt_memory_pool& pool : model.pools) bytes += pool.size;
  if (bytes >= kLargeModelBytes) malloc_trim(0);
}

}  // namespace

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
  compiled->main_.staticShapes = inferStaticShapes(*model_, model_->view->view(), kMainSubgraph);

  const auto& policy = registry_.config().policy;
  std::shared_ptr<DriverDevice> fallback = registry_.fallbackDevice();
  const bool fallbackAllowed = fallback && policy.partitioning == config::PartitioningMode::WithFallback &&
                               explicitDevices_.empty() && !model_->usesExtensionOrOem;

  auto buildSteps = [&](const partition::Plan& plan, CompiledSubgraph& sub) {
    sub.steps.clear();
    const bool direct = plan.steps.size() == 1 && !plan.steps[0].interpreted();
    for (const partition::Step& s : plan.steps) {
      CompiledStep step;
      step.inputs = s.inputs;
      step.outputs = s.outputs;
      if (s.interpreted()) {
        step.interpreted = true;
        step.operation = s.operations.front();
        step.subgraphs = s.subgraphs;
      } else {
        step.device = compiled->plan_.devices[s.device];
        if (!direct) {
          step.subModel = ModelView::subset(*model_, s.operations, s.inputs, s.outputs, sub.subgraph);
        } else if (sub.subgraph != kMainSubgraph) {
          step.subModel = ModelView::referencedAsMain(*model_, sub.subgraph);
        }
      }
      sub.steps.push_back(std::move(step));
    }
    for (const auto& [producer, consumer] : plan.dependencies)
      sub.steps[consumer].dependsOn.push_back(producer);
  };
  // The main subgraph's steps and those of every subgraph that interpreted control flow runs.
  auto buildAllSteps = [&] {
    buildSteps(compiled->plan_.plan, compiled->main_);
    compiled->referenced_.clear();
    compiled->referenced_.resize(model_->referenced.size());
    for (uint32_t k = 0; k < model_->referenced.size(); ++k) {
      CompiledSubgraph& sub = compiled->referenced_[k];
      sub.subgraph = k;
      if (!compiled->plan_.subgraphPlans[k]) continue;
      sub.staticShapes = inferStaticShapes(*model_, ModelView::referencedAsMain(*model_, k)->view(), k);
      buildSteps(compiled->plan_.subgraphPlans[k]->plan, sub);
    }
  };
  buildAllSteps();
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
    auto wholeOnFallback = [&](const driver::Model& m, const std::vector<partition::DeviceView>& views) {
      return partition::wholeModelPlan(m, views, index, note, compiled->plan_.policy);
    };
    auto whole = wholeOnFallback(driver::Model(model_->view->view()), compiled->plan_.views);
    Result<void> subgraphs;
    if (whole) {
      // Control flow the fallback device cannot run stays interpreted; its subgraphs go to that device
      // whole as well.
      compiled->plan_.plan = std::move(*whole);
      subgraphs = planSubgraphs(*model_, compiled->plan_, wholeOnFallback);
    }
    if (!whole || !subgraphs) {
      failed_ = true;
      return fail(prepared.error().code, prepared.error().message + "; fallback to '" + fallback->name() +
                                             "' impossible: " +
                                             (whole ? subgraphs.error().message : whole.error().message));
    }
    logWarning(note + "; running the whole model on '" + fallback->name() + "'");
    compiled->fallbackNote_ = note;
    buildAllSteps();
    prepared = prepareSteps(*compiled, deadlineNs);
  }
  if (!prepared) {
    failed_ = true;
    return Unexpected(prepared.error());
  }
  if (fallbackAllowed) compiled->executionFallback_ = fallback;
  compiled_ = std::move(compiled);
  releaseFreedMemory(*model_);
  return {};
}

Result<std::shared_ptr<PreparedModel>> CompiledModel::fallbackPrepared(const CompiledSubgraph& sub,
                                                                      size_t step) const {
  if (!executionFallback_) return fail(ResultCode::OP_FAILED, "fallback is not allowed for this compilation");
  if (step > sub.steps.size() || (step == sub.steps.size() && sub.subgraph != kMainSubgraph) ||
      (step < sub.steps.size() && sub.steps[step].interpreted)) {
    return fail(ResultCode::OP_FAILED, "no device step " + std::to_string(step) + " to run on the fallback device");
  }
  std::lock_guard lock(fallbackMutex_);
  std::shared_ptr<PreparedModel>& cached = fallbackPrepared_[{sub.subgraph, step}];
  if (cached) return cached;
  // A step's own sub-model (a referenced subgraph's single step has one too), else the whole model.
  const nnrt_model* view = &model_->view->view();
  std::shared_ptr<const void> keepAlive = model_;
  if (step < sub.steps.size() && sub.steps[step].subModel) {
    view = &sub.steps[step].subModel->view();
    keepAlive = sub.steps[step].subModel;
  }
  NNRT_ASSIGN_OR_RETURN(cached, executionFallback_->prepareModel(*view, plan_.policy.preference, priority_, 0,
                                                                 CacheHandles{}, keepAlive));
  return cached;
}

}  // namespace nnrt
