// The `nnrt plan` and `nnrt run` commands, run as the user runs them: the built binary, the build
// tree's configuration, the example model files. `plan --json` is parsed back (yaml-cpp reads JSON)
// and checked field by field against docs/plan-format.md.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstring>
#include <iterator>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace

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
