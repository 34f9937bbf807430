#include "onnx/tensor_proto.hpp"

#include <cstring>
#include <fstream>
#include <limits>

namespace nnrt::onnxfront {
namespace {

Result<void> narrowInt64(const int64_t* values, size_t count, uint8_t* out, const std::string& name) {
  for (size_t i = 0; i < count; ++i) {
    if (values[i] < std::numeric_limits<int32_t>::min() || values[i] > std::numeric_limits<int32_t>::max()) {
      return fail(ResultCode::BAD_DATA, "tensor '" + name + "': int64 value " + std::to_string(values[i]) +
                                            " at " + std::to_string(i) + " does not fit NNAPI's int32");
    }
    int32_t v = static_cast<int32_t>(values[i]);
    std::memcpy(out + i * 4, &v, 4);
  }
  return {};
}

Result<std::string> readExternal(const onnx::TensorProto& tensor, const std::filesystem::path& folder) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& entry : tensor.external_data()) {
    try {
      if (entry.key() == "location")
        location = entry.value();
      else if (entry.key() == "offset")
        offset = std::stoll(entry.value());
      else if (entry.key() == "length")
        length = std::stoll(entry.value());
    } catch (const std::exception&) {
      return fail(ResultCode::BAD_DATA, "tensor '" + tensor.name() + "': external_data " + entry.key() +
                                            " '" + entry.value() + "' is not a number");
    }
  }
  std::filesystem::path relative(location);
  if (location.empty() || relative.is_absolute() || location.find("..") != std::string::npos) {
    return fail(ResultCode::BAD_DATA, "tensor '" + tensor.name() + "': external_data location '" + location +
                                          "' is not a file name relative to the model's folder");
  }
  std::ifstream in(folder / relative, std::ios::binary);
  if (!in) {
    return fail(ResultCode::BAD_DATA, "tensor '" + tensor.name() + "': cannot open external data file " +
                                          (folder / relative).string());
  }
  in.seekg(0, std::ios::end);
  int64_t size = in.tellg();
  if (offset < 0 || offset > size || (length >= 0 && length > size - offset)) {
    return fail(ResultCode::BAD_DATA, "tensor '" + tensor.name() + "': external data range offset " +
                                          std::to_string(offset) + " length " + std::to_string(length) +
                                          " is outside its file of " + std::to_string(size) + " bytes");
  }
  if (length < 0) length = size - offset;
  std::string data(static_cast<size_t>(length), '\0');
  in.seekg(offset);
  in.read(data.data(), length);
  return data;
}

}  // namespace

size_t elementCount(const std::vector<uint32_t>& dimensions) {
  size_t count = 1;
  for (uint32_t d : dimensions)
    count *= d;
  return count;
}

size_t elementSize(int32_t type) {
  switch (type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32:
    case ANEURALNETWORKS_TENSOR_INT32:
      return 4;
    case ANEURALNETWORKS_TENSOR_FLOAT16:
      return 2;
    case ANEURALNETWORKS_TENSOR_BOOL8:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
      return 1;
    default:
      return 0;
  }
}

std::string onnxTypeName(int32_t onnxType) {
  if (onnx::TensorProto_DataType_IsValid(onnxType)) {
    return onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(onnxType));
  }
  return "type " + std::to_string(onnxType);
}

Result<int32_t> nnapiTensorType(int32_t onnxType) {
  switch (onnxType) {
    case onnx::TensorProto::FLOAT:
      return ANEURALNETWORKS_TENSOR_FLOAT32;
    case onnx::TensorProto::FLOAT16:
      return ANEURALNETWORKS_TENSOR_FLOAT16;
    case onnx::TensorProto::INT32:
    case onnx::TensorProto::INT64:
      return ANEURALNETWORKS_TENSOR_INT32;
    case onnx::TensorProto::BOOL:
      return ANEURALNETWORKS_TENSOR_BOOL8;
    // 8-bit integers: quantized types of scale 1 and zero point 0, which hold them exactly.
    case onnx::TensorProto::UINT8:
      return ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
    case onnx::TensorProto::INT8:
      return ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
    default:
      return fail(ResultCode::BAD_DATA,
                  "element type " + onnxTypeName(onnxType) + " has no NNAPI tensor type");
  }
}

