// The `nnrt plan`, `nnrt run` and `nnrt bench` commands, run as the user runs them: the built binary, the
// build tree's configuration, the example model files. `plan --json` is parsed back (yaml-cpp reads JSON) and
// checked field by field against docs/plan-format.md.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tools/nnrt/statistics.hpp"

namespace {

const std::string kTool = NNRT_TOOL;
const std::filesystem::path kModels = std::filesystem::path(NNRT_TEST_SOURCE_DIR) / "examples/models";

struct Output {
  int status = -1;
  std::string text;  // stdout only
};

Output nnrt(const std::string& arguments) {
  Output out;
  std::string command = "NNRT_LOG=error '" + kTool + "' " + arguments + " 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    out.text.append(buffer, n);
  int status = pclose(pipe);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string model(const char* name) {
  return "'" + (kModels / name).string() + "'";
}

// The numbers printed after "output NAME: TYPE [dims]: ".
std::vector<double> printedValues(const std::string& text, const std::string& output) {
  std::vector<double> values;
  size_t line = text.find("output " + output + ": ");
  if (line == std::string::npos) return values;
  size_t start = text.find("]: ", line);
  std::istringstream in(text.substr(start + 3, text.find('\n', start) - start - 3));
  double v;
  while (in >> v)
    values.push_back(v);
  return values;
}

TEST(PlanCommandTest, JsonForAddFibonacciAdd) {
  Output out = nnrt("plan " + model("add_fib_add.yaml") + " --devices cpu,fibonacci --json");
  ASSERT_EQ(out.status, 0) << out.text;
  YAML::Node plan = YAML::Load(out.text);
  EXPECT_EQ(plan["format"].as<std::string>(), "nnrt-plan");
  EXPECT_EQ(plan["version"].as<int>(), 1);
  EXPECT_EQ(plan["preference"].as<std::string>(), "fast-single-answer");
  EXPECT_TRUE(plan["explicit_devices"].as<bool>());
  EXPECT_TRUE(plan["fallback"].IsNull());
  ASSERT_EQ(plan["devices"].size(), 2u);
  EXPECT_EQ(plan["devices"][0]["name"].as<std::string>(), "cpu");
  EXPECT_EQ(plan["devices"][0]["type"].as<std::string>(), "CPU");

  const YAML::Node steps = plan["steps"];
  ASSERT_EQ(steps.size(), 3u) << out.text;
  const char* devices[] = {"cpu", "fibonacci", "cpu"};
  for (size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(steps[s]["index"].as<size_t>(), s);
    EXPECT_EQ(steps[s]["device"].as<std::string>(), devices[s]);
    ASSERT_EQ(steps[s]["operations"].size(), 1u);
    EXPECT_EQ(steps[s]["operations"][0].as<size_t>(), s);
  }
  EXPECT_EQ(steps[0]["inputs"][0].as<std::string>(), "x");
  EXPECT_EQ(steps[0]["outputs"][0].as<std::string>(), "count");
  EXPECT_EQ(steps[1]["after"][0].as<size_t>(), 0u);
  EXPECT_EQ(steps[2]["after"][0].as<size_t>(), 1u);
  EXPECT_EQ(steps[2]["outputs"][0].as<std::string>(), "y");

  const YAML::Node ops = plan["operations"];
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[1]["name"].as<std::string>(), "fibonacci");
  EXPECT_EQ(ops[1]["type"].as<std::string>(), "com.example.fibonacci:EXAMPLE_FIBONACCI");
  EXPECT_EQ(ops[1]["device"].as<std::string>(), "fibonacci");
  EXPECT_EQ(ops[1]["step"].as<size_t>(), 1u);
  EXPECT_EQ(ops[1]["inputs"][0].as<std::string>(), "count");
  ASSERT_EQ(ops[1]["candidates"].size(), 2u);
  EXPECT_EQ(ops[1]["candidates"][0]["device"].as<std::string>(), "cpu");
  EXPECT_TRUE(ops[1]["candidates"][0]["excluded"].as<bool>());
  EXPECT_FALSE(ops[1]["candidates"][0]["why"].as<std::string>().empty());
  EXPECT_FALSE(ops[1]["candidates"][1]["excluded"].as<bool>());
  EXPECT_EQ(ops[0]["device"].as<std::string>(), "cpu");
  EXPECT_FALSE(ops[0]["rule"].as<std::string>().empty());
  EXPECT_EQ(ops[0]["candidates"][0]["cost"].as<double>(), 1.0);  // the reference CPU
  EXPECT_TRUE(ops[0]["candidates"][1]["excluded"].as<bool>());
  EXPECT_EQ(ops[2]["line"].as<int>(), 27);
}

TEST(PlanCommandTest, TextAndDot) {
  std::filesystem::path dot =
      std::filesystem::temp_directory_path() / ("nnrt_cli_test_" + std::to_string(getpid()) + ".dot");
  Output out = nnrt("plan " + model("fibonacci.yaml") + " --dot '" + dot.string() + "'");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_NE(out.text.find("plan: whole model on fibonacci"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("step 0 on fibonacci: 0 com.example.fibonacci:EXAMPLE_FIBONACCI"),
            std::string::npos);
  EXPECT_NE(out.text.find("inputs: n; outputs: fib"), std::string::npos);
  std::ifstream in(dot);
  std::stringstream graph;
  graph << in.rdbuf();
  std::filesystem::remove(dot);
  EXPECT_NE(graph.str().find("subgraph cluster_step0"), std::string::npos) << graph.str();
  EXPECT_NE(graph.str().find("in0 -> op0 [label=\"n\"]"), std::string::npos) << graph.str();
  EXPECT_NE(graph.str().find("op0 -> out1 [label=\"fib\"]"), std::string::npos) << graph.str();
}

TEST(PlanCommandTest, Errors) {
  EXPECT_EQ(nnrt("plan " + model("fibonacci.yaml") + " --devices nosuch").status, 1);
  EXPECT_EQ(nnrt("plan " + model("fibonacci.yaml") + " --preference fastest").status, 2);
  EXPECT_EQ(nnrt("plan /nonexistent.yaml").status, 1);
}

TEST(RunCommandTest, Fibonacci) {
  Output out = nnrt("run " + model("fibonacci.yaml") + " --input n=10 --repeat 3");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_EQ(printedValues(out.text, "fib"), (std::vector<double>{1, 1, 2, 3, 5, 8, 13, 21, 34, 55}))
      << out.text;
  EXPECT_NE(out.text.find("ran on: step 0 on fibonacci"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("timing (median of 3 runs): wall "), std::string::npos) << out.text;
}

TEST(RunCommandTest, OutputFileAndErrors) {
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("nnrt_cli_test_" + std::to_string(getpid()) + ".bin");
  Output out = nnrt("run " + model("fibonacci.yaml") + " --input n=10 --output fib='" + file.string() + "'");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_EQ(std::filesystem::file_size(file), 80u);  // 10 x uint64
  std::filesystem::remove(file);
  EXPECT_EQ(nnrt("run " + model("fibonacci.yaml") + " --input m=10").status, 1);
  EXPECT_EQ(nnrt("run " + model("fibonacci.yaml") + " --input n=1,2").status, 1);  // 16 bytes for a scalar
  EXPECT_EQ(nnrt("run " + model("fibonacci.yaml") + " --input n=0").status, 1);    // the driver refuses n < 1
  EXPECT_EQ(nnrt("run " + model("fibonacci.yaml") + " --repeat 0").status, 2);
  EXPECT_EQ(nnrt("run").status, 2);
}

// Models of standard operations need the cpu plugin to run them.
TEST(RunCommandTest, AddFibonacciAdd) {
  Output out = nnrt("run " + model("add_fib_add.yaml") + " --input x=6");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_EQ(printedValues(out.text, "y"), (std::vector<double>{1.5, 1.25, 2, 2.75, 4.5, 7, 11, 17}))
      << out.text;
  EXPECT_NE(out.text.find("ran on: step 0 on cpu, step 1 on fibonacci, step 2 on cpu"), std::string::npos)
      << out.text;
}

// Control flow: `nnrt run` on the WHILE and IF examples, values worked out by hand.
TEST(RunCommandTest, WhileAndIfExamples) {
  // while i < n: i += 1; sum += i  -> count n, sum n (n + 1) / 2
  Output out = nnrt("run " + model("while_sum.yaml") + " --input n=4");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_EQ(printedValues(out.text, "count"), (std::vector<double>{4})) << out.text;
  EXPECT_EQ(printedValues(out.text, "sum"), (std::vector<double>{10})) << out.text;
  EXPECT_NE(out.text.find("ran on: step 0 on runtime"), std::string::npos) << out.text;
  out = nnrt("run " + model("while_sum.yaml") + " --input n=0");  // the body never runs
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_EQ(printedValues(out.text, "count"), (std::vector<double>{0})) << out.text;
  EXPECT_EQ(printedValues(out.text, "sum"), (std::vector<double>{0})) << out.text;
  out = nnrt("run " + model("while_sum.yaml"));  // the default input: n = 6, sum 21
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_EQ(printedValues(out.text, "sum"), (std::vector<double>{21})) << out.text;

  // y = x + 10 when flag > 0, else -x
  out = nnrt("run " + model("if_branch.yaml") + " --input flag=1 --input x=1,2,3,4");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_EQ(printedValues(out.text, "y"), (std::vector<double>{11, 12, 13, 14})) << out.text;
  EXPECT_NE(out.text.find("ran on: step 0 on cpu, step 1 on runtime"), std::string::npos) << out.text;
  out = nnrt("run " + model("if_branch.yaml") + " --input flag=-0.5 --input x=1,-2,3.5,0");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_EQ(printedValues(out.text, "y"), (std::vector<double>{-1, 2, -3.5, 0})) << out.text;
}

TEST(PlanCommandTest, ControlFlowSubgraphsNested) {
  // Text: each subgraph's plan under the step that runs it, and its operations after the model's.
  Output out = nnrt("plan " + model("while_sum.yaml") + " --devices cpu");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_NE(out.text.find("(1 operation, 6 operands, 2 subgraphs)"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("  step 0 on runtime: 0 WHILE 'loop'\n"
                          "      inputs: n; outputs: count, sum\n"
                          "      condition: subgraph 'less_than_n' (line 12), plan: whole model on cpu\n"
                          "        step 0 on cpu: 0 LESS 'check'\n"
                          "            inputs: i, sum, n; outputs: keep_going\n"
                          "      body: subgraph 'add_next' (line 22), plan: whole model on cpu\n"
                          "        step 0 on cpu: 0 ADD 'count_up', 1 ADD 'accumulate'\n"
                          "            inputs: i, sum, n; outputs: next_i, next_sum\n"),
            std::string::npos)
      << out.text;
  EXPECT_NE(out.text.find("operations of subgraph 'add_next':\n  0 ADD 'count_up' (line 32) -> cpu: only candidate"),
            std::string::npos)
      << out.text;

  // JSON: every step has `subgraphs`; an interpreted step's hold the subgraphs' plans.
  out = nnrt("plan " + model("if_branch.yaml") + " --devices cpu --json");
  ASSERT_EQ(out.status, 0) << out.text;
  YAML::Node plan = YAML::Load(out.text);
  const YAML::Node steps = plan["steps"];
  ASSERT_EQ(steps.size(), 2u) << out.text;
  EXPECT_EQ(steps[0]["device"].as<std::string>(), "cpu");
  EXPECT_EQ(steps[0]["subgraphs"].size(), 0u);
  EXPECT_EQ(steps[1]["device"].as<std::string>(), "runtime");
  EXPECT_EQ(steps[1]["operations"][0].as<int>(), 1);
  const YAML::Node branches = steps[1]["subgraphs"];
  ASSERT_EQ(branches.size(), 2u) << out.text;
  const char* roles[] = {"then", "else"};
  const char* names[] = {"add_ten", "negate"};
  const char* types[] = {"ADD", "NEG"};
  for (size_t b = 0; b < 2; ++b) {
    EXPECT_EQ(branches[b]["role"].as<std::string>(), roles[b]);
    EXPECT_EQ(branches[b]["name"].as<std::string>(), names[b]);
    EXPECT_EQ(branches[b]["summary"].as<std::string>(), "whole model on cpu");
    ASSERT_EQ(branches[b]["steps"].size(), 1u);
    EXPECT_EQ(branches[b]["steps"][0]["device"].as<std::string>(), "cpu");
    EXPECT_EQ(branches[b]["steps"][0]["inputs"][0].as<std::string>(), "x");
    EXPECT_EQ(branches[b]["steps"][0]["outputs"][0].as<std::string>(), "y");
    ASSERT_EQ(branches[b]["operations"].size(), 1u);
    EXPECT_EQ(branches[b]["operations"][0]["type"].as<std::string>(), types[b]);
    EXPECT_EQ(branches[b]["operations"][0]["device"].as<std::string>(), "cpu");
  }
  EXPECT_EQ(branches[0]["line"].as<int>(), 9);
  EXPECT_EQ(plan["operations"][1]["rule"].as<std::string>(), "control flow: interpreted by the runtime");

  // DOT: the branches are clusters inside the runtime's step, with names of their own.
  std::filesystem::path dot =
      std::filesystem::temp_directory_path() / ("nnrt_cli_test_cf_" + std::to_string(getpid()) + ".dot");
  out = nnrt("plan " + model("if_branch.yaml") + " --devices cpu --dot '" + dot.string() + "'");
  ASSERT_EQ(out.status, 0) << out.text;
  std::ifstream in(dot);
  std::stringstream graph;
  graph << in.rdbuf();
  std::filesystem::remove(dot);
  const std::string g = graph.str();
  const size_t runtimeStep = g.find("  subgraph cluster_step1 {\n    label=\"step 1: runtime\"");
  const size_t thenCluster = g.find("    subgraph cluster_step1_then_ {");
  const size_t elseCluster = g.find("    subgraph cluster_step1_else_ {");
  const size_t thenStep = g.find("      subgraph cluster_step1_then_step0 {");
  ASSERT_NE(runtimeStep, std::string::npos) << g;
  ASSERT_NE(thenCluster, std::string::npos) << g;
  ASSERT_NE(elseCluster, std::string::npos) << g;
  EXPECT_LT(runtimeStep, thenCluster);
  EXPECT_LT(thenCluster, thenStep);
  EXPECT_LT(thenStep, elseCluster);
  EXPECT_NE(g.find("step1_else_op0 [label=\"0: NEG\\nminus\""), std::string::npos) << g;
  EXPECT_NE(g.find("step1_then_in0 -> step1_then_op0 [label=\"x\"]"), std::string::npos) << g;
  EXPECT_NE(g.find("step1_else_op0 -> step1_else_out1 [label=\"y\"]"), std::string::npos) << g;
  EXPECT_NE(g.find("  op0 -> op1 [label=\"positive\"]"), std::string::npos) << g;
}

TEST(RunCommandTest, MlpAndCnnOnCpu) {
  for (const char* name : {"mlp.yaml", "cnn.yaml"}) {
    Output out = nnrt("run " + model(name) + " --device cpu");
    ASSERT_EQ(out.status, 0) << name << "\n" << out.text;
    EXPECT_NE(out.text.find("TENSOR_FLOAT32 [1, 8"), std::string::npos) << out.text;
    EXPECT_NE(out.text.find(", DEFAULT (deterministic sequence"), std::string::npos) << out.text;
    std::vector<double> p = printedValues(out.text, "probabilities");
    ASSERT_EQ(p.size(), std::string(name) == "mlp.yaml" ? 4u : 10u) << out.text;
    double sum = 0;
    for (double v : p)
      sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-4) << out.text;
    EXPECT_NE(out.text.find("ran on: step 0 on cpu"), std::string::npos) << out.text;
  }
}

// ---- nnrt bench ---------------------------------------------------------------------------------

// Minimal well-formedness of an XML document: every tag closes in order, attributes are quoted,
// and the root element is <svg>. Returns an empty string when it holds, else what broke.
std::string xmlProblem(const std::string& xml) {
  std::vector<std::string> open;
  std::string root;
  size_t i = 0;
  while ((i = xml.find('<', i)) != std::string::npos) {
    const size_t end = xml.find('>', i);
    if (end == std::string::npos) return "a tag at " + std::to_string(i) + " never ends";
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.starts_with("?")) {
      if (!tag.ends_with("?")) return "bad declaration <" + tag + ">";
      continue;
    }
    if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) return "unbalanced quotes in <" + tag + ">";
    if (tag.starts_with("/")) {
      if (open.empty() || open.back() != tag.substr(1)) return "</" + tag.substr(1) + "> closes nothing open";
      open.pop_back();
      continue;
    }
    const bool selfClosing = tag.ends_with("/");
    const std::string name = tag.substr(0, tag.find_first_of(" /\n"));
    if (name.empty()) return "a tag without a name";
    if (root.empty()) {
      root = name;
    } else if (open.empty()) {
      return "a second root <" + name + ">";
    }
    if (!selfClosing) open.push_back(name);
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  if (root != "svg") return "the root is <" + root + ">, not <svg>";
  return "";
}

// Values worked out by hand: the median is the middle value (mean of the two middle ones), p90 and
// p99 the nearest rank ceil(p / 100 * n).
TEST(BenchStatisticsTest, MedianAndNearestRankPercentiles) {
  EXPECT_FALSE(nnrt::tools::summarize({}).has_value());
  auto one = nnrt::tools::summarize({4.0});
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->min, 4.0);
  EXPECT_EQ(one->median, 4.0);
  EXPECT_EQ(one->p99, 4.0);
  // 1..10 shuffled: median (5 + 6) / 2, p90 rank 9, p99 rank 10, mean 5.5.
  auto ten = nnrt::tools::summarize({7, 3, 10, 1, 5, 9, 2, 8, 6, 4});
  ASSERT_TRUE(ten.has_value());
  EXPECT_EQ(ten->count, 10u);
  EXPECT_EQ(ten->min, 1.0);
  EXPECT_EQ(ten->median, 5.5);
  EXPECT_EQ(ten->mean, 5.5);
  EXPECT_EQ(ten->p90, 9.0);
  EXPECT_EQ(ten->p99, 10.0);
  EXPECT_EQ(ten->max, 10.0);
  // 1..200: p90 rank 180, p99 rank 198, median (100 + 101) / 2.
  std::vector<double> many;
  for (int v = 200; v >= 1; --v)
    many.push_back(v);
  auto summary = nnrt::tools::summarize(many);
  EXPECT_EQ(summary->median, 100.5);
  EXPECT_EQ(summary->p90, 180.0);
  EXPECT_EQ(summary->p99, 198.0);
}

TEST(BenchCommandTest, JsonHasTheRunsAndOrderedStatistics) {
  Output out = nnrt("bench " + model("mlp.yaml") + " --device cpu --runs 20 --warmup 2 --json");
  ASSERT_EQ(out.status, 0) << out.text;
  YAML::Node bench = YAML::Load(out.text);
  EXPECT_EQ(bench["format"].as<std::string>(), "nnrt-bench");
  EXPECT_EQ(bench["version"].as<int>(), 1);
  EXPECT_EQ(bench["plan"].as<std::string>(), "whole model on cpu");
  EXPECT_TRUE(bench["fallback"].IsNull());
  EXPECT_EQ(bench["warmup"].as<int>(), 2);
  EXPECT_EQ(bench["runs"].as<int>(), 20);
  EXPECT_GT(bench["compile_ms"].as<double>(), 0.0);
  const YAML::Node latencies = bench["latencies_ms"];
  ASSERT_EQ(latencies.size(), 20u);
  double smallest = 1e300, largest = 0, sum = 0;
  for (const YAML::Node& v : latencies) {
    smallest = std::min(smallest, v.as<double>());
    largest = std::max(largest, v.as<double>());
    sum += v.as<double>();
  }
  // The summary agrees with the list (within the 6 significant digits both are printed with).
  const YAML::Node latency = bench["latency_ms"];
  const double min = latency["min"].as<double>(), median = latency["median"].as<double>();
  const double p90 = latency["p90"].as<double>(), p99 = latency["p99"].as<double>();
  const double max = latency["max"].as<double>(), mean = latency["mean"].as<double>();
  EXPECT_GT(min, 0.0);
  EXPECT_LE(min, median);
  EXPECT_LE(median, p90);
  EXPECT_LE(p90, p99);
  EXPECT_LE(p99, max);
  EXPECT_LE(min, mean);
  EXPECT_LE(mean, max);
  EXPECT_NEAR(min, smallest, 1e-5 * smallest);
  EXPECT_NEAR(max, largest, 1e-5 * largest);
  EXPECT_NEAR(mean, sum / 20, 1e-4 * mean);
  EXPECT_NEAR(p99, largest, 1e-5 * largest);  // nearest rank: ceil(0.99 * 20) = 20, the largest
  EXPECT_NEAR(bench["throughput"].as<double>() * bench["total_s"].as<double>(), 20.0, 1e-3);
  // The cpu measures its steps: one step on the cpu, in every run.
  ASSERT_TRUE(bench["in_driver_ms"].IsMap()) << out.text;
  EXPECT_LE(bench["in_driver_ms"]["min"].as<double>(), bench["in_driver_ms"]["max"].as<double>());
  ASSERT_EQ(bench["steps"].size(), 1u);
  EXPECT_EQ(bench["steps"][0]["index"].as<int>(), 0);
  EXPECT_EQ(bench["steps"][0]["device"].as<std::string>(), "cpu");
  EXPECT_EQ(bench["steps"][0]["runs"].as<int>(), 20);
  ASSERT_EQ(bench["devices"].size(), 1u);
  EXPECT_EQ(bench["devices"][0]["device"].as<std::string>(), "cpu");
  EXPECT_EQ(bench["devices"][0]["steps"].as<int>(), 1);
  EXPECT_LT(bench["timeline"]["run"].as<int>(), 20);
  ASSERT_EQ(bench["timeline"]["steps"].size(), 1u);
  EXPECT_EQ(bench["timeline"]["steps"][0]["device"].as<std::string>(), "cpu");
}

// Steps on two devices; the fibonacci driver does not measure its time, which is reported as null.
TEST(BenchCommandTest, StepsByDeviceAndText) {
  Output out =
      nnrt("bench " + model("add_fib_add.yaml") + " --input x=6 --devices cpu,fibonacci --runs 5 --json");
  ASSERT_EQ(out.status, 0) << out.text;
  YAML::Node bench = YAML::Load(out.text);
  const YAML::Node steps = bench["steps"];
  ASSERT_EQ(steps.size(), 3u) << out.text;
  const char* devices[] = {"cpu", "fibonacci", "cpu"};
  for (size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(steps[s]["index"].as<size_t>(), s);
    EXPECT_EQ(steps[s]["device"].as<std::string>(), devices[s]);
    EXPECT_EQ(steps[s]["runs"].as<int>(), 5);
  }
  EXPECT_TRUE(steps[1]["on_hardware_ms"].IsNull());
  EXPECT_TRUE(steps[1]["in_driver_ms"].IsNull());
  EXPECT_TRUE(bench["in_driver_ms"].IsNull());  // a sum with an unknown part is unknown
  ASSERT_EQ(bench["devices"].size(), 2u);
  EXPECT_EQ(bench["devices"][0]["device"].as<std::string>(), "cpu");
  EXPECT_EQ(bench["devices"][0]["steps"].as<int>(), 2);
  EXPECT_EQ(bench["devices"][1]["device"].as<std::string>(), "fibonacci");
  EXPECT_TRUE(bench["devices"][1]["in_driver_ms"].IsNull());

  out = nnrt("bench " + model("add_fib_add.yaml") + " --input x=6 --runs 3 --warmup 0");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_EQ(out.text.find('\r'), std::string::npos) << "no progress line when piped";
  EXPECT_NE(out.text.find("compiled in "), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("runs: 3 measured in "), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("  wall  "), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("  1     fibonacci  3     n/a"), std::string::npos) << out.text;
}

TEST(BenchCommandTest, TimeLimit) {
  Output out = nnrt("bench " + model("mlp.yaml") + " --time 0.05 --warmup 0 --json");
  ASSERT_EQ(out.status, 0) << out.text;
  YAML::Node bench = YAML::Load(out.text);
  EXPECT_GE(bench["runs"].as<int>(), 1);
  EXPECT_GE(bench["total_s"].as<double>(), 0.05);
  EXPECT_LT(bench["total_s"].as<double>(), 1.0);
  // --runs and --time: whichever comes first.
  out = nnrt("bench " + model("mlp.yaml") + " --time 5 --runs 3 --json");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_EQ(YAML::Load(out.text)["runs"].as<int>(), 3);
}

TEST(BenchCommandTest, SvgIsWellFormed) {
  std::filesystem::path svg =
      std::filesystem::temp_directory_path() / ("nnrt_cli_test_" + std::to_string(getpid()) + ".svg");
  Output out =
      nnrt("bench " + model("add_fib_add.yaml") + " --input x=6 --runs 20 --svg '" + svg.string() + "'");
  ASSERT_EQ(out.status, 0) << out.text;
  EXPECT_NE(out.text.find("picture: " + svg.string()), std::string::npos) << out.text;
  std::ifstream in(svg);
  std::stringstream picture;
  picture << in.rdbuf();
  std::filesystem::remove(svg);
  const std::string text = picture.str();
  EXPECT_EQ(xmlProblem(text), "") << text;
  EXPECT_NE(text.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  for (const char* banned : {"nan", "inf", "<script", "href", "url("}) {
    EXPECT_EQ(text.find(banned), std::string::npos) << banned << " in\n" << text;
  }
  EXPECT_NE(text.find("<title>step 0 on cpu: "), std::string::npos) << text;  // a timeline bar
  EXPECT_NE(text.find("not drawn: step 1"), std::string::npos) << text;       // fibonacci does not measure
  EXPECT_NE(text.find(">median "), std::string::npos) << text;

  // The checker itself catches what it is meant to.
  EXPECT_NE(xmlProblem("<svg><g></svg>"), "");
  EXPECT_NE(xmlProblem("<html></html>"), "");
  EXPECT_NE(xmlProblem("<svg><rect x=\"1/></svg>"), "");
}

TEST(BenchCommandTest, BadOptionsAreOneLineErrors) {
  const std::string mlp = model("mlp.yaml");
  for (const std::string arguments :
       {"--runs 0", "--runs x", "--runs", "--warmup -1", "--time 0", "--time nan", "--time 1e9", "--time 2s",
        "--preference fastest", "--input", "--frobnicate", ""}) {
    const std::string command = "NNRT_LOG=error '" + kTool + "' bench " +
                                (arguments.empty() ? std::string() : mlp + " ") + arguments +
                                " 2>&1 >/dev/null";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string err;
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
      err.append(buffer, n);
    const int status = pclose(pipe);
    EXPECT_EQ(WEXITSTATUS(status), 2) << arguments;
    ASSERT_TRUE(err.starts_with("nnrt bench: ")) << arguments << ": " << err;
    const std::string first = err.substr(0, err.find('\n'));
    EXPECT_NE(first.find(arguments.empty() ? "no model file" : arguments.substr(0, arguments.find(' '))),
              std::string::npos)
        << "the error names the option: " << first;
    EXPECT_NE(err.find("usage: nnrt bench MODEL"), std::string::npos) << err;
  }
  EXPECT_EQ(nnrt("bench " + mlp + " --devices nosuch").status, 1);
  EXPECT_EQ(nnrt("bench /nonexistent.yaml --runs 1").status, 1);
  EXPECT_EQ(nnrt("bench " + mlp + " --runs 1 --svg /nonexistent/dir/x.svg").status, 1);
}

// An ONNX model (ONNX's node test of a padded 3x3 convolution, from libonnx-testdata): x from a .npy
// file holding 0..24, W inline as ones, y written as .npy. By hand: each output is the sum of the
// input's 3x3 neighbourhood with zero padding: y[0][0] = 0 + 1 + 5 + 6 = 12, y[2][2] = 6 + 7 + 8 +
// 11 + 12 + 13 + 16 + 17 + 18 = 108.
TEST(RunCommandTest, OnnxModelWithNpyFiles) {
  const std::filesystem::path onnx =
      "/usr/share/libonnx-testdata/data/node/test_basic_conv_with_padding/model.onnx";
  if (!std::filesystem::exists(onnx)) GTEST_SKIP() << onnx << " missing (install libonnx-testdata)";
  const auto dir = std::filesystem::temp_directory_path();
  const std::string in = (dir / ("nnrt_cli_x_" + std::to_string(getpid()) + ".npy")).string();
  const std::string out = (dir / ("nnrt_cli_y_" + std::to_string(getpid()) + ".npy")).string();
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 5, 5), }";
  header.append(128 - 10 - header.size() - 1, ' ');  // the header padded to 128 bytes with its preamble
  header += '\n';
  {
    std::ofstream npy(in, std::ios::binary);
    npy << "\x93NUMPY" << char(1) << char(0) << char(header.size()) << char(0) << header;
    for (int i = 0; i < 25; ++i) {
      float v = static_cast<float>(i);
      npy.write(reinterpret_cast<const char*>(&v), 4);
    }
  }
  Output run = nnrt("run '" + onnx.string() + "' --input x='" + in +
                    "' --input W=1,1,1,1,1,1,1,1,1 --output y='" + out + "'");
  ASSERT_EQ(run.status, 0) << run.text;
  std::ifstream result(out, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(result)), std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), 100u);
  const size_t dataStart = bytes.size() - 100;  // nnrt pads its header to a multiple of 64 bytes
  EXPECT_EQ(dataStart % 64, 0u);
  EXPECT_NE(bytes.find("'shape': (1, 1, 5, 5)"), std::string::npos);
  float y[25];
  std::memcpy(y, bytes.data() + dataStart, sizeof y);
  EXPECT_EQ(y[0], 12.0f);
  EXPECT_EQ(y[12], 108.0f);
  // nnrt bench loads the same .onnx model and reads the same .npy input.
  Output bench = nnrt("bench '" + onnx.string() + "' --device cpu --input x='" + in +
                      "' --input W=1,1,1,1,1,1,1,1,1 --runs 3 --warmup 0 --json");
  ASSERT_EQ(bench.status, 0) << bench.text;
  EXPECT_EQ(YAML::Load(bench.text)["runs"].as<int>(), 3);
  std::filesystem::remove(in);
  std::filesystem::remove(out);

  Output plan = nnrt("plan '" + onnx.string() + "'");
  EXPECT_EQ(plan.status, 0);
  EXPECT_NE(plan.text.find("CONV_2D"), std::string::npos) << plan.text;
  const std::string bad = (dir / ("nnrt_cli_bad_" + std::to_string(getpid()) + ".onnx")).string();
  std::ofstream(bad) << "not a model";
  EXPECT_EQ(nnrt("run '" + bad + "'").status, 1);
  std::filesystem::remove(bad);
}

