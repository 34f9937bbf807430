// Reading one YAML file strictly: every problem becomes an Error "<file>:<line>: <key>: <what>",
// where <key> is the path of the entry (e.g. "operands[2].dims[0]"). Used by the model-file loader.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/support/status.hpp"
#include "tools/nnrt/element_codec.hpp"

namespace nnrt::tools {

class YamlReader {
 public:
  explicit YamlReader(std::filesystem::path file) : file_(std::move(file)) {}

  const std::filesystem::path& file() const { return file_; }

  // "<file>:<line>: <key>: <what>" (no line when the node has no position, no key when empty).
  Error at(const YAML::Node& node, const std::string& key, const std::string& what,
           ResultCode code = ResultCode::BAD_DATA) const;
  // The key node of `key` in `map` (its line is where the entry starts), or `map` itself.
  static YAML::Node keyNode(const YAML::Node& map, const std::string& key);

  // `node` is a mapping whose keys are all in `allowed`, each once.
  Result<void> checkMap(const YAML::Node& node, const std::string& key,
                        std::initializer_list<const char*> allowed) const;
  Result<std::string> string(const YAML::Node& node, const std::string& key) const;
  Result<bool> boolean(const YAML::Node& node, const std::string& key) const;
  // One number of C++ type T (of the size of `element`), parsed as `element`.
  template <class T>
  Result<T> number(const YAML::Node& node, const std::string& key, ElementType element) const {
    if (!node.IsScalar()) {
      return Unexpected(at(node, key, std::string("expected a number (") + elementTypeName(element) + ")"));
    }
    std::vector<uint8_t> bytes;
    std::string problem = appendElement(element, node.Scalar(), bytes);
    if (!problem.empty()) return Unexpected(at(node, key, problem));
    T value;
    static_assert(sizeof(T) <= 8);
    std::memcpy(&value, bytes.data(), sizeof value);
    return value;
  }
  // An element type name ("f32", ...).
  Result<ElementType> elementType(const YAML::Node& node, const std::string& key) const;

  // Appends a number, a list of numbers or nested lists (flattened row-major), counting them.
  Result<void> appendValues(const YAML::Node& node, const std::string& key, ElementType element,
                            std::vector<uint8_t>& bytes, size_t& count) const;
  // The bytes that the `file`, `offset` (default 0) and `length` (default: to the end) keys of
  // `node` name; a relative path is relative to this file's folder.
  Result<void> readSideFile(const YAML::Node& node, const std::string& key,
                            std::vector<uint8_t>& bytes) const;

 private:
  std::filesystem::path file_;
};

}  // namespace nnrt::tools
