#include "tools/nnrt/model_file.hpp"

#include <android/NeuralNetworksExtensions.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "nnrt/driver/ops/operand_types.hpp"
#include "nnrt/driver/types.hpp"
#include "tools/nnrt/yaml_reader.hpp"

namespace nnrt::tools {
namespace {

// The C API refuses NULL lists (as Android), and an empty vector's data() may be NULL.
const uint32_t* listPointer(const std::vector<uint32_t>& list) {
  static const uint32_t kEmpty = 0;
  return list.empty() ? &kEmpty : list.data();
}

// The names a model file may use for the types of one vendor extension.
struct ExtensionNames {
  struct OperandType {
    uint16_t code = 0;
    std::optional<ElementType> element;
  };
  std::map<std::string, OperandType> operandTypes;
  std::map<std::string, uint16_t> operationTypes;
};

std::optional<int32_t> nnapiOperandType(const std::string& name) {
#define NNRT_X_(type, value) \
  if (name == #type) return value;
  NNRT_OPERAND_TYPE_LIST(NNRT_X_)
#undef NNRT_X_
  return std::nullopt;
}

std::optional<int32_t> nnapiOperationType(const std::string& name) {
#define NNRT_X_(type, value, level) \
  if (name == #type) return value;
  NNRT_OPERATION_TYPE_LIST(NNRT_X_)
#undef NNRT_X_
  return std::nullopt;
}

Result<std::vector<uint8_t>> decodeBase64(const std::string& text) {
  auto digit = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::vector<uint8_t> out;
  uint32_t buffer = 0;
  int bits = 0;
  size_t padding = 0;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      ++padding;
      continue;
    }
    int d = digit(c);
    if (d < 0 || padding > 0) return fail(ResultCode::BAD_DATA, std::string("'") + c + "' is not base64");
    buffer = (buffer << 6) | static_cast<uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<uint8_t>(buffer >> bits));
    }
  }
  if (padding > 2 || bits >= 6) return fail(ResultCode::BAD_DATA, "truncated base64");
  return out;
}

class Loader : private YamlReader {
 public:
  Loader(std::filesystem::path file, ModelFile& out) : YamlReader(std::move(file)), out_(out) {}

