// A bounded fuzz test of the model builder through the public C API: random sequences of
// addOperand, setOperandValue, setOperandSymmPerChannelQuantParams, addOperation,
// identifyInputsAndOutputs, relaxComputationFloat32toFloat16 and finish, with random operand types,
// shapes, indices, lengths and NULL pointers, biased towards valid calls so that models often
// finish; finished models are then compiled and, when that succeeds, run once on zero inputs.
//
// What must hold: nothing crashes or leaks (CI runs this under ASan+UBSan), and every call returns
// one of NNAPI's result codes. One fixed seed always runs; then random seeds for
// NNRT_FUZZ_SECONDS (default 2) seconds, each printed so that a failure can be replayed with
// NNRT_FUZZ_SEED.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kLastResultCode = ANEURALNETWORKS_DEAD_OBJECT;

class Fuzzer {
 public:
  explicit Fuzzer(uint64_t seed) : rng_(seed) {}

  // One model: returns false when a call returned something that is not a result code.
  void run() {
    ANeuralNetworksModel* model = nullptr;
    ASSERT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
    operands_.clear();
    values_.clear();
    inputs_.clear();
    outputs_.clear();
    if (chance(50)) buildPlausible(model);  // then a few random calls on top
    const int calls = operands_.empty() ? pick(1, 40) : pick(0, 3);
    for (int i = 0; i < calls; ++i) step(model);
    check(ANeuralNetworksModel_identifyInputsAndOutputs(model, static_cast<uint32_t>(inputs_.size()),
                                                        inputs_.empty() ? &kZero : inputs_.data(),
                                                        static_cast<uint32_t>(outputs_.size()),
                                                        outputs_.empty() ? &kZero : outputs_.data()),
          "identifyInputsAndOutputs");
    const int finished = ANeuralNetworksModel_finish(model);
    check(finished, "finish");
    if (finished == ANEURALNETWORKS_NO_ERROR) {
      ++finishedModels_;
      compileAndRun(model);
    }
    ANeuralNetworksModel_free(model);
  }

  int finishedModels() const { return finishedModels_; }
  int compiledModels() const { return compiledModels_; }

 private:
  struct OperandInfo {
    int32_t type;
    std::vector<uint32_t> dims;
  };

  static constexpr uint32_t kZero = 0;

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(int percent) { return pick(1, 100) <= percent; }

  void check(int code, const char* call) {
    EXPECT_GE(code, 0) << call;
    EXPECT_LE(code, kLastResultCode) << call;
  }

  int32_t randomOperandType() {
    static const int32_t common[] = {
        ANEURALNETWORKS_TENSOR_FLOAT32, ANEURALNETWORKS_TENSOR_FLOAT32, ANEURALNETWORKS_INT32,
        ANEURALNETWORKS_INT32,          ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, ANEURALNETWORKS_TENSOR_INT32,
        ANEURALNETWORKS_FLOAT32,        ANEURALNETWORKS_BOOL,               ANEURALNETWORKS_TENSOR_FLOAT16,
        ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL,
        ANEURALNETWORKS_TENSOR_BOOL8,   ANEURALNETWORKS_FLOAT16,            ANEURALNETWORKS_TENSOR_QUANT16_SYMM,
        ANEURALNETWORKS_UINT32,         ANEURALNETWORKS_TENSOR_OEM_BYTE};
    if (chance(3)) return pick(-5, 20000);  // anything, mostly invalid
    return common[pick(0, static_cast<int>(std::size(common)) - 1)];
  }

