// ANeuralNetworksNnrt_loadOnnxModel and its companion (include/nnrt/nnrt.h).
#include <cstdlib>
#include <cstring>

#include "core/support/log.hpp"
#include "nnrt/nnrt.h"
#include "onnx/onnx_loader.hpp"

namespace {

char** copyNames(const std::vector<nnrt::onnxfront::TensorInfo>& tensors) {
  auto** names = static_cast<char**>(std::calloc(tensors.size() + 1, sizeof(char*)));
  if (names == nullptr) return nullptr;
  for (size_t i = 0; i < tensors.size(); ++i) {
    names[i] = strdup(tensors[i].name.c_str());
    if (names[i] == nullptr) {
      ANeuralNetworksNnrt_freeOnnxNames(names, static_cast<uint32_t>(i));
      return nullptr;
    }
  }
  return names;
}

}  // namespace

extern "C" int ANeuralNetworksNnrt_loadOnnxModel(const char* path, ANeuralNetworksModel** model,
                                                 uint32_t* inputCount, char*** inputNames,
                                                 uint32_t* outputCount, char*** outputNames) {
  constexpr const char* kFn = "ANeuralNetworksNnrt_loadOnnxModel";
  if (path == nullptr || model == nullptr || inputCount == nullptr || inputNames == nullptr ||
      outputCount == nullptr || outputNames == nullptr) {
    nnrt::logError(std::string(kFn) + ": passed a NULL argument");
    return ANEURALNETWORKS_UNEXPECTED_NULL;
  }
  *model = nullptr;
  auto loaded = nnrt::onnxfront::loadOnnxModel(path);
  if (!loaded.has_value()) {
    nnrt::logError(std::string(kFn) + ": " + loaded.error().message);
    return static_cast<int>(loaded.error().code);
  }
  char** ins = copyNames(loaded->inputs);
  char** outs = copyNames(loaded->outputs);
  if (ins == nullptr || outs == nullptr) {
    ANeuralNetworksNnrt_freeOnnxNames(ins, static_cast<uint32_t>(ins ? loaded->inputs.size() : 0));
    ANeuralNetworksNnrt_freeOnnxNames(outs, static_cast<uint32_t>(outs ? loaded->outputs.size() : 0));
    nnrt::logError(std::string(kFn) + ": out of memory copying the tensor names");
    return ANEURALNETWORKS_OUT_OF_MEMORY;
  }
  *inputCount = static_cast<uint32_t>(loaded->inputs.size());
  *outputCount = static_cast<uint32_t>(loaded->outputs.size());
  *inputNames = ins;
  *outputNames = outs;
  *model = loaded->model.release();
  return ANEURALNETWORKS_NO_ERROR;
}

extern "C" void ANeuralNetworksNnrt_freeOnnxNames(char** names, uint32_t count) {
  if (names == nullptr) return;
  for (uint32_t i = 0; i < count; ++i)
    std::free(names[i]);
  std::free(names);
}
