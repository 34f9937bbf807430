#include "tools/nnrt/onnx_model_file.hpp"

#include "nnrt/driver/types.hpp"
#include "onnx/onnx_loader.hpp"

namespace nnrt::tools {
namespace {

Result<ModelFile> loadOnnxFile(const std::filesystem::path& file, const InputShapes& shapes) {
  onnxfront::LoadOptions options;
  options.inputShapes = shapes;
  NNRT_ASSIGN_OR_RETURN(onnxfront::LoadedModel loaded, onnxfront::loadOnnxModel(file, options));
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
  for (size_t i = 0; i < loaded.inputs.size() && i < out.inputs.size(); ++i)
    if (out.inputs[i] < out.operands.size()) out.operands[out.inputs[i]].int64Source = loaded.inputs[i].int64;
  out.outputs = loaded.outputOperands;
  out.model.reset(loaded.model.release());
  return out;
}

}  // namespace

Result<ModelFile> loadAnyModelFile(const std::filesystem::path& file, const InputShapes& shapes) {
  NNRT_ASSIGN_OR_RETURN(ModelFile loaded, file.extension() == ".onnx" ? loadOnnxFile(file, shapes) : loadModelFile(file));
  for (const auto& [name, dims] : shapes) {
    bool found = false;
    for (uint32_t i : loaded.inputs) found = found || loaded.operands[i].name == name;
    if (found) continue;
    std::string list;
    for (uint32_t i : loaded.inputs) list += (list.empty() ? "" : ", ") + loaded.operands[i].name;
    return fail(ResultCode::BAD_DATA, "--shape " + name + ": the model has no input named '" + name +
                                          "' (inputs: " + (list.empty() ? "none" : list) + ")");
  }
  return loaded;
}

}  // namespace nnrt::tools
