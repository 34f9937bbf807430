// The compilation cache: a preparation with cache files writes the program binary and the model; a
// plugin opened with build_from_source=false (it compiles no OpenCL C at all, so success proves the
// compiler was not called) rebuilds the model from those files with identical results; damaged,
// truncated, foreign or mismatched files are refused with GENERAL_FAILURE and a reason, and a normal
// preparation still works afterwards. The calibration cache file in the user's cache folder: read back,
// measured again when missing, foreign or damaged, left alone when the option turns it off.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "opencl/opencl_test_env.hpp"

namespace nnrt::opencl::test {
namespace {

// A temporary file, removed when closed.
class TempFile {
 public:
  TempFile() : file_(std::tmpfile()) {}
  explicit TempFile(const std::vector<uint8_t>& bytes) : TempFile() {
    if (!bytes.empty()) {
      EXPECT_EQ(::pwrite(fd(), bytes.data(), bytes.size(), 0), static_cast<ssize_t>(bytes.size()));
    }
  }
  ~TempFile() {
    if (file_ != nullptr) std::fclose(file_);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  int fd() const { return fileno(file_); }
  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> data(static_cast<size_t>(::lseek(fd(), 0, SEEK_END)));
    EXPECT_EQ(::pread(fd(), data.data(), data.size(), 0), static_cast<ssize_t>(data.size()));
    return data;
  }

 private:
  FILE* file_;
};

std::vector<uint8_t> token(uint8_t seed) {
  std::vector<uint8_t> t(NNRT_CACHE_TOKEN_SIZE);
  for (size_t i = 0; i < t.size(); ++i)
    t[i] = static_cast<uint8_t>(seed + i);
  return t;
}

CacheHandles handles(const TempFile& model, const TempFile& data, std::vector<uint8_t> t) {
  return CacheHandles{{model.fd()}, {data.fd()}, std::move(t)};
}

// A convolution and a fully connected layer: enough kernels to make a real program.
TestModel network() {
  TestModel m;
  const uint32_t in = m.addInput(OperandType::TENSOR_FLOAT32, {1, 6, 6, 3});
  const uint32_t conv = m.addOperand(OperandType::TENSOR_FLOAT32, {1, 6, 6, 4});
  const uint32_t out = m.addOutput(OperandType::TENSOR_FLOAT32, {1, 5});
  m.addOperation(OperationType::CONV_2D,
                 {in, m.addConstant(OperandType::TENSOR_FLOAT32, {4, 3, 3, 3}, randomFloats(108, -1, 1, 1)),
                  m.addConstant(OperandType::TENSOR_FLOAT32, {4}, randomFloats(4, -1, 1, 2)), m.addInt32(1),
                  m.addInt32(1), m.addInt32(1), m.addInt32(1)},
                 {conv});
  const uint32_t flat = m.addOperand(OperandType::TENSOR_FLOAT32, {1, 144});
  m.addOperation(OperationType::RESHAPE, {conv, m.addInt32Tensor({1, 144})}, {flat});
  m.addOperation(OperationType::FULLY_CONNECTED,
                 {flat, m.addConstant(OperandType::TENSOR_FLOAT32, {5, 144}, randomFloats(720, -1, 1, 3)),
                  m.addConstant(OperandType::TENSOR_FLOAT32, {5}, randomFloats(5, -1, 1, 4)), m.addInt32(0)},
                 {out});
  return m;
}

const std::vector<std::vector<float>>& networkInput() {
  static const std::vector<std::vector<float>> input{randomFloats(108, -1, 1, 5)};
  return input;
}

uint64_t fnv(const uint8_t* data, size_t size) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

// Rewrites one of the two header strings (0: device name, 1: driver version) by changing its first
// character, and fixes the header checksum, so that only the identity check can refuse the file.
std::vector<uint8_t> withForeignIdentity(std::vector<uint8_t> file, int which) {
  size_t at = 12;  // magic + format version
  size_t starts[2];
  for (size_t& s : starts) {
    uint32_t length = 0;
    std::memcpy(&length, file.data() + at, 4);
    s = at + 4;
    at = s + length;
  }
  file[starts[which]] ^= 0x20;
  at += NNRT_CACHE_TOKEN_SIZE + 16;  // token, payload size, payload checksum
  const uint64_t sum = fnv(file.data(), at);
  std::memcpy(file.data() + at, &sum, 8);
  return file;
}

class OpenClCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = &plugin();
    NNRT_REQUIRE_OPENCL(*a_);
    b_ = &plugin({{"calibrate", "false"}, {"build_from_source", "false"}});
    NNRT_REQUIRE_OPENCL(*b_);
  }
  // Prepares the network with cache files and returns its outputs.
  std::vector<std::vector<float>> prepareWithCache(TempFile& model, TempFile& data,
                                                   const std::vector<uint8_t>& t) {
    TestModel m = network();
    auto prepared = a_->device->prepareModel(m.view(), NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM,
                                             0, handles(model, data, t));
    EXPECT_TRUE(prepared.has_value()) << (prepared ? "" : prepared.error().message);
    if (!prepared) return {};
    return execute(**prepared, m, networkInput());
  }
  void expectRefused(const TempFile& model, const TempFile& data, const std::vector<uint8_t>& t,
                     const std::string& why) {
    auto prepared = b_->device->prepareModelFromCache(0, handles(model, data, t));
    ASSERT_FALSE(prepared.has_value()) << "accepted a cache that " << why;
    EXPECT_EQ(prepared.error().code, ResultCode::OP_FAILED) << prepared.error().message;  // GENERAL_FAILURE
    EXPECT_NE(prepared.error().message.find(why), std::string::npos) << prepared.error().message;
  }

