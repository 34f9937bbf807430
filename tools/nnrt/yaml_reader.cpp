#include "tools/nnrt/yaml_reader.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>

namespace nnrt::tools {

Error YamlReader::at(const YAML::Node& node, const std::string& key, const std::string& what,
                     ResultCode code) const {
  std::string where = file_.string();
  if (node.IsDefined() && node.Mark().line >= 0) where += ":" + std::to_string(node.Mark().line + 1);
  return Error{code, where + ": " + (key.empty() ? "" : key + ": ") + what};
}

YAML::Node YamlReader::keyNode(const YAML::Node& map, const std::string& key) {
  for (const auto& item : map) {
    if (item.first.IsScalar() && item.first.Scalar() == key) return item.first;
  }
  return map;
}

Result<void> YamlReader::checkMap(const YAML::Node& node, const std::string& key,
                                  std::initializer_list<const char*> allowed) const {
  if (!node.IsMap()) return Unexpected(at(node, key, "expected a mapping"));
  std::set<std::string> seen;
  for (const auto& item : node) {
    if (!item.first.IsScalar()) return Unexpected(at(item.first, key, "a key must be a plain name"));
    const std::string& name = item.first.Scalar();
    std::string path = key.empty() ? name : key + "." + name;
    bool known = false;
    std::string list;
    for (const char* a : allowed) {
      known = known || name == a;
      list += std::string(list.empty() ? "" : ", ") + a;
    }
    if (!known) return Unexpected(at(item.first, path, "unknown key (expected one of: " + list + ")"));
    if (!seen.insert(name).second) return Unexpected(at(item.first, path, "duplicate key"));
  }
  return {};
}

Result<std::string> YamlReader::string(const YAML::Node& node, const std::string& key) const {
  if (!node.IsScalar()) return Unexpected(at(node, key, "expected a string"));
  return node.Scalar();
}

Result<bool> YamlReader::boolean(const YAML::Node& node, const std::string& key) const {
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
    return Unexpected(at(node, key, "expected true or false"));
  }
  return value;
}

Result<ElementType> YamlReader::elementType(const YAML::Node& node, const std::string& key) const {
  NNRT_ASSIGN_OR_RETURN(std::string name, string(node, key));
  auto type = parseElementType(name);
  if (!type) return Unexpected(at(node, key, "'" + name + "' is not one of " + elementTypeList()));
  return *type;
}

Result<void> YamlReader::appendValues(const YAML::Node& node, const std::string& key, ElementType element,
                                      std::vector<uint8_t>& bytes, size_t& count) const {
  if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) {
      NNRT_RETURN_IF_ERROR(appendValues(node[i], key + "[" + std::to_string(i) + "]", element, bytes, count));
    }
    return {};
  }
  if (!node.IsScalar()) return Unexpected(at(node, key, "expected a number or a list of numbers"));
  std::string problem = appendElement(element, node.Scalar(), bytes);
  if (!problem.empty()) return Unexpected(at(node, key, problem));
  ++count;
  return {};
}

Result<void> YamlReader::readSideFile(const YAML::Node& node, const std::string& key,
                                      std::vector<uint8_t>& bytes) const {
  NNRT_ASSIGN_OR_RETURN(std::string name, string(node["file"], key + ".file"));
  std::filesystem::path path = name;
  if (path.is_relative()) path = file_.parent_path() / path;
  uint64_t offset = 0;
  if (node["offset"]) {
    NNRT_ASSIGN_OR_RETURN(offset, number<uint64_t>(node["offset"], key + ".offset", ElementType::U64));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Unexpected(at(node["file"], key + ".file",
                         "cannot open '" + name + "' (" + path.string() + "): " + std::strerror(errno)));
  }
  in.seekg(0, std::ios::end);
  const uint64_t size = static_cast<uint64_t>(in.tellg());
  if (offset > size) {
    return Unexpected(at(node["offset"], key + ".offset",
                         "offset " + std::to_string(offset) + " is past the end of '" + name + "' (" +
                             std::to_string(size) + " bytes)"));
  }
  uint64_t length = size - offset;  // default: to the end of the file
  if (node["length"]) {
    NNRT_ASSIGN_OR_RETURN(length, number<uint64_t>(node["length"], key + ".length", ElementType::U64));
    if (length > size - offset) {
      return Unexpected(at(node["length"], key + ".length",
                           "offset " + std::to_string(offset) + " + length " + std::to_string(length) +
                               " goes past the end of '" + name + "' (" + std::to_string(size) + " bytes)"));
    }
  }
  bytes.resize(length);
  in.seekg(static_cast<std::streamoff>(offset));
  if (length > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(length))) {
    return Unexpected(at(node["file"], key + ".file", "cannot read '" + name + "'"));
  }
  return {};
}

}  // namespace nnrt::tools
