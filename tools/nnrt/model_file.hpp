// nnrt model files (docs/model-format.md): a YAML description of one NNAPI model, loaded through
// the public C API alone, one call per entry, so that the runtime validates every part of it.
//
// A mistake in the file is reported as "<file>:<line>: <key>: <what>", e.g.
//   "mlp.yaml:12: operations[0].inputs[1]: unknown operand 'wieghts'"; when the runtime refuses a
// call, <what> names the function and its result code (the runtime logs its own reason just before).
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/support/status.hpp"
#include "tools/nnrt/element_codec.hpp"

namespace nnrt::tools {

// Whole shapes for model inputs, by input name (`--shape NAME=d0,d1,...`).
using InputShapes = std::map<std::string, std::vector<uint32_t>>;

struct ModelFileOperand {
  std::string name;
  std::string typeName;  // as written, e.g. "TENSOR_FLOAT32" or "com.example.fibonacci:EXAMPLE_INT64"
  int32_t type = 0;      // as given to ANeuralNetworksModel_addOperand (extension types carry the prefix)
  std::vector<uint32_t> dimensions;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  std::optional<ElementType> element;  // how its values are encoded; nullopt for an undeclared extension type
  bool hasValue = false;               // value, file or omitted
  int line = 0;
  // An ONNX model's int64 input (carried as TENSOR_INT32): a raw file may hold its values as int64.
  bool int64Source = false;
};

struct ModelFileOperation {
  std::string name;                       // the optional `name`, else ""
  std::string typeName;                   // as written
  int32_t type = 0;                       // as given to ANeuralNetworksModel_addOperation
  std::vector<uint32_t> inputs, outputs;  // operand indexes
  int line = 0;
};

struct ModelDeleter {
  void operator()(ANeuralNetworksModel* model) const { ANeuralNetworksModel_free(model); }
};

// The operands, operations, inputs and outputs of one model of the file (the main model or a
// subgraph). Operand indexes are positions in its `operands:`; operation indexes are positions in its
// `operations:` (the order of addOperation).
struct ModelFileGraph {
  std::vector<ModelFileOperand> operands;
  std::vector<ModelFileOperation> operations;
  std::vector<uint32_t> inputs, outputs;  // operand indexes, the model's input and output order

  // Index of the operand named `name`.
  std::optional<uint32_t> findOperand(std::string_view name) const;
  // "ADD", or "ADD 'name'" when the operation is named.
  std::string operationLabel(uint32_t operation) const;
  // Bytes of one element of the operand (0 when unknown) and of the whole operand (nullopt when a
  // dimension is unknown or the element size is).
  size_t elementSize(uint32_t operand) const;
  std::optional<size_t> byteSize(uint32_t operand, const std::vector<uint32_t>& dimensions) const;
};

// A model of the file's `subgraphs:` that SUBGRAPH operands refer to (the branches of IF, the
// condition and body of WHILE).
struct ModelFileSubgraph : ModelFileGraph {
  std::string name;  // its key under `subgraphs:`
  int line = 0;
  std::unique_ptr<ANeuralNetworksModel, ModelDeleter> model;  // finished
};

// A loaded, finished model and what the file said about it.
struct ModelFile : ModelFileGraph {
  std::filesystem::path path;
  std::string description;
  std::unique_ptr<ANeuralNetworksModel, ModelDeleter> model;  // finished
  bool relaxed = false;
  bool usesExtensions = false;
  // Every entry of `subgraphs:`, in the order they were finished (each after those it refers to).
  std::vector<ModelFileSubgraph> subgraphs;

  // Constant bytes given to setOperandValue; the runtime may read them until finish, so they live
  // as long as the ModelFile.
  std::vector<std::unique_ptr<std::vector<uint8_t>>> constants;
};

// Loads and finishes the model in `file` (side files are relative to its folder). Errors carry
// BAD_DATA for mistakes the loader finds and the runtime's result code for calls it refuses.
Result<ModelFile> loadModelFile(const std::filesystem::path& file);
// The same from text; `file` names it in messages and anchors side files.
Result<ModelFile> loadModelText(std::string_view yaml, const std::filesystem::path& file);

// "ANEURALNETWORKS_BAD_DATA" for a C API result code.
std::string resultCodeText(int code);

}  // namespace nnrt::tools