Result<HostTensor> decodeTensor(const onnx::TensorProto& tensor, const std::filesystem::path& folder) {
  const std::string& name = tensor.name();
  NNRT_ASSIGN_OR_RETURN(int32_t type, nnapiTensorType(tensor.data_type()));
  HostTensor out;
  out.type = type;
  uint64_t count = 1;
  for (int64_t d : tensor.dims()) {
    if (d < 0 || d > std::numeric_limits<uint32_t>::max() || (d > 0 && count > (uint64_t{1} << 40) / d)) {
      return fail(ResultCode::BAD_DATA,
                  "tensor '" + name + "': dimension " + std::to_string(d) + " out of range");
    }
    out.dimensions.push_back(static_cast<uint32_t>(d));
    count *= d;
  }
  if (tensor.has_segment())
    return fail(ResultCode::BAD_DATA, "tensor '" + name + "': segmented tensors are not supported");
  const bool isInt64 = tensor.data_type() == onnx::TensorProto::INT64;
  const size_t onnxElement = isInt64 ? 8 : elementSize(type);
  out.bytes.resize(count * elementSize(type));

  std::string external;
  const std::string* raw = nullptr;
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    NNRT_ASSIGN_OR_RETURN(external, readExternal(tensor, folder));
    raw = &external;
  } else if (tensor.has_raw_data()) {
    raw = &tensor.raw_data();
  }
  auto sizeError = [&](size_t have) {
    return fail(ResultCode::BAD_DATA, "tensor '" + name + "': " + std::to_string(have) + " values for " +
                                          std::to_string(count) + " elements");
  };
  if (raw != nullptr) {
    if (raw->size() != count * onnxElement) return sizeError(raw->size() / (onnxElement ? onnxElement : 1));
    if (isInt64) {
      std::vector<int64_t> values(count);
      std::memcpy(values.data(), raw->data(), raw->size());
      NNRT_RETURN_IF_ERROR(narrowInt64(values.data(), count, out.bytes.data(), name));
    } else {
      std::memcpy(out.bytes.data(), raw->data(), raw->size());
    }
    return out;
  }
  switch (tensor.data_type()) {
    case onnx::TensorProto::FLOAT:
      if (static_cast<size_t>(tensor.float_data_size()) != count) return sizeError(tensor.float_data_size());
      std::memcpy(out.bytes.data(), tensor.float_data().data(), count * 4);
      break;
    case onnx::TensorProto::INT64:
      if (static_cast<size_t>(tensor.int64_data_size()) != count) return sizeError(tensor.int64_data_size());
      NNRT_RETURN_IF_ERROR(narrowInt64(tensor.int64_data().data(), count, out.bytes.data(), name));
      break;
    case onnx::TensorProto::INT32:
    case onnx::TensorProto::BOOL:
    case onnx::TensorProto::UINT8:
    case onnx::TensorProto::INT8:
    case onnx::TensorProto::FLOAT16: {
      if (static_cast<size_t>(tensor.int32_data_size()) != count) return sizeError(tensor.int32_data_size());
      for (size_t i = 0; i < count; ++i) {
        int32_t v = tensor.int32_data(i);
        if (type == ANEURALNETWORKS_TENSOR_INT32)
          std::memcpy(out.bytes.data() + 4 * i, &v, 4);
        else if (type == ANEURALNETWORKS_TENSOR_BOOL8)
          out.bytes[i] = v != 0;
        else if (elementSize(type) == 1)
          out.bytes[i] = static_cast<uint8_t>(v);
        else {
          uint16_t bits = static_cast<uint16_t>(v);
          std::memcpy(out.bytes.data() + 2 * i, &bits, 2);
        }
      }
      break;
    }
    default:
      return fail(ResultCode::BAD_DATA, "tensor '" + name + "': no data");
  }
  return out;
}

Result<HostTensor> loadTensorFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return fail(ResultCode::BAD_DATA, file.string() + ": cannot open");
  onnx::TensorProto tensor;
  if (!tensor.ParseFromIstream(&in))
    return fail(ResultCode::BAD_DATA, file.string() + ": not a serialized ONNX TensorProto");
  auto decoded = decodeTensor(tensor, file.parent_path());
  if (!decoded.has_value()) return fail(decoded.error().code, file.string() + ": " + decoded.error().message);
  return decoded;
}

}  // namespace nnrt::onnxfront