// Inputs of unknown dimensions: a YAML model's x [0, 2] (ADD of [10, 20]) takes its shape from --shape,
// a .npy array's shape, or a raw file's size (one unknown dimension); an ONNX model's symbolic batch
// is loaded again with the shape the data gives (then its Conv runs on NHWC images: a TRANSPOSE in
// the plan). What does not fit is a one-line error. Values by hand.
TEST(RunCommandTest, InputsOfUnknownDimensions) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string tag = std::to_string(getpid());
  const std::string yaml = (dir / ("nnrt_cli_dyn_" + tag + ".yaml")).string();
  std::ofstream(yaml) << "version: 1\n"
                         "operands:\n"
                         "  - {name: x, type: TENSOR_FLOAT32, dims: [0, 2]}\n"
                         "  - {name: y, type: TENSOR_FLOAT32, dims: [1, 2], value: [10, 20]}\n"
                         "  - {name: act, type: INT32, value: 0}\n"
                         "  - {name: out, type: TENSOR_FLOAT32, dims: [0, 2]}\n"
                         "operations:\n"
                         "  - {type: ADD, inputs: [x, y, act], outputs: [out]}\n"
                         "inputs: [x]\n"
                         "outputs: [out]\n";
  Output inferred = nnrt("run '" + yaml + "' --device cpu --input x=1,2,3,4,5,6");
  ASSERT_EQ(inferred.status, 0) << inferred.text;
  EXPECT_NE(inferred.text.find("input  x: TENSOR_FLOAT32 [3, 2], given (shape from its size)"), std::string::npos)
      << inferred.text;
  EXPECT_EQ(printedValues(inferred.text, "out"), (std::vector<double>{11, 22, 13, 24, 15, 26}));
  // The default input (6 4 4 4 ...) in the shape --shape gives.
  Output shaped = nnrt("run '" + yaml + "' --device cpu --shape x=2,2");
  ASSERT_EQ(shaped.status, 0) << shaped.text;
  EXPECT_EQ(printedValues(shaped.text, "out"), (std::vector<double>{16, 24, 14, 24}));
  const std::string npy = (dir / ("nnrt_cli_dyn_" + tag + ".npy")).string();
  {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }";
    header.append(128 - 10 - header.size() - 1, ' ');
    header += '\n';
    std::ofstream out(npy, std::ios::binary);
    out << "\x93NUMPY" << char(1) << char(0) << char(header.size()) << char(0) << header;
    const float values[2] = {-10, 1};
    out.write(reinterpret_cast<const char*>(values), sizeof values);
  }
  Output fromNpy = nnrt("run '" + yaml + "' --device cpu --input x='" + npy + "'");
  ASSERT_EQ(fromNpy.status, 0) << fromNpy.text;
  EXPECT_EQ(printedValues(fromNpy.text, "out"), (std::vector<double>{0, 21}));
  EXPECT_EQ(nnrt("run '" + yaml + "' --device cpu").status, 1);                       // no shape, no data
  EXPECT_EQ(nnrt("run '" + yaml + "' --device cpu --input x=1,2,3").status, 1);       // 3 values: no [n, 2]
  EXPECT_EQ(nnrt("run '" + yaml + "' --device cpu --shape x=2,3").status, 1);         // does not fit [0, 2]
  EXPECT_EQ(nnrt("run '" + yaml + "' --device cpu --shape y=2,2").status, 1);         // no input y
  EXPECT_EQ(nnrt("run '" + yaml + "' --device cpu --shape x=2,0").status, 2);         // not a dimension

  // An ONNX Conv of ones (3x3, padding 1) over x [N, 1, 2, 2]: every output is the sum of the image.
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  auto* graph = model.mutable_graph();
  graph->set_name("symbolic");
  for (const char* name : {"x", "y"}) {
    auto* info = std::string(name) == "x" ? graph->add_input() : graph->add_output();
    info->set_name(name);
    auto* tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
    tensor->mutable_shape()->add_dim()->set_dim_param("N");
    for (int d : {1, 2, 2}) tensor->mutable_shape()->add_dim()->set_dim_value(d);
  }
  auto* w = graph->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  for (int d : {1, 1, 3, 3}) w->add_dims(d);
  for (int i = 0; i < 9; ++i) w->add_float_data(1.0f);
  auto* conv = graph->add_node();
  conv->set_op_type("Conv");
  conv->add_input("x");
  conv->add_input("w");
  conv->add_output("y");
  auto* pads = conv->add_attribute();
  pads->set_name("pads");
  pads->set_type(onnx::AttributeProto::INTS);
  for (int i = 0; i < 4; ++i) pads->add_ints(1);
  const std::string onnxFile = (dir / ("nnrt_cli_dyn_" + tag + ".onnx")).string();
  std::ofstream(onnxFile, std::ios::binary) << model.SerializeAsString();
  Output batch = nnrt("run '" + onnxFile + "' --device cpu --input x=1,2,3,4,10,20,30,40 --explain");
  ASSERT_EQ(batch.status, 0) << batch.text;
  EXPECT_NE(batch.text.find("input  x: TENSOR_FLOAT32 [2, 1, 2, 2], given (shape from its size)"), std::string::npos)
      << batch.text;
  EXPECT_NE(batch.text.find("TRANSPOSE"), std::string::npos) << batch.text;  // NHWC once the shape is known
  EXPECT_EQ(printedValues(batch.text, "y"), (std::vector<double>{10, 10, 10, 10, 100, 100, 100, 100}));
  Output plan = nnrt("plan '" + onnxFile + "' --shape x=3,1,2,2");
  ASSERT_EQ(plan.status, 0) << plan.text;
  EXPECT_NE(plan.text.find("CONV_2D"), std::string::npos) << plan.text;
  EXPECT_EQ(nnrt("run '" + onnxFile + "' --device cpu --shape x=2,1,3,2").status, 1);  // the file says 2, 2
  for (const std::string& f : {yaml, npy, onnxFile}) std::filesystem::remove(f);
}