  static bool isScalar(int32_t type) {
    return type == ANEURALNETWORKS_INT32 || type == ANEURALNETWORKS_FLOAT32 || type == ANEURALNETWORKS_BOOL ||
           type == ANEURALNETWORKS_FLOAT16 || type == ANEURALNETWORKS_UINT32;
  }
  static bool isQuantized(int32_t type) {
    return type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM || type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED ||
           type == ANEURALNETWORKS_TENSOR_QUANT16_SYMM;
  }
  static size_t elementBytes(int32_t type) {
    switch (type) {
      case ANEURALNETWORKS_TENSOR_FLOAT32:
      case ANEURALNETWORKS_INT32:
      case ANEURALNETWORKS_TENSOR_INT32:
      case ANEURALNETWORKS_FLOAT32:
      case ANEURALNETWORKS_UINT32:
        return 4;
      case ANEURALNETWORKS_TENSOR_FLOAT16:
      case ANEURALNETWORKS_FLOAT16:
      case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
        return 2;
      default:
        return 1;
    }
  }

  void step(ANeuralNetworksModel* model) {
    const int what = pick(0, 99);
    if (what < 40) {
      addOperand(model);
    } else if (what < 60) {
      setValue(model);
    } else if (what < 64) {
      setChannelQuant(model);
    } else if (what < 92) {
      addOperation(model);
    } else if (what < 94) {
      check(ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, chance(50)), "relax");
    } else if (what < 96) {
      check(ANeuralNetworksModel_finish(model), "finish (early)");
    } else {
      chooseInputsAndOutputs();
    }
  }

  // A chain of element-wise operations over one float32 input whose shapes and parameters are
  // mostly right, with random shapes ([3, 2] against [2, 1] does not broadcast) and FuseCodes (999)
  // that only the device can refuse.
  void buildPlausible(ANeuralNetworksModel* model) {
    auto operand = [&](int32_t type, std::vector<uint32_t> dims) {
      ANeuralNetworksOperandType t{type, static_cast<uint32_t>(dims.size()), dims.empty() ? nullptr : dims.data(),
                                   0.0f, 0};
      check(ANeuralNetworksModel_addOperand(model, &t), "addOperand");
      operands_.push_back({type, std::move(dims)});
      return static_cast<uint32_t>(operands_.size() - 1);
    };
    auto shape = [&]() -> std::vector<uint32_t> {
      if (chance(80)) return {2, 3};
      std::vector<uint32_t> dims(static_cast<size_t>(pick(0, 3)));
      for (auto& d : dims) d = static_cast<uint32_t>(pick(0, 3));
      return dims;
    };
    uint32_t current = operand(ANEURALNETWORKS_TENSOR_FLOAT32, {2, 3});
    inputs_.push_back(current);
    static const int32_t unary[] = {ANEURALNETWORKS_RELU, ANEURALNETWORKS_RELU1, ANEURALNETWORKS_RELU6,
                                    ANEURALNETWORKS_LOGISTIC, ANEURALNETWORKS_TANH, ANEURALNETWORKS_FLOOR};
    static const int32_t binary[] = {ANEURALNETWORKS_ADD, ANEURALNETWORKS_SUB, ANEURALNETWORKS_MUL,
                                     ANEURALNETWORKS_DIV};
    for (int k = pick(1, 5); k > 0; --k) {
      const uint32_t out = operand(ANEURALNETWORKS_TENSOR_FLOAT32, shape());
      std::vector<uint32_t> in{current};
      int32_t type;
      if (chance(50)) {
        type = unary[pick(0, static_cast<int>(std::size(unary)) - 1)];
      } else {
        type = binary[pick(0, static_cast<int>(std::size(binary)) - 1)];
        const uint32_t other = operand(ANEURALNETWORKS_TENSOR_FLOAT32, shape());
        std::vector<float> values(6, 1.5f);
        if (operands_[other].dims == std::vector<uint32_t>{2, 3} && chance(50)) {
          check(ANeuralNetworksModel_setOperandValue(model, static_cast<int32_t>(other), values.data(), 24),
                "setOperandValue");
        } else {
          inputs_.push_back(other);
        }
        const uint32_t act = operand(ANEURALNETWORKS_INT32, {});
        int32_t code = chance(85) ? pick(0, 3) : (chance(50) ? 999 : -1);
        check(ANeuralNetworksModel_setOperandValue(model, static_cast<int32_t>(act), &code, sizeof code),
              "setOperandValue");
        in.push_back(other);
        in.push_back(act);
      }
      check(ANeuralNetworksModel_addOperation(model, type, static_cast<uint32_t>(in.size()), in.data(), 1, &out),
            "addOperation");
      current = out;
    }
    outputs_.push_back(current);
  }

  void addOperand(ANeuralNetworksModel* model) {
    OperandInfo info{randomOperandType(), {}};
    if (!isScalar(info.type) || chance(5)) {
      const int rank = chance(5) ? pick(0, 10) : pick(1, 4);
      for (int d = 0; d < rank; ++d) info.dims.push_back(chance(10) ? 0u : static_cast<uint32_t>(pick(1, 4)));
    }
    float scale = isQuantized(info.type) || chance(5) ? 0.5f : 0.0f;
    int32_t zeroPoint = chance(90) ? 0 : pick(-300, 300);
    ANeuralNetworksOperandType type{info.type, static_cast<uint32_t>(info.dims.size()),
                                    info.dims.empty() ? nullptr : info.dims.data(), scale, zeroPoint};
    if (chance(3)) type.dimensions = nullptr;  // inconsistent with the count
    const int code = ANeuralNetworksModel_addOperand(model, &type);
    check(code, "addOperand");
    if (code == ANEURALNETWORKS_NO_ERROR) operands_.push_back(info);
  }

  int32_t randomIndex() {
    if (operands_.empty() || chance(5)) return pick(-2, 50);
    return pick(0, static_cast<int>(operands_.size()) - 1);
  }

  void setValue(ANeuralNetworksModel* model) {
    const int32_t index = randomIndex();
    size_t length = 0;
    if (index >= 0 && static_cast<size_t>(index) < operands_.size()) {
      const OperandInfo& o = operands_[index];
      length = elementBytes(o.type);
      for (uint32_t d : o.dims) length *= d;
    }
    if (chance(10)) length = static_cast<size_t>(pick(0, 300));
    // Values over 128 bytes are referenced until finish, so the buffer lives as long as the model.
    std::vector<uint8_t>& bytes = values_.emplace_back(length);
    for (auto& b : bytes) b = static_cast<uint8_t>(chance(80) ? pick(0, 3) : pick(0, 255));
    const void* buffer = bytes.empty() ? nullptr : bytes.data();
    if (chance(5)) buffer = nullptr;
    check(ANeuralNetworksModel_setOperandValue(model, index, buffer, length), "setOperandValue");
  }

  void setChannelQuant(ANeuralNetworksModel* model) {
    std::vector<float> scales(static_cast<size_t>(pick(0, 5)), 0.25f);
    if (chance(10) && !scales.empty()) scales[0] = -1.0f;
    ANeuralNetworksSymmPerChannelQuantParams params{static_cast<uint32_t>(pick(0, 4)),
                                                    static_cast<uint32_t>(scales.size()),
                                                    scales.empty() ? nullptr : scales.data()};
    check(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, randomIndex(), &params),
          "setOperandSymmPerChannelQuantParams");
  }

  void addOperation(ANeuralNetworksModel* model) {
    int32_t type = pick(0, 105);
    if (chance(50)) type = pick(0, 40) % 30;  // the feature-level 1 operations more often
    if (chance(2)) type = pick(-3, 20000);
    std::vector<uint32_t> in(static_cast<size_t>(pick(0, 8))), out(static_cast<size_t>(pick(0, 2)));
    for (auto& i : in) i = static_cast<uint32_t>(randomIndex());
    for (auto& o : out) o = static_cast<uint32_t>(randomIndex());
    const uint32_t* inPtr = in.empty() ? (chance(50) ? nullptr : &kZero) : in.data();
    const uint32_t* outPtr = out.empty() ? (chance(50) ? nullptr : &kZero) : out.data();
    check(ANeuralNetworksModel_addOperation(model, type, static_cast<uint32_t>(in.size()), inPtr,
                                            static_cast<uint32_t>(out.size()), outPtr),
          "addOperation");
    if (!out.empty() && chance(60)) outputs_.assign(out.begin(), out.end());
  }

  void chooseInputsAndOutputs() {
    inputs_.clear();
    outputs_.clear();
    for (int i = pick(0, 3); i > 0; --i) inputs_.push_back(static_cast<uint32_t>(randomIndex()));
    for (int i = pick(1, 2); i > 0; --i) outputs_.push_back(static_cast<uint32_t>(randomIndex()));
  }

  void compileAndRun(ANeuralNetworksModel* model) {
    ANeuralNetworksCompilation* compilation = nullptr;
    check(ANeuralNetworksCompilation_create(model, &compilation), "Compilation_create");
    if (compilation == nullptr) return;
    const int compiled = ANeuralNetworksCompilation_finish(compilation);
    check(compiled, "Compilation_finish");
    if (compiled == ANEURALNETWORKS_NO_ERROR) {
      ++compiledModels_;
      ANeuralNetworksExecution* execution = nullptr;
      check(ANeuralNetworksExecution_create(compilation, &execution), "Execution_create");
      std::vector<std::vector<uint8_t>> buffers;
      for (size_t i = 0; i < inputs_.size(); ++i) {
        buffers.emplace_back(4096, 0);
        check(ANeuralNetworksExecution_setInput(execution, static_cast<int32_t>(i), nullptr, buffers.back().data(),
                                                bufferLength(inputs_[i])),
              "setInput");
      }
      for (size_t i = 0; i < outputs_.size(); ++i) {
        buffers.emplace_back(4096, 0);
        check(ANeuralNetworksExecution_setOutput(execution, static_cast<int32_t>(i), nullptr, buffers.back().data(),
                                                 bufferLength(outputs_[i])),
              "setOutput");
      }
      check(ANeuralNetworksExecution_compute(execution), "compute");
      ANeuralNetworksExecution_free(execution);
    }
    ANeuralNetworksCompilation_free(compilation);
  }

  // The operand's size when known and small, else a size that is probably wrong (refused, not run).
  size_t bufferLength(uint32_t index) const {
    if (index >= operands_.size()) return 4;
    size_t length = elementBytes(operands_[index].type);
    for (uint32_t d : operands_[index].dims) length *= d;
    return length == 0 || length > 4096 ? 4 : length;
  }

  std::mt19937_64 rng_;
  std::vector<OperandInfo> operands_;
  std::vector<uint32_t> inputs_, outputs_;
  std::deque<std::vector<uint8_t>> values_;
  int finishedModels_ = 0;
  int compiledModels_ = 0;
};

void runSeed(uint64_t seed, int models) {
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with NNRT_FUZZ_SEED=" + std::to_string(seed) + ")");
  Fuzzer fuzzer(seed);
  for (int i = 0; i < models && !::testing::Test::HasFailure(); ++i) fuzzer.run();
  std::printf("seed %llu: %d models, %d finished, %d compiled\n", static_cast<unsigned long long>(seed), models,
              fuzzer.finishedModels(), fuzzer.compiledModels());
}

TEST(ModelBuilderFuzz, FixedSeed) {
  runSeed(20261122, 400);
}

TEST(ModelBuilderFuzz, RandomSeedsForAFewSeconds) {
  if (const char* replay = std::getenv("NNRT_FUZZ_SEED")) {
    runSeed(std::strtoull(replay, nullptr, 10), 400);
    return;
  }
  const char* secondsText = std::getenv("NNRT_FUZZ_SECONDS");
  const double seconds = secondsText != nullptr ? std::atof(secondsText) : 2.0;
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::random_device entropy;
  while (std::chrono::steady_clock::now() < end && !HasFailure()) {
    runSeed((static_cast<uint64_t>(entropy()) << 32) | entropy(), 100);
  }
}

}  // namespace