  Result<void> load(const YAML::Node& root) {
    if (!root.IsMap())
      return Unexpected(at(root, "", "expected a mapping with operands, operations, inputs, outputs"));
    NNRT_RETURN_IF_ERROR(checkMap(root, "",
                                  {"version", "description", "relaxed", "extensions", "subgraphs", "operands",
                                   "operations", "inputs", "outputs"}));
    if (root["version"]) {
      NNRT_ASSIGN_OR_RETURN(uint32_t version, number<uint32_t>(root["version"], "version", ElementType::U32));
      if (version != 1) return Unexpected(at(root["version"], "version", "only version 1 exists"));
    }
    if (root["description"]) {
      NNRT_ASSIGN_OR_RETURN(out_.description, string(root["description"], "description"));
    }
    ANeuralNetworksModel* model = nullptr;
    NNRT_RETURN_IF_ERROR(api(root, "", "ANeuralNetworksModel_create", ANeuralNetworksModel_create(&model)));
    out_.model.reset(model);
    if (root["relaxed"]) {
      NNRT_ASSIGN_OR_RETURN(out_.relaxed, boolean(root["relaxed"], "relaxed"));
      NNRT_RETURN_IF_ERROR(api(root["relaxed"], "relaxed",
                               "ANeuralNetworksModel_relaxComputationFloat32toFloat16",
                               ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, out_.relaxed)));
    }
    if (root["extensions"]) NNRT_RETURN_IF_ERROR(readExtensionNames(root["extensions"]));
    if (const YAML::Node subgraphs = root["subgraphs"]) {
      if (!subgraphs.IsMap())
        return Unexpected(at(subgraphs, "subgraphs", "expected a mapping of subgraph names to models"));
      subgraphs_.emplace(subgraphs);
    }
    graph_ = &out_;
    model_ = model;
    return loadGraph(root, "");
  }

 private:
  // ---- Models -----------------------------------------------------------------------------------

  // The operands, operations, inputs and outputs of `node` into graph_ and model_ (created), then
  // identifyInputsAndOutputs and finish. `prefix` starts every key ("" or "subgraphs.NAME.").
  Result<void> loadGraph(const YAML::Node& node, const std::string& prefix) {
    for (const char* required : {"operands", "operations", "outputs"}) {
      if (!node[required]) return Unexpected(at(node, prefix + required, "missing (required)"));
    }
    prefix_ = prefix;
    const YAML::Node operands = node["operands"];
    if (!operands.IsSequence()) return Unexpected(at(operands, prefix + "operands", "expected a list"));
    for (size_t i = 0; i < operands.size(); ++i)
      NNRT_RETURN_IF_ERROR(addOperand(operands[i], i));
    if (prefix.empty() && subgraphs_) {
      // Every subgraph was loaded when the first SUBGRAPH operand named it; one that none names would
      // be silently left out of the model.
      for (const auto& item : *subgraphs_) {
        if (!loaded_.contains(item.first.Scalar())) {
          return Unexpected(at(item.first, "subgraphs." + item.first.Scalar(),
                               "no SUBGRAPH operand refers to it (value: " + item.first.Scalar() + ")"));
        }
      }
    }

    const YAML::Node operations = node["operations"];
    if (!operations.IsSequence()) return Unexpected(at(operations, prefix + "operations", "expected a list"));
    for (size_t i = 0; i < operations.size(); ++i)
      NNRT_RETURN_IF_ERROR(addOperation(operations[i], i));

    YAML::Node inputs = node["inputs"];
    if (inputs) {
      NNRT_ASSIGN_OR_RETURN(graph_->inputs, operandList(inputs, prefix + "inputs"));
    }
    NNRT_ASSIGN_OR_RETURN(graph_->outputs, operandList(node["outputs"], prefix + "outputs"));
    NNRT_RETURN_IF_ERROR(api(inputs ? inputs : node["outputs"], prefix + "inputs/outputs",
                             "ANeuralNetworksModel_identifyInputsAndOutputs",
                             ANeuralNetworksModel_identifyInputsAndOutputs(
                                 model_, static_cast<uint32_t>(graph_->inputs.size()), listPointer(graph_->inputs),
                                 static_cast<uint32_t>(graph_->outputs.size()), listPointer(graph_->outputs))));
    return api(keyNode(node, "operations"), prefix + "operations", "ANeuralNetworksModel_finish",
               ANeuralNetworksModel_finish(model_),
               "the runtime numbers operands and operations from 0 in the order of this file");
  }

  // The finished model of subgraph `name`, loaded on first use. `node` and `key` are the SUBGRAPH
  // operand's value that names it.
  Result<ANeuralNetworksModel*> subgraph(const std::string& name, const YAML::Node& node, const std::string& key) {
    if (auto found = loaded_.find(name); found != loaded_.end()) return out_.subgraphs[found->second].model.get();
    const YAML::Node* const subgraphs = subgraphs_ ? &*subgraphs_ : nullptr;  // const: looking adds no entry
    if (subgraphs == nullptr || !(*subgraphs)[name]) {
      std::string names;
      if (subgraphs_) {
        for (const auto& item : *subgraphs_)
          names += (names.empty() ? "" : ", ") + item.first.Scalar();
      }
      return Unexpected(at(node, key, "no subgraph named '" + name + "' (subgraphs: " +
                                          (names.empty() ? "none" : names) + ")"));
    }
    for (size_t i = 0; i < loading_.size(); ++i) {
      if (loading_[i] != name) continue;
      std::string cycle;
      for (size_t j = i; j < loading_.size(); ++j)
        cycle += loading_[j] + " -> ";
      return Unexpected(at(node, key, "subgraph '" + name + "' refers to itself (" + cycle + name +
                                          "); a model can only refer to finished models"));
    }
    const YAML::Node definition = (*subgraphs)[name];
    const std::string prefix = "subgraphs." + name + ".";
    if (!definition.IsMap()) {
      return Unexpected(at(definition, "subgraphs." + name, "expected a mapping with operands, operations, inputs, outputs"));
    }
    NNRT_RETURN_IF_ERROR(checkMap(definition, "subgraphs." + name, {"operands", "operations", "inputs", "outputs"}));
    ModelFileSubgraph loaded;
    loaded.name = name;
    loaded.line = keyNode(*subgraphs_, name).Mark().line + 1;
    ANeuralNetworksModel* model = nullptr;
    NNRT_RETURN_IF_ERROR(api(definition, "subgraphs." + name, "ANeuralNetworksModel_create",
                             ANeuralNetworksModel_create(&model)));
    loaded.model.reset(model);
    // The subgraph is loaded in the middle of its referrer's operands: keep the referrer's state.
    ModelFileGraph* const graph = graph_;
    ANeuralNetworksModel* const referrer = model_;
    std::map<std::string, uint32_t> indexes = std::move(indexes_);
    const std::string referrerPrefix = prefix_;
    graph_ = &loaded;
    model_ = model;
    indexes_.clear();
    loading_.push_back(name);
    Result<void> result = loadGraph(definition, prefix);
    loading_.pop_back();
    graph_ = graph;
    model_ = referrer;
    indexes_ = std::move(indexes);
    prefix_ = referrerPrefix;
    NNRT_RETURN_IF_ERROR(result);
    loaded_[name] = out_.subgraphs.size();
    out_.subgraphs.push_back(std::move(loaded));
    return model;
  }

  // ---- Messages ---------------------------------------------------------------------------------

  // A refused C API call: the function and its result code (the runtime has logged its reason).
  Result<void> api(const YAML::Node& node, const std::string& key, const char* function, int code,
                   const std::string& detail = "") const {
    if (code == ANEURALNETWORKS_NO_ERROR) return {};
    std::string what = std::string(function) + " returned " + resultCodeText(code);
    if (!detail.empty()) what += " (" + detail + ")";
    return Unexpected(at(node, key, what, static_cast<ResultCode>(code)));
  }

  // ---- Extensions -------------------------------------------------------------------------------

  Result<void> readExtensionNames(const YAML::Node& node) {
    if (!node.IsMap()) return Unexpected(at(node, "extensions", "expected a mapping of extension names"));
    for (const auto& item : node) {
      const std::string name = item.first.Scalar();
      const std::string key = "extensions." + name;
      NNRT_RETURN_IF_ERROR(checkMap(item.second, key, {"operand_types", "operation_types"}));
      ExtensionNames& names = names_[name];
      if (const YAML::Node types = item.second["operand_types"]) {
        if (!types.IsMap())
          return Unexpected(at(types, key + ".operand_types", "expected a mapping NAME: code"));
        for (const auto& t : types) {
          const std::string tkey = key + ".operand_types." + t.first.Scalar();
          ExtensionNames::OperandType type;
          if (t.second.IsMap()) {
            NNRT_RETURN_IF_ERROR(checkMap(t.second, tkey, {"code", "element_type"}));
            if (!t.second["code"]) return Unexpected(at(t.second, tkey + ".code", "missing (required)"));
            NNRT_ASSIGN_OR_RETURN(type.code,
                                  number<uint16_t>(t.second["code"], tkey + ".code", ElementType::U16));
            if (t.second["element_type"]) {
              NNRT_ASSIGN_OR_RETURN(type.element,
                                    elementType(t.second["element_type"], tkey + ".element_type"));
            }
          } else {
            NNRT_ASSIGN_OR_RETURN(type.code, number<uint16_t>(t.second, tkey, ElementType::U16));
          }
          names.operandTypes[t.first.Scalar()] = type;
        }
      }
      if (const YAML::Node types = item.second["operation_types"]) {
        if (!types.IsMap())
          return Unexpected(at(types, key + ".operation_types", "expected a mapping NAME: code"));
        for (const auto& t : types) {
          NNRT_ASSIGN_OR_RETURN(
              names.operationTypes[t.first.Scalar()],
              number<uint16_t>(t.second, key + ".operation_types." + t.first.Scalar(), ElementType::U16));
        }
      }
    }
    return {};
  }

  // "extension.name:TYPE" split into the extension and the type within it; nullopt when `text` has no ':'.
  static std::optional<std::pair<std::string, std::string>> splitExtensionReference(const std::string& text) {
    size_t colon = text.find(':');
    if (colon == std::string::npos) return std::nullopt;
    return std::make_pair(text.substr(0, colon), text.substr(colon + 1));
  }

  static std::optional<uint16_t> codeNumber(const std::string& text) {
    if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    unsigned long v = std::stoul(text);
    if (v > UINT16_MAX) return std::nullopt;
    return static_cast<uint16_t>(v);
  }

  static constexpr const char* kExtensionHint =
      "is a device offering this extension loaded, and may this program use extensions? "
      "see `nnrt devices`, NNRT_APP_ID and the allowlist";

  Result<int32_t> operandType(const YAML::Node& node, const std::string& key,
                              std::optional<ElementType>& element) {
    NNRT_ASSIGN_OR_RETURN(std::string name, string(node, key));
    auto reference = splitExtensionReference(name);
    if (!reference) {
      auto type = nnapiOperandType(name);
      if (!type) {
        return Unexpected(at(node, key,
                             "'" + name +
                                 "' is not an NNAPI operand type (e.g. TENSOR_FLOAT32) or "
                                 "an extension type (extension.name:TYPE)"));
      }
      element = elementTypeOf(*type);
      return *type;
    }
    const auto& [extension, within] = *reference;
    std::optional<uint16_t> code = codeNumber(within);
    if (!code) {
      auto names = names_.find(extension);
      if (names != names_.end()) {
        auto t = names->second.operandTypes.find(within);
        if (t != names->second.operandTypes.end()) {
          code = t->second.code;
          element = t->second.element;
        }
      }
    }
    if (!code) {
      return Unexpected(at(node, key,
                           "extension '" + extension + "' has no operand type named '" + within +
                               "' (declare it under extensions." + extension +
                               ".operand_types, or give its number)"));
    }
    int32_t type = 0;
    NNRT_RETURN_IF_ERROR(
        api(node, key, "ANeuralNetworksModel_getExtensionOperandType",
            ANeuralNetworksModel_getExtensionOperandType(model_, extension.c_str(), *code, &type),
            kExtensionHint));
    out_.usesExtensions = true;
    return type;
  }

  Result<int32_t> operationType(const YAML::Node& node, const std::string& key) {
    NNRT_ASSIGN_OR_RETURN(std::string name, string(node, key));
    auto reference = splitExtensionReference(name);
    if (!reference) {
      auto type = nnapiOperationType(name);
      if (!type) {
        return Unexpected(at(node, key,
                             "'" + name +
                                 "' is not an NNAPI operation type (e.g. CONV_2D) or "
                                 "an extension operation (extension.name:OPERATION)"));
      }
      return *type;
    }
    const auto& [extension, within] = *reference;
    std::optional<uint16_t> code = codeNumber(within);
    if (auto names = names_.find(extension); !code && names != names_.end()) {
      if (auto t = names->second.operationTypes.find(within); t != names->second.operationTypes.end())
        code = t->second;
    }
    if (!code) {
      return Unexpected(at(node, key,
                           "extension '" + extension + "' has no operation named '" + within +
                               "' (declare it under extensions." + extension +
                               ".operation_types, or give its number)"));
    }
    int32_t type = 0;
    NNRT_RETURN_IF_ERROR(
        api(node, key, "ANeuralNetworksModel_getExtensionOperationType",
            ANeuralNetworksModel_getExtensionOperationType(model_, extension.c_str(), *code, &type),
            kExtensionHint));
    out_.usesExtensions = true;
    return type;
  }

  // ---- Operands ---------------------------------------------------------------------------------

  Result<void> addOperand(const YAML::Node& node, size_t index) {
    const std::string key = prefix_ + "operands[" + std::to_string(index) + "]";
    NNRT_RETURN_IF_ERROR(checkMap(node, key,
                                  {"name", "type", "dims", "scale", "zero_point", "value", "file", "offset",
                                   "length", "omitted", "element_type", "channel_quant", "extension_data"}));
    for (const char* required : {"name", "type"}) {
      if (!node[required]) return Unexpected(at(node, key + "." + required, "missing (required)"));
    }
    ModelFileOperand operand;
    operand.line = node.Mark().line + 1;
    NNRT_ASSIGN_OR_RETURN(operand.name, string(node["name"], key + ".name"));
    if (operand.name.empty()) return Unexpected(at(node["name"], key + ".name", "must not be empty"));
    if (auto previous = indexes_.find(operand.name); previous != indexes_.end()) {
      return Unexpected(at(node["name"], key + ".name",
                           "operand '" + operand.name + "' is already defined at line " +
                               std::to_string(graph_->operands[previous->second].line)));
    }
    operand.typeName = node["type"].IsScalar() ? node["type"].Scalar() : "";
    NNRT_ASSIGN_OR_RETURN(operand.type, operandType(node["type"], key + ".type", operand.element));
    if (const YAML::Node dims = node["dims"]) {
      if (!dims.IsSequence())
        return Unexpected(at(dims, key + ".dims", "expected a list of sizes (0 = unknown)"));
      for (size_t d = 0; d < dims.size(); ++d) {
        NNRT_ASSIGN_OR_RETURN(
            uint32_t size,
            number<uint32_t>(dims[d], key + ".dims[" + std::to_string(d) + "]", ElementType::U32));
        operand.dimensions.push_back(size);
      }
    }
    if (node["scale"]) {
      NNRT_ASSIGN_OR_RETURN(operand.scale, number<float>(node["scale"], key + ".scale", ElementType::F32));
    }
    if (node["zero_point"]) {
      NNRT_ASSIGN_OR_RETURN(operand.zeroPoint,
                            number<int32_t>(node["zero_point"], key + ".zero_point", ElementType::I32));
    }
    if (node["element_type"]) {
      if (!driver::isExtensionType(operand.type)) {
        return Unexpected(
            at(node["element_type"], key + ".element_type",
               "only extension operands take element_type; " + operand.typeName +
                   (operand.element ? std::string(" values are always ") + elementTypeName(*operand.element)
                                    : std::string(" has no values"))));
      }
      NNRT_ASSIGN_OR_RETURN(operand.element, elementType(node["element_type"], key + ".element_type"));
    }
    ANeuralNetworksOperandType type{operand.type, static_cast<uint32_t>(operand.dimensions.size()),
                                    operand.dimensions.empty() ? nullptr : operand.dimensions.data(),
                                    operand.scale, operand.zeroPoint};
    const int32_t id = static_cast<int32_t>(index);
    NNRT_RETURN_IF_ERROR(api(node, key, "ANeuralNetworksModel_addOperand",
                             ANeuralNetworksModel_addOperand(model_, &type),
                             operand.typeName + " " + ops::shapeToString(operand.dimensions)));
    if (const YAML::Node quant = node["channel_quant"]) NNRT_RETURN_IF_ERROR(setChannelQuant(quant, key, id));
    if (const YAML::Node data = node["extension_data"]) NNRT_RETURN_IF_ERROR(setExtensionData(data, key, id));
    NNRT_RETURN_IF_ERROR(setValue(node, key, operand));
    indexes_[operand.name] = static_cast<uint32_t>(index);
    graph_->operands.push_back(std::move(operand));
    return {};
  }

  Result<void> setChannelQuant(const YAML::Node& node, const std::string& operandKey, int32_t index) {
    const std::string key = operandKey + ".channel_quant";
    NNRT_RETURN_IF_ERROR(checkMap(node, key, {"dim", "scales"}));
    if (!node["dim"] || !node["scales"]) return Unexpected(at(node, key, "needs both dim and scales"));
    NNRT_ASSIGN_OR_RETURN(uint32_t dim, number<uint32_t>(node["dim"], key + ".dim", ElementType::U32));
    const YAML::Node list = node["scales"];
    if (!list.IsSequence()) return Unexpected(at(list, key + ".scales", "expected a list of numbers"));
    std::vector<float> scales;
    for (size_t i = 0; i < list.size(); ++i) {
      NNRT_ASSIGN_OR_RETURN(
          float s, number<float>(list[i], key + ".scales[" + std::to_string(i) + "]", ElementType::F32));
      scales.push_back(s);
    }
    ANeuralNetworksSymmPerChannelQuantParams params{dim, static_cast<uint32_t>(scales.size()), scales.data()};
    return api(node, key, "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams",
               ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model_, index, &params));
  }

  // `base64: ...` or `struct: [{f64: 1.0}, {i64: 0}]` (fields laid out as a C struct would be).
  Result<void> setExtensionData(const YAML::Node& node, const std::string& operandKey, int32_t index) {
    const std::string key = operandKey + ".extension_data";
    NNRT_RETURN_IF_ERROR(checkMap(node, key, {"base64", "struct"}));
    if ((node["base64"] ? 1 : 0) + (node["struct"] ? 1 : 0) != 1) {
      return Unexpected(at(node, key, "give exactly one of base64 or struct"));
    }
    std::vector<uint8_t> bytes;
    if (node["base64"]) {
      NNRT_ASSIGN_OR_RETURN(std::string text, string(node["base64"], key + ".base64"));
      auto decoded = decodeBase64(text);
      if (!decoded) return Unexpected(at(node["base64"], key + ".base64", decoded.error().message));
      bytes = std::move(*decoded);
    } else {
      const YAML::Node fields = node["struct"];
      if (!fields.IsSequence())
        return Unexpected(at(fields, key + ".struct", "expected a list of {TYPE: value}"));
      size_t alignment = 1;
      for (size_t i = 0; i < fields.size(); ++i) {
        const std::string fkey = key + ".struct[" + std::to_string(i) + "]";
        if (!fields[i].IsMap() || fields[i].size() != 1) {
          return Unexpected(at(fields[i], fkey, "expected one {TYPE: value}, e.g. {f64: 0.5}"));
        }
        auto field = *fields[i].begin();
        auto type = parseElementType(field.first.Scalar());
        if (!type) {
          return Unexpected(
              at(field.first, fkey, "'" + field.first.Scalar() + "' is not one of " + elementTypeList()));
        }
        const size_t size = elementBytes(*type);
        alignment = std::max(alignment, size);
        bytes.resize((bytes.size() + size - 1) / size * size, 0);
        if (!field.second.IsScalar()) return Unexpected(at(field.second, fkey, "expected a number"));
        std::string problem = appendElement(*type, field.second.Scalar(), bytes);
        if (!problem.empty()) return Unexpected(at(field.second, fkey, problem));
      }
      bytes.resize((bytes.size() + alignment - 1) / alignment * alignment, 0);
    }
    return api(
        node, key, "ANeuralNetworksModel_setOperandExtensionData",
        ANeuralNetworksModel_setOperandExtensionData(model_, index, bytes.data(), bytes.size()),
        std::to_string(bytes.size()) + " bytes");
  }

  Result<void> setValue(const YAML::Node& node, const std::string& key, ModelFileOperand& operand) {
    const bool hasValue = node["value"].IsDefined(), hasFile = node["file"].IsDefined();
    bool omitted = false;
    if (node["omitted"]) {
      NNRT_ASSIGN_OR_RETURN(omitted, boolean(node["omitted"], key + ".omitted"));
    }
    if ((hasValue ? 1 : 0) + (hasFile ? 1 : 0) + (omitted ? 1 : 0) > 1) {
      return Unexpected(at(node, key, "give at most one of value, file and omitted: true"));
    }
    for (const char* k : {"offset", "length"}) {
      if (node[k] && !hasFile) return Unexpected(at(node[k], key + "." + k, "only goes with file"));
    }
    const int32_t index = static_cast<int32_t>(graph_->operands.size());
    ANeuralNetworksModel* model = model_;
    const std::string described = operand.typeName + " " + ops::shapeToString(operand.dimensions);
    if (omitted) {
      operand.hasValue = true;
      return api(node["omitted"], key + ".omitted", "ANeuralNetworksModel_setOperandValue",
                 ANeuralNetworksModel_setOperandValue(model, index, nullptr, 0));
    }
    if (!hasValue && !hasFile) return {};
    operand.hasValue = true;
    if (operand.type == ANEURALNETWORKS_MODEL && hasValue) {
      // The name of a subgraph, loaded and finished first (setOperandValueFromModel takes finished models).
      NNRT_ASSIGN_OR_RETURN(std::string name, string(node["value"], key + ".value"));
      NNRT_ASSIGN_OR_RETURN(ANeuralNetworksModel * referenced, subgraph(name, node["value"], key + ".value"));
      return api(node["value"], key + ".value", "ANeuralNetworksModel_setOperandValueFromModel",
                 ANeuralNetworksModel_setOperandValueFromModel(model, index, referenced), "subgraph " + name);
    }
    auto bytes = std::make_unique<std::vector<uint8_t>>();
    std::string detail;
    const YAML::Node where = hasValue ? node["value"] : node["file"];
    const std::string whereKey = key + (hasValue ? ".value" : ".file");
    if (hasValue) {
      if (!operand.element) {
        return Unexpected(at(where, whereKey,
                             "give element_type (" + elementTypeList() + ") to write values of " +
                                 operand.typeName + ", or use file"));
      }
      size_t count = 0;
      NNRT_RETURN_IF_ERROR(appendValues(where, whereKey, *operand.element, *bytes, count));
      detail = std::to_string(count) + (count == 1 ? " value" : " values") + ", " +
               std::to_string(bytes->size()) + " bytes, for " + described;
    } else {
      NNRT_RETURN_IF_ERROR(readSideFile(node, key, *bytes));
      detail = std::to_string(bytes->size()) + " bytes from '" + node["file"].Scalar() + "' for " + described;
    }
    NNRT_RETURN_IF_ERROR(api(where, whereKey, "ANeuralNetworksModel_setOperandValue",
                             ANeuralNetworksModel_setOperandValue(model, index, bytes->data(), bytes->size()),
                             detail));
    out_.constants.push_back(std::move(bytes));
    return {};
  }

  // ---- Operations -------------------------------------------------------------------------------

  Result<void> addOperation(const YAML::Node& node, size_t index) {
    const std::string key = prefix_ + "operations[" + std::to_string(index) + "]";
    NNRT_RETURN_IF_ERROR(checkMap(node, key, {"name", "type", "inputs", "outputs"}));
    for (const char* required : {"type", "inputs", "outputs"}) {
      if (!node[required]) return Unexpected(at(node, key + "." + required, "missing (required)"));
    }
    ModelFileOperation operation;
    operation.line = node.Mark().line + 1;
    if (node["name"]) {
      NNRT_ASSIGN_OR_RETURN(operation.name, string(node["name"], key + ".name"));
    }
    operation.typeName = node["type"].IsScalar() ? node["type"].Scalar() : "";
    NNRT_ASSIGN_OR_RETURN(operation.type, operationType(node["type"], key + ".type"));
    NNRT_ASSIGN_OR_RETURN(operation.inputs, operandList(node["inputs"], key + ".inputs"));
    NNRT_ASSIGN_OR_RETURN(operation.outputs, operandList(node["outputs"], key + ".outputs"));
    NNRT_RETURN_IF_ERROR(api(node, key, "ANeuralNetworksModel_addOperation",
                             ANeuralNetworksModel_addOperation(
                                 model_, operation.type,
                                 static_cast<uint32_t>(operation.inputs.size()), operation.inputs.data(),
                                 static_cast<uint32_t>(operation.outputs.size()), operation.outputs.data()),
                             operation.typeName));
    graph_->operations.push_back(std::move(operation));
    return {};
  }

  Result<std::vector<uint32_t>> operandList(const YAML::Node& node, const std::string& key) const {
    if (!node.IsSequence()) return Unexpected(at(node, key, "expected a list of operand names"));
    std::vector<uint32_t> list;
    for (size_t i = 0; i < node.size(); ++i) {
      const std::string ikey = key + "[" + std::to_string(i) + "]";
      NNRT_ASSIGN_OR_RETURN(std::string name, string(node[i], ikey));
      auto found = indexes_.find(name);
      if (found == indexes_.end()) return Unexpected(at(node[i], ikey, "unknown operand '" + name + "'"));
      list.push_back(found->second);
    }
    return list;
  }

  ModelFile& out_;
  std::map<std::string, ExtensionNames> names_;  // from the file's `extensions` section
  std::optional<YAML::Node> subgraphs_;    // the file's `subgraphs:`, if any
  std::map<std::string, size_t> loaded_;   // subgraph name -> index in out_.subgraphs
  std::vector<std::string> loading_;       // subgraphs being loaded, outermost first
  // The model being loaded: the main one or a subgraph.
  ModelFileGraph* graph_ = nullptr;
  ANeuralNetworksModel* model_ = nullptr;
  std::string prefix_;                     // of its keys: "" or "subgraphs.NAME."
  std::map<std::string, uint32_t> indexes_;  // its operand names
};

}  // namespace

