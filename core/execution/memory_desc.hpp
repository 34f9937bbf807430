// Memory domains (ANeuralNetworksMemoryDesc, ANeuralNetworksMemory_createFromDesc,
// ANeuralNetworksMemory_copy) with Android's rules: a description collects the roles (input or
// output i of a finished compilation) a memory will play, with compatible operand types and
// dimensions; the memory is a buffer the one driver of every role allocates, or else, when the
// size is known and no role's compilation named its devices, host memory the runtime allocates.
// Such a memory starts uninitialized: it may not be an execution's input (OP_FAILED at compute)
// nor a copy's source (BAD_DATA) until an execution wrote it or a copy filled it.
#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include "core/compilation/compilation.hpp"
#include "core/memory/memory.hpp"
#include "core/model/model.hpp"
#include "core/support/status.hpp"

namespace nnrt {

// Input or output `index` of a compiled model.
struct MemoryRole {
  const CompiledModel* compiled = nullptr;
  bool input = true;
  uint32_t index = 0;
  auto operator<=>(const MemoryRole&) const = default;
};

// Android's combination of two shapes: an empty one (unknown rank) takes the other; equal ranks
// combine per dimension, 0 (unknown) taking the other's. nullopt when they contradict.
std::optional<std::vector<uint32_t>> combineDimensions(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);

// What a memory made by createFromDesc may be used for, and the state Android tracks for it
// (initialized or not, its current dimensions). Thread-safe.
class MemoryDescription {
 public:
  MemoryDescription(std::set<MemoryRole> roles, std::vector<std::shared_ptr<const CompiledModel>> compilations,
                    Operand operand, std::vector<uint32_t> dimensions);

  // setInputFromMemory / setOutputFromMemory: the role was described, offset and length are both 0
  // (the whole memory), and the type's dimensions (when given) fit the described ones.
  Result<void> checkArgument(const CompiledModel& compiled, bool input, uint32_t index,
                             const std::vector<uint32_t>* typeDimensions, size_t offset, size_t length) const;
  // At the start of each computation that reads it: initialized, with these dimensions.
  Result<void> checkInputDimensions(const std::vector<uint32_t>& dimensions) const;

  // What a copy or an execution tells of the contents: their size (0 = not told), dimensions
  // (empty = not told) and operand (null = not told).
  struct Metadata {
    uint64_t logicalSize = 0;
    std::vector<uint32_t> dimensions;
    const Operand* operand = nullptr;
  };
  Metadata metadata() const;
  // Takes the dimensions of new contents; false when they do not fit the description.
  bool updateMetadata(const Metadata& metadata);
  void setInitialized(bool initialized);
  bool initialized() const;
  // Bytes for the current dimensions; nullopt while one is unknown.
  std::optional<uint64_t> currentSize() const;
  const Operand& operand() const { return operand_; }

 private:
  const std::set<MemoryRole> roles_;
  const std::vector<std::shared_ptr<const CompiledModel>> compilations_;  // keep the roles' identities alive
  const Operand operand_;
  const std::vector<uint32_t> initialDimensions_;
  mutable std::mutex mutex_;
  std::vector<uint32_t> dimensions_;
  bool initialized_ = false;
};

// ANeuralNetworksMemoryDesc. Not thread-safe (as Android's).
class MemoryDescBuilder {
 public:
  // `compiled` is null for an unfinished compilation; `explicitDevices`: the compilation was made
  // with createForDevices (no host fallback then, as Android).
  Result<void> addRole(std::shared_ptr<const CompiledModel> compiled, bool explicitDevices, bool input,
                       uint32_t index, float frequency);
  Result<void> setDimensions(const std::vector<uint32_t>& dimensions);
  Result<void> finish();
  // ANeuralNetworksMemory_createFromDesc.
  Result<std::shared_ptr<Memory>> allocate() const;

 private:
  Result<void> checkNotFinished(const char* what) const;

  bool finished_ = false;
  std::set<MemoryRole> roles_;
  std::vector<std::shared_ptr<const CompiledModel>> compilations_;
  std::vector<std::pair<std::shared_ptr<const CompiledModel>, MemoryRole>> stepRoles_;  // in the order added
  std::vector<float> frequencies_;
  std::optional<Operand> operand_;
  std::vector<uint32_t> dimensions_;
  bool anyExplicitDevices_ = false;
};

// ANeuralNetworksMemory_copy: Android's rules (an uninitialized source is BAD_DATA, sizes and
// described dimensions must agree); a failed copy leaves a described destination uninitialized.
Result<void> copyMemory(const Memory& src, const Memory& dst);

}  // namespace nnrt
