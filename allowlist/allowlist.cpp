#include "allowlist/allowlist.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <utility>

namespace nnrt::allowlist {
namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

bool isPackageChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back()))
    s.remove_suffix(1);
  return s;
}

// Drops a comment: '#' at the start of the (trimmed) line, or '#' right after whitespace. A '#' glued to
// other characters is part of the entry, so "/opt/a#b" stays a path.
std::string_view stripComment(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#' && (i == 0 || isSpace(line[i - 1]))) return line.substr(0, i);
  }
  return line;
}

bool containsSpace(std::string_view s) {
  for (char c : s) {
    if (isSpace(c)) return true;
  }
  return false;
}

std::string quoted(std::string_view s) {
  return "'" + std::string(s) + "'";
}

std::string describeChar(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) return quoted(std::string_view(&c, 1));
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", u);
  return std::string("byte ") + hex;
}

// Returns the reason the path entry is unusable, or nothing when it is fine.
std::optional<std::string> checkBinaryPath(std::string_view path) {
  if (containsSpace(path)) {
    return quoted(path) + " contains whitespace (one entry a line; paths with whitespace are not supported)";
  }
  if (path.back() == '/') return quoted(path) + " ends with '/', so it names a directory, not an executable";
  return std::nullopt;
}

std::optional<std::string> checkPackageName(std::string_view name) {
  if (containsSpace(name)) return "package name " + quoted(name) + " contains whitespace";
  for (char c : name) {
    if (!isPackageChar(c)) {
      return "package name " + quoted(name) + " contains " + describeChar(c) +
             "; only letters, digits, '_' and '.' are allowed";
    }
  }
  if (name.front() == '.' || name.back() == '.' || name.find("..") != std::string_view::npos) {
    return "package name " + quoted(name) + " has an empty segment (leading, trailing or doubled '.')";
  }
  return std::nullopt;
}

// The process-wide application id. A function-local static avoids initialization-order surprises when another
// static initializer calls setApplicationId.
struct AppIdSlot {
  std::mutex mutex;
  std::optional<std::string> value;
};

AppIdSlot& appIdSlot() {
  static AppIdSlot slot;
  return slot;
}

std::string findExecutable() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::canonical("/proc/self/exe", ec);
  if (!ec) return exe.string();
  // A deleted or replaced binary reads as "/path (deleted)" and cannot be canonicalized; report what the link
  // says.
  exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

// Resolves symlinks in the part of the path that exists, so that a link to the running binary matches it.
std::string canonicalEntry(const std::string& entry) {
  std::error_code ec;
  std::filesystem::path resolved = std::filesystem::weakly_canonical(entry, ec);
  if (ec) return std::filesystem::path(entry).lexically_normal().string();
  return resolved.string();
}

std::string osReason(int error) {
  return std::generic_category().message(error);
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string describe(const InvalidLine& invalid) {
  return "line " + std::to_string(invalid.line) + ": " + invalid.reason;
}

Allowlist parseAllowlist(std::string_view text, std::string source_name) {
  Allowlist list;
  list.source = std::move(source_name);
  std::size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    std::size_t end = text.find('\n');
    std::string_view raw = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);

    std::string_view entry = trim(stripComment(trim(raw)));
    if (entry.empty()) continue;

    std::optional<std::string> problem;
    Entry::Kind kind = Entry::Kind::Package;
    if (entry.front() == '/') {
      kind = Entry::Kind::BinaryPath;
      problem = checkBinaryPath(entry);
    } else if (entry.find('/') != std::string_view::npos) {
      problem = quoted(entry) + " is a relative path; executable entries must be absolute (start with '/')";
    } else if (entry.find('.') != std::string_view::npos) {
      problem = checkPackageName(entry);
    } else {
      problem = quoted(entry) + " is neither an absolute path nor a package name";
    }

    if (problem) {
      list.invalid.push_back({line_number, std::string(entry), std::move(*problem)});
    } else {
      list.entries.push_back({kind, std::string(entry), line_number});
    }
  }
  return list;
}