std::string resultCodeText(int code) {
  return std::string("ANEURALNETWORKS_") + resultCodeName(static_cast<ResultCode>(code));
}

std::optional<uint32_t> ModelFileGraph::findOperand(std::string_view name) const {
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i].name == name) return static_cast<uint32_t>(i);
  }
  return std::nullopt;
}

std::string ModelFileGraph::operationLabel(uint32_t operation) const {
  if (operation >= operations.size()) return "operation " + std::to_string(operation);
  const ModelFileOperation& op = operations[operation];
  return op.name.empty() ? op.typeName : op.typeName + " '" + op.name + "'";
}

size_t ModelFileGraph::elementSize(uint32_t operand) const {
  const auto& element = operands.at(operand).element;
  return element ? tools::elementBytes(*element) : 0;
}

std::optional<size_t> ModelFileGraph::byteSize(uint32_t operand, const std::vector<uint32_t>& dimensions) const {
  size_t size = elementSize(operand);
  if (size == 0) return std::nullopt;
  for (uint32_t d : dimensions) {
    if (d == 0) return std::nullopt;
    size *= d;
  }
  return size;
}

Result<ModelFile> loadModelText(std::string_view yaml, const std::filesystem::path& file) {
  ModelFile out;
  out.path = file;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return fail(ResultCode::BAD_DATA,
                file.string() + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
  try {
    Loader loader(file, out);
    NNRT_RETURN_IF_ERROR(loader.load(root));
  } catch (const YAML::Exception& e) {
    return fail(ResultCode::BAD_DATA, file.string() + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  return out;
}

Result<ModelFile> loadModelFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return fail(ResultCode::BAD_DATA,
                "cannot open model file '" + file.string() + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return loadModelText(text.str(), file);
}

}  // namespace nnrt::tools