// An ONNX model's int64 input (NNAPI carries it as TENSOR_INT32) from a raw file of int64 values, as ONNX
// Runtime takes it: narrowed. Gather of [10, 20, 30, 40, 50] at indices [4, 0, 2] gives [50, 10, 30]; the
// same indices as a file of int32 values give the same; a value beyond int32 is a one-line error.
TEST(RunCommandTest, OnnxInt64InputFromARawFile) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  auto* graph = model.mutable_graph();
  graph->set_name("gather");
  auto* input = graph->add_input();
  input->set_name("i");
  input->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
  input->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(3);
  auto* output = graph->add_output();
  output->set_name("y");
  output->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  output->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(3);
  auto* data = graph->add_initializer();
  data->set_name("data");
  data->set_data_type(onnx::TensorProto::FLOAT);
  data->add_dims(5);
  for (float v : {10.0f, 20.0f, 30.0f, 40.0f, 50.0f}) data->add_float_data(v);
  auto* gather = graph->add_node();
  gather->set_op_type("Gather");
  gather->add_input("data");
  gather->add_input("i");
  gather->add_output("y");
  const auto dir = std::filesystem::temp_directory_path();
  const std::string tag = std::to_string(getpid());
  const std::string onnxFile = (dir / ("nnrt_cli_gather_" + tag + ".onnx")).string();
  std::ofstream(onnxFile, std::ios::binary) << model.SerializeAsString();
  auto write = [&](const std::string& name, const auto& values) {
    const std::string path = (dir / (name + tag + ".bin")).string();
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(values[0])));
    return path;
  };
  const std::string wide = write("nnrt_cli_i64_", std::vector<int64_t>{4, 0, 2});
  const std::string narrow = write("nnrt_cli_i32_", std::vector<int32_t>{4, 0, 2});
  const std::string beyond = write("nnrt_cli_big_", std::vector<int64_t>{4, int64_t{1} << 33, 2});
  for (const std::string& file : {wide, narrow}) {
    Output run = nnrt("run '" + onnxFile + "' --device cpu --input i='" + file + "'");
    ASSERT_EQ(run.status, 0) << run.text;
    EXPECT_EQ(printedValues(run.text, "y"), (std::vector<double>{50, 10, 30})) << file;
  }
  EXPECT_NE(nnrt("run '" + onnxFile + "' --device cpu --input i='" + beyond + "'").status, 0);
  for (const std::string& f : {onnxFile, wide, narrow, beyond}) std::filesystem::remove(f);
}

}  // namespace
