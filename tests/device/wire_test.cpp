// The out-of-process wire (core/device/host/wire.hpp): a model view and a request with every field
// set are written, read back, and compared field by field with what was written; pools travel
// through a memfd mapped twice, as the runtime and the host map it. Malformed bodies are refused
// (every truncation of a valid one), and a message with descriptors crosses a socket pair whole.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <new>
#include <thread>
#include <vector>

#include "core/device/host/wire.hpp"

namespace nnrt::wire {
namespace {

// A model with two subgraphs, every operand field and every model field set to distinct values.
struct SampleModel {
  uint32_t dims0[2] = {2, 3};
  uint32_t dims1[1] = {5};
  float scales[3] = {0.5f, 0.25f, 0.125f};
  uint8_t extData[4] = {9, 8, 7, 6};
  nnrt_operand operands[3] = {};
  uint32_t opIn[2] = {0, 1};
  uint32_t opOut[1] = {2};
  nnrt_operation operations[1] = {};
  uint32_t inputs[2] = {0, 1};
  uint32_t outputs[1] = {2};
  nnrt_subgraph subgraphs[2] = {};
  uint8_t values[6] = {1, 2, 3, 4, 5, 6};
  std::vector<uint8_t> poolBytes0 = std::vector<uint8_t>(100, 0x11);
  std::vector<uint8_t> poolBytes1 = std::vector<uint8_t>(7, 0x22);
  nnrt_memory_pool pools[2] = {};
  nnrt_extension_prefix prefixes[1] = {{"com.example.ext", 3}};
  nnrt_model model{};

