// `nnrt run|plan|bench model.onnx`: an ONNX file through the ONNX front end (onnx/), described as a
// ModelFile so the commands treat it as they treat YAML model files.
#pragma once

#include "tools/nnrt/model_file.hpp"

namespace nnrt::tools {

// A YAML model file, or an ONNX model when the name ends in ".onnx".
Result<ModelFile> loadAnyModelFile(const std::filesystem::path& file);

}  // namespace nnrt::tools
