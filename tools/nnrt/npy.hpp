// NumPy .npy files (format versions 1 to 3, little-endian, C order) for `nnrt run` inputs and outputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/support/status.hpp"
#include "tools/nnrt/element_codec.hpp"

namespace nnrt::tools {

struct NpyArray {
  std::string dtype;  // as the header writes it, e.g. "<f4"
  std::vector<uint64_t> shape;
  std::vector<uint8_t> data;
};

Result<NpyArray> readNpy(const std::string& path);
// The .npy encoding of `data` with `element`'s dtype and `shape`.
Result<std::vector<uint8_t>> encodeNpy(ElementType element, const std::vector<uint32_t>& shape,
                                       const std::vector<uint8_t>& data);
// The dtype text of an element type ("<f4", "|b1", ...), "" when it has none.
std::string npyDtype(ElementType element);

}  // namespace nnrt::tools
