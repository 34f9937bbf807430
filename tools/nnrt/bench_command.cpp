// `nnrt bench MODEL`: compiles a model file once, runs it a few times to warm up, then measures
// executions until a run count or a time limit is reached, and reports the latency distribution,
// throughput, compile time and each step's time by device as text, JSON (docs/bench-format.md) or
// an SVG picture. Devices, preference and inputs are chosen as for `nnrt run`.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tools/nnrt/bench_report.hpp"
#include "tools/nnrt/commands.hpp"
#include "tools/nnrt/json_writer.hpp"
#include "tools/nnrt/model_execution.hpp"
#include "tools/nnrt/onnx_model_file.hpp"
#include "tools/nnrt/text_table.hpp"

namespace nnrt::tools {
namespace {

constexpr const char* kUsage =
    "usage: nnrt bench MODEL [--device(s) NAME[,NAME...]] [--preference "
    "low-power|fast-single-answer|sustained-speed]\n"
    "                        [--input NAME=FILE|NAME=v1,v2,...]... [--shape NAME=d0,d1,...]... [--warmup N]\n"
    "                        [--runs N] [--time SECONDS] [--json] [--svg FILE]\n"
    "  without --runs and --time: 1000 runs or 10 seconds, whichever comes first; --warmup 5\n"
    "MODEL is a model file (.yaml) or an ONNX model (.onnx); FILE is raw little-endian data or a .npy\n"
    "array.\n";
constexpr size_t kDefaultWarmup = 5;
constexpr size_t kDefaultRuns = 1000;
// Every run's times are kept for the statistics (about 150 bytes a run): at most this many runs.
constexpr long kMaxRuns = 1000000;
constexpr double kDefaultSeconds = 10;
constexpr double kMaxSeconds = 86400;

int usageError(const std::string& message) {
  std::fprintf(stderr, "nnrt bench: %s\n%s", message.c_str(), kUsage);
  return 2;
}

int failure(const std::string& message) {
  std::fprintf(stderr, "nnrt bench: %s\n", message.c_str());
  return 1;
}

struct Arguments {
  ExecutionOptions execution;
  size_t warmup = kDefaultWarmup;
  std::optional<size_t> runs;
  std::optional<double> seconds;
  bool json = false;
  std::string svg;
};

Result<Arguments> parseArguments(const std::vector<std::string>& args) {
  Arguments out;
  auto bad = [](const std::string& m) { return fail(ResultCode::BAD_DATA, m); };
  for (size_t i = 0; i < args.size(); ++i) {
    NNRT_ASSIGN_OR_RETURN(bool shared, parseExecutionOption(args, i, out.execution));
    if (shared) continue;
    const std::string& a = args[i];
    const std::string* value = nullptr;
    if (a == "--warmup" || a == "--runs" || a == "--time" || a == "--svg") {
      if (i + 1 >= args.size()) return bad(a + " needs a value");
      value = &args[++i];
    }
    if (a == "--warmup") {
      auto n = parseCount(*value, 0, 1000000);
      if (!n) return bad("--warmup takes a number from 0 to 1000000, not '" + *value + "'");
      out.warmup = static_cast<size_t>(*n);
    } else if (a == "--runs") {
      auto n = parseCount(*value, 1, kMaxRuns);
      if (!n)
        return bad("--runs takes a number from 1 to " + std::to_string(kMaxRuns) + ", not '" + *value + "'");
      out.runs = static_cast<size_t>(*n);
    } else if (a == "--time") {
      char* end = nullptr;
      const double s = std::strtod(value->c_str(), &end);
      if (value->empty() || end != value->c_str() + value->size() || !std::isfinite(s) || s <= 0 ||
          s > kMaxSeconds)
        return bad("--time takes seconds above 0 and at most 86400, not '" + *value + "'");
      out.seconds = s;
    } else if (a == "--svg") {
      if (value->empty()) return bad("--svg takes a file name");
      out.svg = *value;
    } else if (a == "--json") {
      out.json = true;
    } else if (!a.empty() && a[0] == '-') {
      return bad("unknown option '" + a + "'");
    } else if (out.execution.model.empty()) {
      out.execution.model = a;
    } else {
      return bad("one model file only");
    }
  }
  if (out.execution.model.empty()) return bad("no model file");
  if (!out.runs && !out.seconds) {
    out.runs = kDefaultRuns;
    out.seconds = kDefaultSeconds;
  } else if (!out.runs) {
    out.runs = kMaxRuns;
  }
  return out;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// "\r"-updated progress on a terminal, nothing otherwise; at most ten updates a second.
class Progress {
 public:
  Progress(bool enabled, const Arguments& args) : enabled_(enabled), args_(args) {}
  void update(size_t runs, double elapsed) {
    if (!enabled_ || (elapsed - shown_ < 0.1 && runs > 1)) return;
    shown_ = elapsed;
    std::string line = "bench: " + std::to_string(runs);
    if (args_.runs) line += "/" + std::to_string(*args_.runs);
    char time[64];
    std::snprintf(time, sizeof time, " runs, %.1f s", elapsed);
    line += time;
    if (args_.seconds) {
      std::snprintf(time, sizeof time, " of %g s", *args_.seconds);
      line += time;
    }
    width_ = std::max(width_, line.size());
    std::printf("\r%-*s", static_cast<int>(width_), line.c_str());
    std::fflush(stdout);
  }
  void clear() {
    if (!enabled_ || width_ == 0) return;
    std::printf("\r%*s\r", static_cast<int>(width_), "");
    std::fflush(stdout);
  }

 private:
  bool enabled_;
  const Arguments& args_;
  double shown_ = -1;
  size_t width_ = 0;
};

std::optional<Summary> summarizeKnown(const std::vector<std::optional<double>>& values) {
  std::vector<double> known;
  for (const auto& v : values)
    if (v) known.push_back(*v);
  return summarize(std::move(known));
}

// The position of `key` in `keys`, appended (with `initial` in both parallel lists) when missing.
template <class Key, class List>
size_t indexOf(std::vector<Key>& keys, const Key& key, List& first, List& second,
               typename List::value_type initial = {}) {
  const size_t k = std::find(keys.begin(), keys.end(), key) - keys.begin();
  if (k == keys.size()) {
    keys.push_back(key);
    first.push_back(initial);
    second.push_back(initial);
  }
  return k;
}

// Fills the report's statistics from the measured runs.
void summarizeRuns(const std::vector<Outcome>& runs, BenchReport& report) {
  std::vector<std::optional<double>> hardware, driver;
  for (const Outcome& run : runs) {
    report.latenciesMs.push_back(run.wallMs);
    hardware.push_back(run.onHardwareMs);
    driver.push_back(run.inDriverMs);
  }
  report.latencyMs = *summarize(report.latenciesMs);
  report.onHardwareMs = summarizeKnown(hardware);
  report.inDriverMs = summarizeKnown(driver);

  // Steps by (index, device) and devices, in order of first appearance.
  std::vector<std::pair<size_t, std::string>> stepKeys;
  std::vector<std::vector<std::optional<double>>> stepHardware, stepDriver;
  std::vector<std::string> devices;
  std::vector<std::vector<std::optional<double>>> deviceHardware, deviceDriver;
  auto add = [](std::optional<double>& total, const std::optional<double>& part) {
    total = total && part ? std::optional<double>(*total + *part) : std::nullopt;
  };
  for (const Outcome& run : runs) {
    std::vector<std::string> runDevices;  // this run's steps summed by device
    std::vector<std::optional<double>> runHardware, runDriver;
    for (size_t s = 0; s < run.steps.size(); ++s) {
      const StepTime& step = run.steps[s];
      const size_t k = indexOf(stepKeys, std::make_pair(s, step.device), stepHardware, stepDriver);
      stepHardware[k].push_back(step.onHardwareMs);
      stepDriver[k].push_back(step.inDriverMs);
      const size_t d = indexOf(runDevices, step.device, runHardware, runDriver, 0.0);
      add(runHardware[d], step.onHardwareMs);
      add(runDriver[d], step.inDriverMs);
    }
    for (size_t d = 0; d < runDevices.size(); ++d) {
      const size_t g = indexOf(devices, runDevices[d], deviceHardware, deviceDriver);
      deviceHardware[g].push_back(runHardware[d]);
      deviceDriver[g].push_back(runDriver[d]);
    }
  }
  for (size_t k = 0; k < stepKeys.size(); ++k) {
    report.steps.push_back(StepSummary{stepKeys[k].first, stepKeys[k].second, stepHardware[k].size(),
                                       summarizeKnown(stepHardware[k]), summarizeKnown(stepDriver[k])});
  }

  // The timeline: the run whose latency is nearest the median.
  size_t chosen = 0;
  for (size_t r = 0; r < runs.size(); ++r) {
    if (std::abs(runs[r].wallMs - report.latencyMs.median) <
        std::abs(runs[chosen].wallMs - report.latencyMs.median))
      chosen = r;
  }
  report.timelineRun = chosen;
  report.timeline = runs[chosen].steps;
  for (size_t d = 0; d < devices.size(); ++d) {
    const size_t steps = std::count_if(report.timeline.begin(), report.timeline.end(),
                                       [&](const StepTime& s) { return s.device == devices[d]; });
    report.devices.push_back(
        DeviceSummary{devices[d], steps, summarizeKnown(deviceHardware[d]), summarizeKnown(deviceDriver[d])});
  }
}

std::vector<std::string> summaryRow(const std::string& label, const std::optional<Summary>& s) {
  if (!s) return {label, "n/a", "n/a", "n/a", "n/a", "n/a", "n/a"};
  return {label,
          durationText(s->min),
          durationText(s->mean),
          durationText(s->median),
          durationText(s->p90),
          durationText(s->p99),
          durationText(s->max)};
}

std::string medianText(const std::optional<Summary>& s) {
  return s ? durationText(s->median) : "n/a";
}

void printText(const BenchReport& report) {
  std::printf("model: %s\n", report.model.c_str());
  std::printf("compiled in %.1f ms: %s\n", report.compileMs, report.plan.c_str());
  if (!report.fallback.empty()) std::printf("fallback: %s\n", report.fallback.c_str());
  std::printf("runs: %zu measured in %s after %zu warmup; throughput %.1f runs/s\n",
              report.latenciesMs.size(), durationText(report.totalS * 1000).c_str(), report.warmup,
              report.throughput());
  std::printf("latency:\n");
  TextTable latency({"", "min", "mean", "median", "p90", "p99", "max"});
  latency.add(summaryRow("wall", report.latencyMs));
  latency.add(summaryRow("on hardware", report.onHardwareMs));
  latency.add(summaryRow("in driver", report.inDriverMs));
  latency.print(stdout, "  ");
  std::printf("steps (median over the runs):\n");
  TextTable steps({"step", "device", "runs", "on hardware", "in driver"});
  for (const StepSummary& s : report.steps) {
    steps.add({std::to_string(s.index), s.device, std::to_string(s.runs), medianText(s.onHardwareMs),
               medianText(s.inDriverMs)});
  }
  steps.print(stdout, "  ");
  std::printf("devices (median per run of their steps' sum):\n");
  TextTable devices({"device", "steps", "on hardware", "in driver"});
  for (const DeviceSummary& d : report.devices) {
    devices.add({d.device, std::to_string(d.steps), medianText(d.onHardwareMs), medianText(d.inDriverMs)});
  }
  devices.print(stdout, "  ");
}

void writeSummary(JsonWriter& json, std::string_view key, const std::optional<Summary>& s) {
  json.key(key);
  if (!s) {
    json.null();
    return;
  }
  json.beginObject()
      .field("min", s->min)
      .field("mean", s->mean)
      .field("median", s->median)
      .field("p90", s->p90)
      .field("p99", s->p99)
      .field("max", s->max)
      .endObject();
}

void writeOptional(JsonWriter& json, std::string_view key, const std::optional<double>& v) {
  json.key(key);
  if (v) {
    json.value(*v);
  } else {
    json.null();
  }
}

std::string jsonText(const BenchReport& report) {
  JsonWriter json;
  json.beginObject().field("format", "nnrt-bench").field("version", 1);
  json.field("model", report.model).field("plan", report.plan);
  json.key("fallback");
  if (report.fallback.empty()) {
    json.null();
  } else {
    json.value(report.fallback);
  }
  json.field("compile_ms", report.compileMs)
      .field("warmup", static_cast<uint64_t>(report.warmup))
      .field("runs", static_cast<uint64_t>(report.latenciesMs.size()))
      .field("total_s", report.totalS)
      .field("throughput", report.throughput());
  writeSummary(json, "latency_ms", report.latencyMs);
  writeSummary(json, "on_hardware_ms", report.onHardwareMs);
  writeSummary(json, "in_driver_ms", report.inDriverMs);
  json.key("latencies_ms").beginArray();
  for (double v : report.latenciesMs)
    json.value(v);
  json.endArray();
  json.key("steps").beginArray();
  for (const StepSummary& s : report.steps) {
    json.beginObject().field("index", static_cast<uint64_t>(s.index)).field("device", s.device);
    json.field("runs", static_cast<uint64_t>(s.runs));
    writeSummary(json, "on_hardware_ms", s.onHardwareMs);
    writeSummary(json, "in_driver_ms", s.inDriverMs);
    json.endObject();
  }
  json.endArray();
  json.key("devices").beginArray();
  for (const DeviceSummary& d : report.devices) {
    json.beginObject().field("device", d.device).field("steps", static_cast<uint64_t>(d.steps));
    writeSummary(json, "on_hardware_ms", d.onHardwareMs);
    writeSummary(json, "in_driver_ms", d.inDriverMs);
    json.endObject();
  }
  json.endArray();
  json.key("timeline").beginObject().field("run", static_cast<uint64_t>(report.timelineRun));
  json.key("steps").beginArray();
  for (size_t s = 0; s < report.timeline.size(); ++s) {
    json.beginObject().field("index", static_cast<uint64_t>(s)).field("device", report.timeline[s].device);
    writeOptional(json, "on_hardware_ms", report.timeline[s].onHardwareMs);
    writeOptional(json, "in_driver_ms", report.timeline[s].inDriverMs);
    json.endObject();
  }
  json.endArray().endObject();
  json.endObject();
  return json.str();
}

}  // namespace

int benchCommand(const std::vector<std::string>& argv) {
  if (std::find(argv.begin(), argv.end(), "--help") != argv.end() ||
      std::find(argv.begin(), argv.end(), "-h") != argv.end()) {
    std::printf("%s", kUsage);
    return 0;
  }
  auto args = parseArguments(argv);
  if (!args) return usageError(args.error().message);
  ModelSession session;
  if (auto opened = openSession(args->execution, session); !opened) return failure(opened.error().message);
  const ModelFile& file = *session.file;
  const std::vector<ModelInput>& inputs = session.inputs;
  const Compiled& compiled = session.compiled;
  const auto compiledModel = compiled.compilation->compilation.compiled();

  std::vector<size_t> outputSizes = initialOutputSizes(file);
  for (size_t w = 0; w < args->warmup; ++w) {
    auto outcome = runOnce(file, compiled.compilation, inputs, outputSizes);
    if (!outcome) return failure("warmup run " + std::to_string(w) + ": " + outcome.error().message);
  }
  Progress progress(!args->json && isatty(STDOUT_FILENO), *args);
  std::vector<Outcome> runs;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  while ((!args->runs || runs.size() < *args->runs) && (!args->seconds || elapsed < *args->seconds)) {
    auto outcome = runOnce(file, compiled.compilation, inputs, outputSizes);
    if (!outcome) {
      progress.clear();
      return failure("run " + std::to_string(runs.size()) + ": " + outcome.error().message);
    }
    outcome->outputs = {};  // only the times are kept
    outcome->dimensions = {};
    runs.push_back(std::move(*outcome));
    elapsed = secondsSince(start);
    progress.update(runs.size(), elapsed);
  }
  progress.clear();

  BenchReport report;
  report.model = file.path.string();
  report.plan = compiledModel->plan().plan.summary;
  report.fallback = compiledModel->fallbackNote();
  report.compileMs = compiled.compileMs;
  report.warmup = args->warmup;
  report.totalS = elapsed;
  summarizeRuns(runs, report);

  if (!args->svg.empty()) {
    std::ofstream out(args->svg, std::ios::binary);
    const std::string svg = benchSvg(report);
    if (!out || !out.write(svg.data(), static_cast<std::streamsize>(svg.size()))) {
      return failure("--svg: cannot write '" + args->svg + "'");
    }
  }
  if (args->json) {
    std::printf("%s\n", jsonText(report).c_str());
  } else {
    printText(report);
    if (!args->svg.empty()) std::printf("picture: %s\n", args->svg.c_str());
  }
  return 0;
}

}  // namespace nnrt::tools
