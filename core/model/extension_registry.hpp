// Vendor extensions known to the runtime: the union of what the devices describe (the device registry
// collects them), and the process-wide 16-bit prefix of each extension name. In the model layer: models
// name extension types through it, and it knows no device.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/support/status.hpp"
#include "nnrt/driver/driver.hpp"

namespace nnrt {

// Android's syntax: lowercase letters, digits, '_' and '.', with at least one '.', no empty segment.
bool isValidExtensionName(const std::string& name);

class ExtensionRegistry {
 public:
  // Collects the extensions of every device, given as (device name, extension). An extension that two
  // devices describe differently is disabled, with a warning naming both devices.
  static std::shared_ptr<ExtensionRegistry> fromList(
      const std::vector<std::pair<std::string, driver::Extension>>& deviceExtensions);

  // The description of an enabled extension, or null.
  const driver::Extension* find(const std::string& name) const;
  // name -> why it is disabled.
  const std::map<std::string, std::string>& disabled() const { return disabled_; }

  // The prefix of an extension, assigned from 1 upward on first use (thread-safe). Errors: the name
  // is malformed, unknown or disabled (BAD_DATA).
  Result<uint16_t> prefixOf(const std::string& name) const;
  // The extension a prefix was assigned to.
  std::optional<std::string> nameOf(uint16_t prefix) const;
  // Description of an extension operand type (prefix << 16 | type), or an error saying why not.
  Result<driver::ExtensionOperandType> operandType(int32_t type) const;

 private:
  std::map<std::string, driver::Extension> enabled_;
  std::map<std::string, std::string> disabled_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, uint16_t> prefixes_;
  mutable std::vector<std::string> names_;  // names_[prefix - 1]
};

}  // namespace nnrt
