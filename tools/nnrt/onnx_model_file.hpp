// `nnrt run|plan|bench model.onnx`: an ONNX file through the ONNX front end (onnx/), described as a
// ModelFile so the commands treat it as they treat YAML model files.
#pragma once

#include "tools/nnrt/model_file.hpp"

namespace nnrt::tools {

// A YAML model file, or an ONNX model when the name ends in ".onnx": `shapes` gives an ONNX model's
// inputs their whole shapes (the loader's LoadOptions::inputShapes); a YAML model's inputs take theirs
// at execution (prepareInputs). Either way a name that is no input of the model is an error.
Result<ModelFile> loadAnyModelFile(const std::filesystem::path& file, const InputShapes& shapes = {});

}  // namespace nnrt::tools