  SampleModel() {
    operands[0] = {3,       2, dims0, 0.5f,    7, NNRT_LIFETIME_SUBGRAPH_INPUT, {0, 0, 0}, 1, NNRT_EXTRA_NONE,
                   nullptr, 0, 0,     nullptr, 0};
    operands[1] = {11,        1, dims1,
                   0.0f,      0, NNRT_LIFETIME_CONSTANT_REFERENCE,
                   {1, 4, 3}, 2, NNRT_EXTRA_CHANNEL_QUANT,
                   scales,    3, 1,
                   nullptr,   0};
    operands[2] = {(3 << 16) | 1, 0,  nullptr,
                   1.5f,          -3, NNRT_LIFETIME_SUBGRAPH_OUTPUT,
                   {0, 2, 4},     0,  NNRT_EXTRA_EXTENSION,
                   nullptr,       0,  0,
                   extData,       4};
    operations[0] = {29, opIn, 2, opOut, 1};
    subgraphs[0] = {operands, 3, operations, 1, inputs, 2, outputs, 1};
    subgraphs[1] = {operands, 2, nullptr, 0, inputs, 1, outputs, 1};
    pools[0] = {NNRT_POOL_HOST, poolBytes0.data(), poolBytes0.size()};
    pools[1] = {NNRT_POOL_HOST, poolBytes1.data(), poolBytes1.size()};
    model.main = subgraphs[0];
    model.referenced = &subgraphs[1];
    model.referenced_count = 1;
    model.operand_values = values;
    model.operand_values_size = sizeof(values);
    model.pools = pools;
    model.pool_count = 2;
    model.relax_computation_float32_to_float16 = 1;
    model.extension_prefixes = prefixes;
    model.extension_prefix_count = 1;
  }
};

template <class T>
std::vector<T> arrayOf(const T* data, uint32_t count) {
  return data == nullptr ? std::vector<T>() : std::vector<T>(data, data + count);
}

void expectSameSubgraph(const nnrt_subgraph& a, const nnrt_subgraph& b) {
  ASSERT_EQ(a.operand_count, b.operand_count);
  for (uint32_t i = 0; i < a.operand_count; ++i) {
    SCOPED_TRACE("operand " + std::to_string(i));
    const nnrt_operand& x = a.operands[i];
    const nnrt_operand& y = b.operands[i];
    EXPECT_EQ(x.type, y.type);
    EXPECT_EQ(x.rank, y.rank);
    EXPECT_EQ(arrayOf(x.dimensions, x.rank), arrayOf(y.dimensions, y.rank));
    EXPECT_EQ(x.scale, y.scale);
    EXPECT_EQ(x.zero_point, y.zero_point);
    EXPECT_EQ(x.lifetime, y.lifetime);
    EXPECT_EQ(x.location.pool_index, y.location.pool_index);
    EXPECT_EQ(x.location.offset, y.location.offset);
    EXPECT_EQ(x.location.length, y.location.length);
    EXPECT_EQ(x.number_of_consumers, y.number_of_consumers);
    EXPECT_EQ(x.extra_kind, y.extra_kind);
    EXPECT_EQ(arrayOf(x.channel_scales, x.channel_scale_count),
              arrayOf(y.channel_scales, y.channel_scale_count));
    EXPECT_EQ(x.channel_dim, y.channel_dim);
    EXPECT_EQ(arrayOf(x.extension_data, x.extension_data_size),
              arrayOf(y.extension_data, y.extension_data_size));
  }
  ASSERT_EQ(a.operation_count, b.operation_count);
  for (uint32_t i = 0; i < a.operation_count; ++i) {
    EXPECT_EQ(a.operations[i].type, b.operations[i].type);
    EXPECT_EQ(arrayOf(a.operations[i].inputs, a.operations[i].input_count),
              arrayOf(b.operations[i].inputs, b.operations[i].input_count));
    EXPECT_EQ(arrayOf(a.operations[i].outputs, a.operations[i].output_count),
              arrayOf(b.operations[i].outputs, b.operations[i].output_count));
  }
  EXPECT_EQ(arrayOf(a.input_indexes, a.input_count), arrayOf(b.input_indexes, b.input_count));
  EXPECT_EQ(arrayOf(a.output_indexes, a.output_count), arrayOf(b.output_indexes, b.output_count));
}

TEST(WireTest, ModelRoundTripKeepsEveryField) {
  SampleModel sample;
  const nnrt_model& m = sample.model;
  // The pools go into one memfd as the runtime lays them out; the host maps it read-only.
  PoolLayout layout = poolLayout(m);
  ASSERT_EQ(layout.offsets, (std::vector<uint64_t>{0, 128}));  // 100 bytes, aligned to 64
  auto block = SharedMemory::create("wire_test", layout.totalSize);
  ASSERT_TRUE(block);
  for (uint32_t i = 0; i < m.pool_count; ++i) {
    std::memcpy(block->data() + layout.offsets[i], m.pools[i].host, m.pools[i].size);
  }
  auto mapped = SharedMemory::adopt(dup(block->fd()), false);
  ASSERT_TRUE(mapped);

  Writer out;
  writeModel(out, m);
  Reader in(out.bytes().data(), out.bytes().size());
  ModelHolder holder;
  ASSERT_TRUE(holder.read(in, mapped->data(), mapped->size()));
  EXPECT_TRUE(in.atEnd());
  const nnrt_model& r = holder.view();

  expectSameSubgraph(m.main, r.main);
  ASSERT_EQ(r.referenced_count, 1u);
  expectSameSubgraph(m.referenced[0], r.referenced[0]);
  EXPECT_EQ(arrayOf(m.operand_values, 6),
            arrayOf(r.operand_values, static_cast<uint32_t>(r.operand_values_size)));
  ASSERT_EQ(r.pool_count, 2u);
  for (uint32_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.pools[i].kind, NNRT_POOL_HOST);
    EXPECT_EQ(r.pools[i].size, m.pools[i].size);
    const auto* bytes = static_cast<const uint8_t*>(r.pools[i].host);
    EXPECT_EQ(std::vector<uint8_t>(bytes, bytes + r.pools[i].size),
              i == 0 ? sample.poolBytes0 : sample.poolBytes1);
  }
  EXPECT_EQ(r.relax_computation_float32_to_float16, 1);
  ASSERT_EQ(r.extension_prefix_count, 1u);
  EXPECT_STREQ(r.extension_prefixes[0].name, "com.example.ext");
  EXPECT_EQ(r.extension_prefixes[0].prefix, 3);
}

TEST(WireTest, EveryTruncatedModelIsRefused) {
  SampleModel sample;
  Writer out;
  writeModel(out, sample.model);
  std::vector<uint8_t> pool(256);
  for (size_t size = 0; size < out.bytes().size(); ++size) {
    Reader in(out.bytes().data(), size);
    ModelHolder holder;
    EXPECT_FALSE(holder.read(in, pool.data(), pool.size())) << "truncated to " << size;
  }
}

TEST(WireTest, PoolsLargerThanTheSharedBlockAreRefused) {
  SampleModel sample;
  Writer out;
  writeModel(out, sample.model);
  std::vector<uint8_t> pool(130);  // the second pool starts at 128 and needs 7 bytes
  Reader in(out.bytes().data(), out.bytes().size());
  ModelHolder holder;
  EXPECT_FALSE(holder.read(in, pool.data(), pool.size()));
}

TEST(WireTest, RequestRoundTripKeepsEveryField) {
  uint32_t dims[2] = {4, 1};
  nnrt_request_argument inputs[2] = {{0, {0, 0, 16}, 2, dims}, {1, {0, 0, 0}, 0, nullptr}};
  nnrt_request_argument outputs[1] = {{0, {0, 64, 16}, 0, nullptr}};
  nnrt_request request{inputs, 2, outputs, 1, nullptr, 0};
  Writer out;
  writeRequest(out, request);
  std::vector<uint8_t> arena(128);
  Reader in(out.bytes().data(), out.bytes().size());
  RequestHolder holder;
  ASSERT_TRUE(holder.read(in, arena.data(), arena.size()));
  EXPECT_TRUE(in.atEnd());
  const nnrt_request& r = holder.view();
  ASSERT_EQ(r.input_count, 2u);
  ASSERT_EQ(r.output_count, 1u);
  for (uint32_t i = 0; i < 3; ++i) {
    const nnrt_request_argument& a = i < 2 ? inputs[i] : outputs[0];
    const nnrt_request_argument& b = i < 2 ? r.inputs[i] : r.outputs[0];
    EXPECT_EQ(a.has_no_value, b.has_no_value);
    EXPECT_EQ(a.location.pool_index, b.location.pool_index);
    EXPECT_EQ(a.location.offset, b.location.offset);
    EXPECT_EQ(a.location.length, b.location.length);
    EXPECT_EQ(a.rank, b.rank);
    EXPECT_EQ(arrayOf(a.dimensions, a.rank), arrayOf(b.dimensions, b.rank));
  }
  ASSERT_EQ(r.pool_count, 1u);
  EXPECT_EQ(r.pools[0].host, arena.data());
  EXPECT_EQ(r.pools[0].size, arena.size());
  // An argument past the arena's end is refused.
  Reader short_(out.bytes().data(), out.bytes().size());
  RequestHolder refused;
  EXPECT_FALSE(refused.read(short_, arena.data(), 70));
}

TEST(WireTest, ARequestHolderReadAgainHoldsOnlyTheNewRequest) {
  uint32_t dimsA[2] = {4, 1}, dimsC[1] = {7};
  nnrt_request_argument inputsA[3] = {
      {0, {0, 0, 16}, 2, dimsA}, {1, {0, 0, 0}, 0, nullptr}, {0, {0, 16, 4}, 1, dimsC}};
  nnrt_request_argument outputsA[1] = {{0, {0, 64, 16}, 0, nullptr}};
  uint32_t dimsB[3] = {1, 2, 3}, dimsOut[2] = {5, 6};
  nnrt_request_argument inputsB[1] = {{0, {0, 8, 24}, 3, dimsB}};
  nnrt_request_argument outputsB[2] = {{0, {0, 32, 8}, 2, dimsOut}, {0, {0, 40, 4}, 0, nullptr}};
  const nnrt_request a{inputsA, 3, outputsA, 1, nullptr, 0}, b{inputsB, 1, outputsB, 2, nullptr, 0};
  std::vector<uint8_t> arena(128);
  RequestHolder holder;
  for (const nnrt_request* request : {&a, &b}) {
    Writer out;
    writeRequest(out, *request);
    Reader in(out.bytes().data(), out.bytes().size());
    ASSERT_TRUE(holder.read(in, arena.data(), arena.size()));
  }
  const nnrt_request& r = holder.view();
  ASSERT_EQ(r.input_count, 1u);
  ASSERT_EQ(r.output_count, 2u);
  EXPECT_EQ(r.inputs[0].location.offset, 8u);
  EXPECT_EQ(arrayOf(r.inputs[0].dimensions, r.inputs[0].rank), (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(arrayOf(r.outputs[0].dimensions, r.outputs[0].rank), (std::vector<uint32_t>{5, 6}));
  EXPECT_EQ(r.outputs[1].dimensions, nullptr);
  EXPECT_EQ(r.outputs[1].location.length, 4u);
}

TEST(WireTest, AnExecutionReplyReadAgainHoldsOnlyTheNewReply) {
  nnrt_output_shape shapes[1] = {{1, {9}, 1}};
  Writer first, second;
  writeExecutionReply(first, NNRT_STATUS_NONE, shapes, 1, {1, 2}, "a reason longer than a short string's");
  writeExecutionReply(second, NNRT_STATUS_GENERAL_FAILURE, nullptr, 1, {UINT64_MAX, UINT64_MAX}, nullptr);
  ExecutionReply reply;
  Reader in1(first.bytes().data(), first.bytes().size());
  ASSERT_TRUE(readExecutionReply(in1, reply));
  ASSERT_EQ(reply.shapes.size(), 1u);
  Reader in2(second.bytes().data(), second.bytes().size());
  ASSERT_TRUE(readExecutionReply(in2, reply));
  EXPECT_EQ(reply.status, NNRT_STATUS_GENERAL_FAILURE);
  EXPECT_TRUE(reply.shapes.empty());
  EXPECT_EQ(reply.timing.time_on_device, UINT64_MAX);
  EXPECT_EQ(reply.reason, "");
}

// The doorbell's words between two processes: a child answers each request n with 3n + 1 in the
// reply area, polling (50 µs) or only sleeping (0); a wait on a word nobody changes ends with its slice.
TEST(WireTest, DoorbellWordsCarryRequestsAndRepliesBetweenProcesses) {
  for (const auto spin : {std::chrono::microseconds(50), std::chrono::microseconds(0)}) {
    SCOPED_TRACE(spin.count());
    auto memory = SharedMemory::create("wire-test-doorbell", sizeof(DoorbellBlock));
    ASSERT_TRUE(memory);
    auto& block = *new (memory->data()) DoorbellBlock();
    constexpr uint32_t kRequests = 500;
    const pid_t child = fork();
    if (child == 0) {
      uint32_t seen = 0;
      while (seen < kRequests) {
        const uint32_t rung = awaitChange(block.request, seen, block.reply, spin, {});
        if (rung == seen) continue;
        uint32_t n;
        std::memcpy(&n, block.requestBytes, sizeof(n));
        const uint32_t answer = 3 * n + 1;
        std::memcpy(block.replyBytes, &answer, sizeof(answer));
        announce(block.reply, rung);
        seen = rung;
      }
      _exit(0);
    }
    ASSERT_GT(child, 0);
    int right = 0;
    for (uint32_t sequence = 1; sequence <= kRequests; ++sequence) {
      const uint32_t n = sequence * 7;
      std::memcpy(block.requestBytes, &n, sizeof(n));
      announce(block.request, sequence);
      while (awaitChange(block.reply, sequence - 1, block.request, spin, std::chrono::milliseconds(10)) !=
             sequence) {
      }
      uint32_t answer;
      std::memcpy(&answer, block.replyBytes, sizeof(answer));
      right += answer == 3 * n + 1;
    }
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_EQ(right, static_cast<int>(kRequests));
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(awaitChange(block.reply, kRequests, block.request, spin, std::chrono::milliseconds(20)),
              kRequests);
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(20));
    EXPECT_EQ(block.reply.asleep.load(), 0u);
  }
}

TEST(WireTest, ExecutionReplyRoundTrip) {
  nnrt_output_shape shapes[2] = {{2, {3, 4}, 1}, {1, {9}, 0}};
  Writer out;
  writeExecutionReply(out, NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE, shapes, 2, {12, 34}, "too small");
  Reader in(out.bytes().data(), out.bytes().size());
  ExecutionReply reply;
  ASSERT_TRUE(readExecutionReply(in, reply));
  EXPECT_EQ(reply.status, NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE);
  ASSERT_EQ(reply.shapes.size(), 2u);
  EXPECT_EQ(reply.shapes[0].rank, 2u);
  EXPECT_EQ(reply.shapes[0].dimensions[1], 4u);
  EXPECT_EQ(reply.shapes[1].is_sufficient, 0);
  EXPECT_EQ(reply.timing.time_on_device, 12u);
  EXPECT_EQ(reply.timing.time_in_driver, 34u);
  EXPECT_EQ(reply.reason, "too small");
}

TEST(WireTest, MessageWithDescriptorsCrossesASocketPair) {
  int pair[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
  auto block = SharedMemory::create("wire_test", 10);
  ASSERT_TRUE(block);
  block->data()[3] = 42;
  Writer out;
  out.begin(Kind::GetStatus, 77);
  out.put<uint32_t>(5);
  const int fds[1] = {block->fd()};
  ASSERT_TRUE(sendMessage(pair[0], out.finish(), fds));
  Header header{};
  std::vector<uint8_t> body;
  std::vector<int> received;
  ASSERT_TRUE(receiveMessage(pair[1], header, body, received));
  EXPECT_EQ(header.kind, static_cast<uint32_t>(Kind::GetStatus));
  EXPECT_EQ(header.callId, 77u);
  ASSERT_EQ(body.size(), 4u);
  Reader in(body.data(), body.size());
  EXPECT_EQ(in.get<uint32_t>(), 5u);
  ASSERT_EQ(received.size(), 1u);
  auto mapped = SharedMemory::adopt(received[0], false);
  ASSERT_TRUE(mapped);
  EXPECT_EQ(mapped->data()[3], 42);
  close(pair[0]);
  EXPECT_FALSE(receiveMessage(pair[1], header, body, received));  // end of file
  close(pair[1]);
}

// Three messages waiting at once (the middle one with a descriptor, the last larger than the
// receiver reads ahead): each comes out whole, the descriptor with the middle one.
TEST(WireTest, ReceiverSplitsMessagesReadTogetherAndKeepsDescriptorsWithTheirs) {
  int pair[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
  auto block = SharedMemory::create("wire_test", 10);
  ASSERT_TRUE(block);
  block->data()[5] = 17;
  Writer out;
  out.begin(Kind::GetStatus, 1);
  out.put<uint32_t>(11);
  ASSERT_TRUE(sendMessage(pair[0], out.finish()));
  out.begin(Kind::Release, 2);
  out.put<uint64_t>(22);
  const int fds[1] = {block->fd()};
  ASSERT_TRUE(sendMessage(pair[0], out.finish(), fds));
  std::vector<uint8_t> large(100 << 10);
  for (size_t i = 0; i < large.size(); ++i)
    large[i] = static_cast<uint8_t>(i % 251);
  out.begin(Kind::Execute, 3);
  out.putArray(large.data(), static_cast<uint32_t>(large.size()));
  std::thread sender([&] { EXPECT_TRUE(sendMessage(pair[0], out.finish())); });  // more than the socket holds

  Receiver receiver;
  Header header{};
  std::vector<uint8_t> body;
  std::vector<int> received;
  ASSERT_TRUE(receiver.receive(pair[1], header, body, received));
  EXPECT_EQ(header.callId, 1u);
  EXPECT_TRUE(received.empty());
  ASSERT_EQ(body.size(), 4u);
  EXPECT_EQ(Reader(body.data(), body.size()).get<uint32_t>(), 11u);

  ASSERT_TRUE(receiver.receive(pair[1], header, body, received));
  EXPECT_EQ(header.callId, 2u);
  ASSERT_EQ(body.size(), 8u);
  EXPECT_EQ(Reader(body.data(), body.size()).get<uint64_t>(), 22u);
  ASSERT_EQ(received.size(), 1u);
  auto mapped = SharedMemory::adopt(received[0], false);
  ASSERT_TRUE(mapped);
  EXPECT_EQ(mapped->data()[5], 17);

  ASSERT_TRUE(receiver.receive(pair[1], header, body, received));
  sender.join();
  EXPECT_EQ(header.callId, 3u);
  EXPECT_TRUE(received.empty());
  Reader in(body.data(), body.size());
  EXPECT_EQ(in.getArray<uint8_t>(), large);
  EXPECT_TRUE(in.atEnd());
  close(pair[0]);
  EXPECT_FALSE(receiver.receive(pair[1], header, body, received));  // end of file
  close(pair[1]);
}

}  // namespace
}  // namespace nnrt::wire
