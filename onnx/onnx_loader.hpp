// The ONNX front end (docs/onnx.md): reads an .onnx file with Debian's ONNX protobuf classes and builds
// an NNAPI model through the public C API alone, one ANeuralNetworksModel_* call at a time, so the
// runtime validates every part of it, as it does for the YAML model files.
//
// Every ONNX operator maps to NNAPI operations exactly or is refused: an error names the node, the
// operator and the reason ("node 'conv1' (Conv): auto_pad 'SAME_LOWER' with an odd total padding ...").
// NNAPI has no 64-bit integer tensors: ONNX int64 tensors (indices, shapes, ArgMax outputs) are carried
// as TENSOR_INT32, and constants or test values outside the int32 range are refused. A rank-0 ONNX
// tensor becomes a one-element [1] tensor (NNAPI reads rank 0 as "rank unknown").
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/support/status.hpp"

namespace nnrt::onnxfront {

struct ModelDeleter {
  void operator()(ANeuralNetworksModel* model) const { ANeuralNetworksModel_free(model); }
};

// A model input or output as NNAPI sees it.
struct TensorInfo {
  std::string name;                  // the ONNX value's name
  int32_t type = 0;                  // ANEURALNETWORKS_TENSOR_*
  std::vector<uint32_t> dimensions;  // 0 for a dimension the file leaves symbolic
  bool int64 = false;                // declared int64 by the file (carried as TENSOR_INT32)
};

// Tensor values in NNAPI's encoding (int64 narrowed to int32, bool as one byte).
struct HostTensor {
  int32_t type = 0;
  std::vector<uint32_t> dimensions;  // ONNX's own (rank 0 stays rank 0 here)
  std::vector<uint8_t> bytes;
};

// What the loader gave the C API, for tools that describe the model (nnrt plan).
struct OperandRecord {
  std::string name;  // the ONNX value it holds, "" for operands the mapping adds
  int32_t type = 0;
  std::vector<uint32_t> dimensions;
  bool constant = false;
};
struct OperationRecord {
  int32_t type = 0;  // ANEURALNETWORKS_* operation code
  std::vector<uint32_t> inputs, outputs;
  std::string node;  // the ONNX node's name (or its operator when unnamed)
};

struct LoadedModel {
  std::unique_ptr<ANeuralNetworksModel, ModelDeleter> model;  // finished
  std::vector<TensorInfo> inputs, outputs;                    // the model's input and output order
  int64_t opsetVersion = 0;                                   // of the default ("ai.onnx") domain
  std::vector<OperandRecord> operands;                        // by operand index
  std::vector<OperationRecord> operations;                    // in the order they were added
  std::vector<uint32_t> inputOperands, outputOperands;
};

struct LoadOptions {
  // Shapes for inputs the file leaves (partly) symbolic, by input name; every dimension known, the
  // rank and the dimensions the file gives as the file has them (else BAD_DATA).
  std::map<std::string, std::vector<uint32_t>> inputShapes;
  // Values for graph inputs, by name: each becomes a constant of the model (no longer an input), so
  // that operators needing constant arguments (Reshape's shape, axes, Clip's bounds) map.
  std::map<std::string, HostTensor> constantInputs;
};

// Loads and finishes the model in `file` (external data files are found relative to its folder).
// Errors carry BAD_DATA for a malformed file or an operator the loader refuses, and the runtime's
// code when it refuses a call.
Result<LoadedModel> loadOnnxModel(const std::filesystem::path& file, const LoadOptions& options = {});

// A serialized TensorProto (the node tests' input_*.pb / output_*.pb).
Result<HostTensor> loadTensorFile(const std::filesystem::path& file);

// Whether the loader maps ONNX operator `opType` of the default domain (some of its attributes or
// types may still be refused).
bool isOperatorMapped(std::string_view opType);

// Bytes of one element of an NNAPI tensor type the loader produces (0 for others).
size_t elementSize(int32_t type);

}  // namespace nnrt::onnxfront
