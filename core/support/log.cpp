#include "core/support/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace nnrt {
namespace {

LogLevel levelFromEnvironment() {
  const char* value = std::getenv("NNRT_LOG");
  if (value == nullptr || *value == '\0') return LogLevel::Warning;
  std::string v(value);
  if (v == "error") return LogLevel::Error;
  if (v == "warning" || v == "warn") return LogLevel::Warning;
  if (v == "info") return LogLevel::Info;
  if (v == "verbose" || v == "debug") return LogLevel::Verbose;
  std::fprintf(stderr, "nnrt W NNRT_LOG='%s' is not one of error, warning, info, verbose; using warning\n", value);
  return LogLevel::Warning;
}

LogLevel threshold() {
  static const LogLevel level = levelFromEnvironment();
  return level;
}

}  // namespace

bool logEnabled(LogLevel level) { return level <= threshold(); }

void log(LogLevel level, std::string_view message) {
  if (!logEnabled(level)) return;
  static constexpr char kTag[] = {'E', 'W', 'I', 'V'};
  std::string line = "nnrt ";
  line += kTag[static_cast<int>(level)];
  line += ' ';
  line += message;
  line += '\n';
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace nnrt
