// The simulated driver as a plugin built before ABI 1.1 would present it: its table's struct_size
// ends at release_fenced_execution. The entries after it are set to a function that aborts, so a
// host that read past struct_size would crash the test instead of passing it.
#include <cstddef>
#include <cstdlib>

#define SIM_DRIVER_OWN_EXPORT
#include "tests/sim_driver/sim_driver.cpp"

namespace {

constexpr const char* kName = "sim10";
constexpr const char* kVersion = "1.0.0";

void trap() { std::abort(); }

template <class F>
F trapAs() {
  return reinterpret_cast<F>(&trap);
}

nnrt_driver_api abi10Table() {
  nnrt_driver_api api = nnrt::driver::detail::Glue<&kName, &kVersion, &sim::open>::kApi;
  api.abi_minor = 0;
  api.struct_size = offsetof(nnrt_driver_api, get_operation_table);
  api.get_operation_table = trapAs<decltype(api.get_operation_table)>();
  api.allocate = trapAs<decltype(api.allocate)>();
  api.buffer_copy_to = trapAs<decltype(api.buffer_copy_to)>();
  api.buffer_copy_from = trapAs<decltype(api.buffer_copy_from)>();
  api.release_buffer = trapAs<decltype(api.release_buffer)>();
  api.get_memory_preference = trapAs<decltype(api.get_memory_preference)>();
  api.configure_burst = trapAs<decltype(api.configure_burst)>();
  api.execute_burst = trapAs<decltype(api.execute_burst)>();
  api.release_burst = trapAs<decltype(api.release_burst)>();
  return api;
}

const nnrt_driver_api kAbi10 = abi10Table();

}  // namespace

extern "C" __attribute__((visibility("default"))) const nnrt_driver_api* nnrt_driver_get_api(uint32_t) {
  return &kAbi10;
}
