#include "core/model/extension_registry.hpp"

#include "core/support/log.hpp"

namespace nnrt {
namespace {

bool sameDescription(const driver::Extension& a, const driver::Extension& b) {
  if (a.operandTypes.size() != b.operandTypes.size()) return false;
  for (const auto& t : a.operandTypes) {
    bool found = false;
    for (const auto& u : b.operandTypes) {
      found = found || (t.type == u.type && t.isTensor == u.isTensor && t.byteSize == u.byteSize);
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace

bool isValidExtensionName(const std::string& name) {
  if (name.empty() || name.front() == '.' || name.back() == '.') return false;
  bool dot = false;
  char previous = 0;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    if (!ok || (c == '.' && previous == '.')) return false;
    dot = dot || c == '.';
    previous = c;
  }
  return dot;
}

std::shared_ptr<ExtensionRegistry> ExtensionRegistry::fromList(
    const std::vector<std::pair<std::string, driver::Extension>>& deviceExtensions) {
  auto registry = std::make_shared<ExtensionRegistry>();
  std::map<std::string, std::string> firstDevice;
  for (const auto& [device, extension] : deviceExtensions) {
    if (!isValidExtensionName(extension.name)) {
      logWarning("device '" + device + "' describes extension '" + extension.name +
                 "' whose name is not a valid extension name; ignored");
      continue;
    }
    if (registry->disabled_.contains(extension.name)) continue;
    auto [it, inserted] = registry->enabled_.emplace(extension.name, extension);
    if (inserted) {
      firstDevice[extension.name] = device;
    } else if (!sameDescription(it->second, extension)) {
      std::string why = "devices '" + firstDevice[extension.name] + "' and '" + device +
                        "' describe it differently";
      logWarning("extension '" + extension.name + "' is disabled: " + why);
      registry->disabled_[extension.name] = why;
      registry->enabled_.erase(it);
    }
  }
  return registry;
}

const driver::Extension* ExtensionRegistry::find(const std::string& name) const {
  auto it = enabled_.find(name);
  return it == enabled_.end() ? nullptr : &it->second;
}

Result<uint16_t> ExtensionRegistry::prefixOf(const std::string& name) const {
  if (!isValidExtensionName(name)) {
    return fail(ResultCode::BAD_DATA, "'" + name + "' is not a valid extension name (lowercase reverse domain, e.g. com.example.ext)");
  }
  if (auto it = disabled_.find(name); it != disabled_.end()) {
    return fail(ResultCode::BAD_DATA, "extension '" + name + "' is disabled: " + it->second);
  }
  if (!enabled_.contains(name)) return fail(ResultCode::BAD_DATA, "no device supports extension '" + name + "'");
  std::lock_guard lock(mutex_);
  auto [it, inserted] = prefixes_.emplace(name, 0);
  if (inserted) {
    if (names_.size() >= 0xFFFF) return fail(ResultCode::BAD_DATA, "too many extensions in one process");
    names_.push_back(name);
    it->second = static_cast<uint16_t>(names_.size());
  }
  return it->second;
}

std::optional<std::string> ExtensionRegistry::nameOf(uint16_t prefix) const {
  std::lock_guard lock(mutex_);
  if (prefix == 0 || prefix > names_.size()) return std::nullopt;
  return names_[prefix - 1];
}

Result<driver::ExtensionOperandType> ExtensionRegistry::operandType(int32_t type) const {
  auto name = nameOf(driver::extensionPrefix(type));
  if (!name) {
    return fail(ResultCode::BAD_DATA, "type " + std::to_string(type) + " uses extension prefix " +
                                          std::to_string(driver::extensionPrefix(type)) + ", which was never handed out");
  }
  const driver::Extension* extension = find(*name);
  uint16_t within = driver::typeWithinExtension(type);
  if (extension != nullptr) {
    for (const auto& t : extension->operandTypes) {
      if (t.type == within) return t;
    }
  }
  return fail(ResultCode::BAD_DATA, "extension '" + *name + "' has no operand type " + std::to_string(within));
}

}  // namespace nnrt
