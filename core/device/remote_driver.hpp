// A driver plugin run in a process of its own (`isolation: process` in runtime.yaml): the runtime
// starts nnrt-driver-host (core/device/host/driver_host.cpp), which loads the plugin with the same
// checks as in process, and talks to it through a function table of its own whose entries forward
// each call over a socket pair (core/device/host/wire.hpp). DriverDevice, the guard and the
// partitioner use that table as they use a loaded plugin's.
// The connection to the host (start, replies, crash detection, restart) is core/device/host_connection.hpp.
//
// - Identity, capabilities, extensions, cache file counts and the operation table are read once
//   when the host starts and answered locally; getStatus, support queries, preparations and
//   executions go to the host.
// - Constants travel once, at preparation, in a memfd the host maps for the prepared model's life.
//   Each prepared model keeps memfd arenas reused across executions: inputs are copied in, outputs
//   copied out after the reply (one copy each way, no allocation in the steady state).
// - A synchronous execution goes through the host's execute doorbell (host_connection.hpp) once the
//   host has mapped its arena; the first one, and one while another call holds the doorbell, go
//   over the socket.
// - Not offered in this version: fenced execution, driver-managed buffers (memory domains) and
//   bursts (the runtime runs those paths through plain executions).
// - A host that dies (crash, or killed because a call on it was abandoned) fails every call in
//   flight with DEVICE_UNAVAILABLE, reports OFFLINE, and is restarted with backoff (100 ms doubling
//   to 5 s); the device answers AVAILABLE again once the new host has opened the plugin. Models
//   prepared by the dead host stay dead (their executions fail with DEVICE_UNAVAILABLE).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/device/driver_library.hpp"
#include "core/support/status.hpp"

namespace nnrt {

// Starts `hostProgram` for the plugin at `pluginPath` with `options` and waits until it has opened
// the plugin. `spin`: how long each side of the execute doorbell polls (0: no doorbell; see
// host_connection.hpp). The library's close() stops the host (and reaps it). Fails, naming the plugin file
// and the reason (the host's load error, or the signal that killed it), when the host cannot
// start or open the plugin.
Result<std::shared_ptr<DriverLibrary>> loadRemoteDriver(
    const std::filesystem::path& hostProgram, const std::filesystem::path& pluginPath,
    const std::vector<std::pair<std::string, std::string>>& options, std::chrono::microseconds spin);

}  // namespace nnrt