  const Plugin* a_ = nullptr;
  const Plugin* b_ = nullptr;
};

TEST_F(OpenClCacheTest, PreparesFromCacheWithoutCompilingAndGivesIdenticalResults) {
  TempFile model, data;
  const auto t = token(1);
  const auto start = std::chrono::steady_clock::now();
  const auto expected = prepareWithCache(model, data, t);
  const auto compiled = std::chrono::steady_clock::now() - start;
  ASSERT_EQ(expected.size(), 1u);
  EXPECT_GT(model.bytes().size(), 100u);
  EXPECT_GT(data.bytes().size(), 100u);

  // The second plugin cannot compile: a preparation from the model says so...
  TestModel m = network();
  auto fromSource = prepare(*b_, m);
  ASSERT_FALSE(fromSource.has_value());
  EXPECT_NE(fromSource.error().message.find("build_from_source"), std::string::npos)
      << fromSource.error().message;

  // ...and a preparation from the cache works, so it compiled nothing.
  const auto cacheStart = std::chrono::steady_clock::now();
  auto cached = b_->device->prepareModelFromCache(0, handles(model, data, t));
  const auto fromCache = std::chrono::steady_clock::now() - cacheStart;
  ASSERT_TRUE(cached.has_value()) << cached.error().message;
  const auto outputs = execute(**cached, m, networkInput());
  ASSERT_EQ(outputs.size(), 1u);
  ASSERT_EQ(outputs[0].size(), expected[0].size());
  EXPECT_EQ(std::memcmp(outputs[0].data(), expected[0].data(), outputs[0].size() * sizeof(float)), 0);
  std::printf("[ info     ] prepare with compile: %.1f ms, from cache: %.1f ms\n",
              std::chrono::duration<double, std::milli>(compiled).count(),
              std::chrono::duration<double, std::milli>(fromCache).count());
}

TEST_F(OpenClCacheTest, RefusesDamagedOrForeignFilesThenPreparesNormally) {
  TempFile model, data;
  const auto t = token(2);
  ASSERT_EQ(prepareWithCache(model, data, t).size(), 1u);
  const std::vector<uint8_t> program = model.bytes(), serialized = data.bytes();

  {
    TempFile half(std::vector<uint8_t>(program.begin(), program.begin() + program.size() / 2));
    expectRefused(half, data, t, "truncated");
  }
  {
    TempFile empty;
    expectRefused(model, empty, t, "truncated");
  }
  {
    auto flipped = program;
    flipped.back() ^= 0xFF;
    TempFile damaged(flipped);
    expectRefused(damaged, data, t, "corrupted");
  }
  {
    auto flipped = serialized;
    flipped[flipped.size() - 3] ^= 0x01;
    TempFile damaged(flipped);
    expectRefused(model, damaged, t, "corrupted");
  }
  {
    auto flipped = program;
    flipped[20] ^= 0x01;  // inside the device name: only the header checksum notices
    TempFile damaged(flipped);
    expectRefused(damaged, data, t, "header checksum");
  }
  expectRefused(model, data, token(3), "another cache token");
  {
    TempFile foreign(withForeignIdentity(program, 0));
    expectRefused(foreign, data, t, "was written for device");
  }
  {
    TempFile older(withForeignIdentity(serialized, 1));
    expectRefused(model, older, t, "driver version");
  }
  expectRefused(data, model, t, "wrong magic");  // the files swapped

  auto none = b_->device->prepareModelFromCache(0, CacheHandles{{}, {}, t});
  EXPECT_FALSE(none.has_value());

  // Nothing was left broken: a normal preparation works, and so does the intact cache.
  TestModel m = network();
  EXPECT_EQ(run(*a_, m, networkInput()).size(), 1u);
  auto cached = b_->device->prepareModelFromCache(0, handles(model, data, t));
  EXPECT_TRUE(cached.has_value()) << cached.error().message;
}

