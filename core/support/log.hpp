// Runtime logging: one line per event on stderr, filtered by the NNRT_LOG environment variable
// (error, warning, info, verbose; default warning).
#pragma once

#include <string_view>

namespace nnrt {

enum class LogLevel { Error = 0, Warning = 1, Info = 2, Verbose = 3 };

// True when messages of `level` are printed. Cheap; read once from NNRT_LOG.
bool logEnabled(LogLevel level);
// Prints "nnrt W message" when `level` is enabled. Thread-safe; lines never interleave.
void log(LogLevel level, std::string_view message);

inline void logError(std::string_view m) { log(LogLevel::Error, m); }
inline void logWarning(std::string_view m) { log(LogLevel::Warning, m); }
inline void logInfo(std::string_view m) { log(LogLevel::Info, m); }
inline void logVerbose(std::string_view m) { log(LogLevel::Verbose, m); }

}  // namespace nnrt