LoadResult loadAllowlist(const std::string& path) {
  auto failure = [&path](const std::string& why) {
    return LoadResult{std::nullopt, "cannot read allowlist file '" + path + "': " + why};
  };

  // O_NONBLOCK so that opening a FIFO by mistake cannot hang; it does not affect reads of a regular file.
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return failure(osReason(errno));

  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return failure(osReason(errno));
  if (S_ISDIR(info.st_mode)) return failure(osReason(EISDIR));
  if (!S_ISREG(info.st_mode)) return failure("not a regular file");

  std::string text;
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return failure(osReason(errno));
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return LoadResult{parseAllowlist(text, path), std::string()};
}

void setApplicationId(std::string app_id) {
  AppIdSlot& slot = appIdSlot();
  std::lock_guard<std::mutex> lock(slot.mutex);
  if (app_id.empty()) {
    slot.value.reset();
  } else {
    slot.value = std::move(app_id);
  }
}

CallerIdentity currentCaller() {
  // The executable cannot change while the process lives (exec replaces the process), so find it once.
  static const std::string executable = findExecutable();

  CallerIdentity caller;
  caller.executable = executable;
  {
    AppIdSlot& slot = appIdSlot();
    std::lock_guard<std::mutex> lock(slot.mutex);
    caller.appId = slot.value;
  }
  if (!caller.appId) {
    const char* from_env = std::getenv("NNRT_APP_ID");
    if (from_env != nullptr && from_env[0] != '\0') caller.appId = std::string(from_env);
  }
  return caller;
}

std::optional<ExtensionAccess> parseExtensionAccess(std::string_view text) {
  if (text == "all") return ExtensionAccess::All;
  if (text == "allowlist") return ExtensionAccess::Allowlist;
  if (text == "none") return ExtensionAccess::None;
  return std::nullopt;
}

std::string_view toString(ExtensionAccess access) {
  switch (access) {
    case ExtensionAccess::All:
      return "all";
    case ExtensionAccess::Allowlist:
      return "allowlist";
    case ExtensionAccess::None:
      return "none";
  }
  return "unknown";
}

Decision decide(ExtensionAccess access, const Allowlist* list, const CallerIdentity& caller) {
  switch (access) {
    case ExtensionAccess::All:
      return {true, "extensions are allowed for every program by policy (extensions.allow: all)"};
    case ExtensionAccess::None:
      return {false, "extensions are disabled by policy (extensions.allow: none)"};
    case ExtensionAccess::Allowlist:
      break;
  }
  if (list == nullptr) {
    return {
        false,
        "extensions are restricted to an allowlist (extensions.allow: allowlist) but no allowlist file was "
        "loaded, so no program may use them"};
  }

  const bool has_app_id = caller.appId.has_value() && !caller.appId->empty();
  const std::string where = "allowlist '" + list->source + "'";
  for (const Entry& entry : list->entries) {
    const std::string at_line = " (line " + std::to_string(entry.line) + ")";
    if (entry.kind == Entry::Kind::BinaryPath) {
      if (!caller.executable.empty() && canonicalEntry(entry.value) == caller.executable) {
        return {true, "executable '" + caller.executable + "' is listed in " + where + at_line};
      }
    } else if (has_app_id && entry.value == *caller.appId) {
      return {true, "application id '" + *caller.appId + "' is listed in " + where + at_line};
    }
  }

  const std::string exe = caller.executable.empty() ? "the executable (its path is unknown)"
                                                    : "executable '" + caller.executable + "'";
  if (has_app_id) {
    return {false, "extensions are not allowed: neither " + exe + " nor application id '" + *caller.appId +
                       "' is listed in " + where};
  }
  return {false, "extensions are not allowed: " + exe + " is not listed in " + where +
                     ", and no application id is set (setApplicationId or NNRT_APP_ID)"};
}

}  // namespace nnrt::allowlist