// ---- The calibration cache (plugins/opencl/calibration.hpp) ---------------------------------------

// Where the header of a cache file ends: magic and format version, the two strings, the token, the
// payload size and checksum (the header checksum follows).
size_t headerChecksumOffset(const std::vector<uint8_t>& file) {
  size_t at = 12;
  for (int i = 0; i < 2; ++i) {
    uint32_t length = 0;
    std::memcpy(&length, file.data() + at, 4);
    at += 4 + length;
  }
  return at + NNRT_CACHE_TOKEN_SIZE + 16;
}

std::string headerDeviceName(const std::vector<uint8_t>& file) {
  if (file.size() < 16) return {};
  uint32_t length = 0;
  std::memcpy(&length, file.data() + 12, 4);
  if (file.size() < 16 + size_t{length}) return {};
  return std::string(reinterpret_cast<const char*>(file.data()) + 16, length);
}

// The file with its payload replaced by the two ratios, both checksums fixed: what the plugin would
// have written had it measured these numbers.
std::vector<uint8_t> withRatios(std::vector<uint8_t> file, float float32, float float16) {
  const size_t sumAt = headerChecksumOffset(file);
  file.resize(sumAt + 8);
  const uint64_t size = 8;
  std::memcpy(file.data() + sumAt - 16, &size, 8);
  uint8_t payload[8];
  std::memcpy(payload, &float32, 4);
  std::memcpy(payload + 4, &float16, 4);
  const uint64_t payloadSum = fnv(payload, 8);
  std::memcpy(file.data() + sumAt - 8, &payloadSum, 8);
  const uint64_t headerSum = fnv(file.data(), sumAt);
  std::memcpy(file.data() + sumAt, &headerSum, 8);
  file.insert(file.end(), payload, payload + 8);
  return file;
}

std::vector<uint8_t> readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void writeFile(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// The declared execTime of one operand type.
float execTime(const Plugin& p, OperandType type) {
  for (const auto& e : p.device->capabilities().operandPerformance) {
    if (e.type == static_cast<int32_t>(type)) return e.info.exec_time;
  }
  return -1.0f;
}

// Each test runs with XDG_CACHE_HOME at a fresh folder, so the plugin's calibration cache is there.
class OpenClCalibrationCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The shared instance first: PoCL is initialized (and has chosen its own cache folder, also under
    // XDG_CACHE_HOME) before the variable moves.
    NNRT_REQUIRE_OPENCL(plugin());
    char pattern[] = "/tmp/nnrt_calibration_test_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root_ = pattern;
    if (const char* old = std::getenv("XDG_CACHE_HOME")) saved_ = old;
    ::setenv("XDG_CACHE_HOME", root_.c_str(), 1);
  }
  void TearDown() override {
    if (saved_) {
      ::setenv("XDG_CACHE_HOME", saved_->c_str(), 1);
    } else {
      ::unsetenv("XDG_CACHE_HOME");
    }
    std::error_code ignored;
    if (!root_.empty()) std::filesystem::remove_all(root_, ignored);
  }
  std::vector<std::filesystem::path> files() const {
    std::vector<std::filesystem::path> found;
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator(root_ / "nnrt", ignored))
      found.push_back(entry.path());
    return found;
  }
  // The cache file of the plugin's first device, after a calibrated open wrote it.
  std::filesystem::path cacheFileOf(const Plugin& p) const {
    for (const auto& file : files()) {
      if (headerDeviceName(readFile(file)) == p.device->driverDeviceName()) return file;
    }
    return {};
  }

  std::filesystem::path root_;
  std::optional<std::string> saved_;
};

