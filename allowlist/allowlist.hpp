// The vendor-extension allowlist: which programs may build models that use extension operations and types.
//
// As in Android, the allowlist prevents *unintended* use of vendor extensions, not deliberate circumvention:
// any program can claim an application id (setApplicationId, NNRT_APP_ID), and a program could load a driver
// plugin directly. It keeps ordinary applications on the portable subset unless an integrator opts them in.
//
// File format (one entry a line):
//   /usr/bin/my_tool          an absolute path to an executable (compared after resolving symlinks)
//   com.example.my_app        an application id: letters, digits, '_' and '.', at least one '.', no empty
//   segments # a comment               '#' at the start of a line, or after whitespace, starts a comment
// Blank lines are ignored and surrounding whitespace is trimmed. Any other line is reported as invalid, with
// its line number, and does not invalidate the other entries.
//
// This module depends on the C++ standard library only.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nnrt::allowlist {

struct Entry {
  enum class Kind { BinaryPath, Package };
  Kind kind;
  std::string value;  // the entry as written (comment and whitespace removed)
  std::size_t line;   // 1-based line number in the source
};

struct InvalidLine {
  std::size_t line;    // 1-based line number in the source
  std::string text;    // the offending line, trimmed, comment removed
  std::string reason;  // e.g. "'foo bar' is neither an absolute path nor a package name"
};

// "line 7: 'foo bar' is neither an absolute path nor a package name".
std::string describe(const InvalidLine& invalid);

struct Allowlist {
  std::vector<Entry> entries;        // in file order; duplicates are kept
  std::vector<InvalidLine> invalid;  // in file order
  std::string source;                // the file name (or other label) used in messages
};

// Parses allowlist text; never fails as a whole: bad lines go to `invalid`, good ones to `entries`.
// Pure function of its arguments; thread-safe.
Allowlist parseAllowlist(std::string_view text, std::string source_name);

// Either a parsed allowlist or, when the file cannot be read, an error naming the file and the OS reason.
struct LoadResult {
  std::optional<Allowlist> list;
  std::string error;  // empty when `list` holds a value

  bool ok() const { return list.has_value(); }
};

// Reads and parses the file at `path` (which becomes the list's `source`). A missing, unreadable or
// non-regular file (e.g. a directory) is an error; invalid lines are not (see Allowlist::invalid).
// Thread-safe.
LoadResult loadAllowlist(const std::string& path);

struct CallerIdentity {
  std::string executable;            // canonical path of the running executable; empty if it cannot be found
  std::optional<std::string> appId;  // the application id, if one was set
};

// Sets the process-wide application id that currentCaller() reports; an empty string clears it. Thread-safe.
// This is a claim, not a proof: any program may call it.
void setApplicationId(std::string app_id);

// Identifies the running program: the real path of /proc/self/exe, and the application id taken from
// setApplicationId, else from the environment variable NNRT_APP_ID (if non-empty), else none. Thread-safe,
// provided no other thread modifies the environment concurrently.
CallerIdentity currentCaller();

// The `extensions.allow` policy.
enum class ExtensionAccess {
  All,        // every program may use extensions
  Allowlist,  // only programs named in the allowlist file
  None,       // no program may use extensions
};

// Parses "all", "allowlist" or "none" (exact, lowercase); anything else gives std::nullopt.
std::optional<ExtensionAccess> parseExtensionAccess(std::string_view text);

// The inverse of parseExtensionAccess.
std::string_view toString(ExtensionAccess access);

struct Decision {
  bool allowed;
  std::string reason;  // one sentence, suitable for a log line or an error message, in both cases
};

// Decides whether `caller` may use vendor extensions. Under Allowlist, the caller is allowed iff a BinaryPath
// entry, canonicalized (symlinks resolved when the path exists), equals caller.executable, or a Package entry
// equals caller.appId exactly; a null `list` denies. `list` is only read during the call. Thread-safe.
Decision decide(ExtensionAccess access, const Allowlist* list, const CallerIdentity& caller);

}  // namespace nnrt::allowlist
