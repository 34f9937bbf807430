// ONNX TensorProto -> HostTensor (NNAPI's encoding), for initializers, Constant nodes and test data.
#pragma once

#include <onnx/onnx_pb.h>

#include <filesystem>

#include "onnx/onnx_loader.hpp"

namespace nnrt::onnxfront {

// The NNAPI tensor type of an ONNX element type (TensorProto::DataType), or an error naming it.
Result<int32_t> nnapiTensorType(int32_t onnxType);
std::string onnxTypeName(int32_t onnxType);

// Decodes `tensor`; `folder` anchors external data files.
Result<HostTensor> decodeTensor(const onnx::TensorProto& tensor, const std::filesystem::path& folder);

size_t elementCount(const std::vector<uint32_t>& dimensions);

}  // namespace nnrt::onnxfront