TEST_F(OpenClCalibrationCacheTest, MeasuresOnceThenReadsTheCachedNumbers) {
  Plugin first = loadPlugin({});
  NNRT_REQUIRE_OPENCL(first);
  const float measured = execTime(first, OperandType::TENSOR_FLOAT32);
  EXPECT_GT(measured, 0.0f);
  const std::filesystem::path file = cacheFileOf(first);
  ASSERT_FALSE(file.empty()) << "no calibration cache file under " << (root_ / "nnrt");
  EXPECT_EQ(file.filename().string().rfind("opencl-calibration-", 0), 0u) << file;
  EXPECT_EQ(file.extension(), ".bin");
  for (const auto& f : files())
    EXPECT_EQ(f.extension(), ".bin") << "a temporary file was left: " << f;
  const std::vector<uint8_t> written = readFile(file);
  ASSERT_GE(written.size(), 8u);
  EXPECT_EQ(std::string(written.begin(), written.begin() + 8), "NNRTOCLC");

  // Numbers no machine measures, planted in a well-formed file: the next open declares them, so it
  // read the file instead of measuring.
  writeFile(file, withRatios(written, 0.125f, 0.25f));
  Plugin second = loadPlugin({});
  NNRT_REQUIRE_OPENCL(second);
  const float powerFactor = second.device->type() == NNRT_DEVICE_TYPE_CPU ? 1.0f : 0.5f;
  EXPECT_EQ(execTime(second, OperandType::TENSOR_FLOAT32), 0.125f);
  EXPECT_EQ(execTime(second, OperandType::INT32), 0.125f);
  EXPECT_EQ(execTime(second, OperandType::TENSOR_FLOAT16), 0.25f);
  EXPECT_EQ(second.device->capabilities().relaxedFloat32toFloat16PerformanceTensor.exec_time, 0.25f);
  EXPECT_EQ(second.device->capabilities().relaxedFloat32toFloat16PerformanceTensor.power_usage,
            0.25f * powerFactor);

  // calibration_cache: false measures and leaves the file alone.
  Plugin uncached = loadPlugin({{"calibration_cache", "false"}});
  NNRT_REQUIRE_OPENCL(uncached);
  EXPECT_NE(execTime(uncached, OperandType::TENSOR_FLOAT32), 0.125f);
  EXPECT_EQ(readFile(file), withRatios(written, 0.125f, 0.25f));

  // calibrate: false declares 1.0 and neither reads nor writes.
  Plugin declared = loadPlugin({{"calibrate", "false"}});
  NNRT_REQUIRE_OPENCL(declared);
  EXPECT_EQ(execTime(declared, OperandType::TENSOR_FLOAT32), 1.0f);
  EXPECT_EQ(files().size(), 1u);
}

TEST_F(OpenClCalibrationCacheTest, MeasuresAgainOverCorruptOrForeignFiles) {
  Plugin first = loadPlugin({});
  NNRT_REQUIRE_OPENCL(first);
  const std::filesystem::path file = cacheFileOf(first);
  ASSERT_FALSE(file.empty());
  const std::vector<uint8_t> planted = withRatios(readFile(file), 0.125f, 0.25f);

  std::vector<uint8_t> damagedPayload = planted;
  damagedPayload.back() ^= 0x01;  // the payload checksum no longer matches
  std::vector<uint8_t> implausible = withRatios(planted, 0.0f, -1.0f);
  const std::vector<std::pair<std::string, std::vector<uint8_t>>> cases{
      {"a damaged payload", damagedPayload},
      {"a truncated file", std::vector<uint8_t>(planted.begin(), planted.begin() + 20)},
      {"not a cache file", std::vector<uint8_t>{'h', 'e', 'l', 'l', 'o'}},
      {"another device's file", withForeignIdentity(planted, 0)},
      {"another driver's file", withForeignIdentity(planted, 1)},
      {"ratios out of range", implausible},
  };
  for (const auto& [what, bytes] : cases) {
    SCOPED_TRACE(what);
    writeFile(file, bytes);
    Plugin reopened = loadPlugin({});
    NNRT_REQUIRE_OPENCL(reopened);
    const float measured = execTime(reopened, OperandType::TENSOR_FLOAT32);
    EXPECT_NE(measured, 0.125f);
    EXPECT_GT(measured, 0.0f);
    // Measured again and rewritten: the next open reads the same number back.
    Plugin again = loadPlugin({});
    NNRT_REQUIRE_OPENCL(again);
    EXPECT_EQ(execTime(again, OperandType::TENSOR_FLOAT32), measured);
  }
  // A missing file is measured and written again.
  std::filesystem::remove(file);
  Plugin fresh = loadPlugin({});
  NNRT_REQUIRE_OPENCL(fresh);
  EXPECT_TRUE(std::filesystem::exists(file));
}

TEST_F(OpenClCalibrationCacheTest, AnUnwritableCacheFolderOnlyCostsTheMeasurement) {
  // XDG_CACHE_HOME names a file, so no nnrt/ folder can be made under it.
  writeFile(root_ / "a_file", {'x'});
  ::setenv("XDG_CACHE_HOME", (root_ / "a_file").c_str(), 1);
  Plugin p = loadPlugin({});
  NNRT_REQUIRE_OPENCL(p);
  EXPECT_GT(execTime(p, OperandType::TENSOR_FLOAT32), 0.0f);
  // Without XDG_CACHE_HOME the folder is ~/.cache/nnrt.
  ::unsetenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string savedHome = home != nullptr ? home : "";
  ::setenv("HOME", root_.c_str(), 1);
  Plugin underHome = loadPlugin({});
  if (savedHome.empty()) {
    ::unsetenv("HOME");
  } else {
    ::setenv("HOME", savedHome.c_str(), 1);
  }
  NNRT_REQUIRE_OPENCL(underHome);
  std::error_code ignored;
  EXPECT_FALSE(std::filesystem::is_empty(root_ / ".cache" / "nnrt", ignored));
}

}  // namespace
}  // namespace nnrt::opencl::test
