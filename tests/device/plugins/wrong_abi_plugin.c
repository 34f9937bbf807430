/* A plugin written in plain C that claims ABI major 2: the runtime must refuse it without
 * calling open(). */
#include <stddef.h>

#include "nnrt/driver/nnrt_driver.h"

static int g_opened = 0;

static nnrt_status open_plugin(const nnrt_option* options, uint32_t count, nnrt_plugin** plugin, nnrt_reason* reason) {
  (void)options;
  (void)count;
  (void)plugin;
  (void)reason;
  g_opened = 1;
  return NNRT_STATUS_GENERAL_FAILURE;
}

static nnrt_driver_api g_api = {
    .abi_major = 2,
    .abi_minor = 5,
    .struct_size = sizeof(nnrt_driver_api),
    .plugin_name = "future",
    .plugin_version = "2.5.0",
    .open = open_plugin,
};

__attribute__((visibility("default"))) const nnrt_driver_api* nnrt_driver_get_api(uint32_t host_abi_major) {
  (void)host_abi_major;
  return &g_api;
}

/* Lets the test check that open() was never called. */
__attribute__((visibility("default"))) int wrong_abi_plugin_was_opened(void) { return g_opened; }
