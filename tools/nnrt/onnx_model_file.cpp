#include "tools/nnrt/onnx_model_file.hpp"

#include "nnrt/driver/types.hpp"
#include "onnx/onnx_loader.hpp"

namespace nnrt::tools {
namespace {

Result<ModelFile> loadOnnxFile(const std::filesystem::path& file) {
  NNRT_ASSIGN_OR_RETURN(onnxfront::LoadedModel loaded, onnxfront::loadOnnxModel(file));
  ModelFile out;
  out.path = file;
  out.description = "ONNX model, opset " + std::to_string(loaded.opsetVersion);
  for (size_t i = 0; i < loaded.operands.size(); ++i) {
    const auto& record = loaded.operands[i];
    ModelFileOperand operand;
    operand.name = record.name.empty() ? "#" + std::to_string(i) : record.name;
    operand.type = record.type;
    operand.typeName = driver::operandTypeName(record.type);
    operand.dimensions = record.dimensions;
    operand.element = elementTypeOf(record.type);
    operand.hasValue = record.constant;
    out.operands.push_back(std::move(operand));
  }
  for (const auto& record : loaded.operations) {
    ModelFileOperation operation;
    operation.name = record.node;
    operation.type = record.type;
    operation.typeName = driver::operationTypeName(record.type);
    operation.inputs = record.inputs;
    operation.outputs = record.outputs;
    out.operations.push_back(std::move(operation));
  }
  out.inputs = loaded.inputOperands;
  out.outputs = loaded.outputOperands;
  out.model.reset(loaded.model.release());
  return out;
}

}  // namespace

Result<ModelFile> loadAnyModelFile(const std::filesystem::path& file) {
  if (file.extension() == ".onnx") return loadOnnxFile(file);
  return loadModelFile(file);
}

}  // namespace nnrt::tools
