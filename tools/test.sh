#!/usr/bin/env bash
# Builds nnrt and runs every test: the whole suite on a RelWithDebInfo build, then the concurrency
# and C API suites again under ThreadSanitizer and under AddressSanitizer + UBSan (leaks included).
# Expects the dependencies of tools/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure

# Sanitizer builds: only what the concurrency-heavy suites need.
targets=(scheduler_test capi_test model_builder_fuzz_test cpu_core_lease_test memory_domain_test fault_test isolation_test
         nnrt_driver_sim nnrt_driver_sim10 nnrt_driver_cpu nnrt_driver_sample_ext nnrt_driver_fault nnrt_test_abort
         nnrt-driver-host)
# Timing assertions mean nothing under a sanitizer's slowdown; everything else runs.
filter='-*IndependentStepsOnTwoDevicesOverlap*'
export NNRT_APP_ID=com.example.fibonacci_demo NNRT_LOG=error
for sanitizer in thread address; do
  dir=build-$sanitizer
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNNRT_SANITIZE=$sanitizer \
        -DNNRT_BUILD_OPENCL=OFF -DNNRT_BUILD_BENCH=OFF >/dev/null
  cmake --build "$dir" -j"$jobs" --target "${targets[@]}"
  export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tools/tsan.supp"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  for t in scheduler_test capi_test cpu_core_lease_test; do
    echo "== $t ($sanitizer sanitizer)"
    "$dir/bin/$t" --gtest_brief=1 --gtest_filter="$filter"
  done
  echo "== memory_domain_test ($sanitizer sanitizer)"
  NNRT_CONFIG="$PWD/$dir/tests/sim_driver/memory_domain_runtime.yaml" "$dir/bin/memory_domain_test" --gtest_brief=1
  # The misbehaving driver: its cases check the warning lines the runtime logs. What a stuck or
  # abandoned driver call holds is leaked on purpose (never freed under it: docs/runtime.md), so
  # LeakSanitizer is off for this suite only.
  echo "== fault_test ($sanitizer sanitizer)"
  ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" NNRT_CONFIG="$PWD/$dir/lib/fault_runtime.yaml" NNRT_PLUGIN_DIR="$PWD/$dir/lib" NNRT_LOG=warning \
    "$dir/bin/fault_test" --gtest_brief=1 --gtest_filter="-FaultFallback.*"
  ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" NNRT_CONFIG="$PWD/$dir/lib/fault_fallback_runtime.yaml" NNRT_PLUGIN_DIR="$PWD/$dir/lib" NNRT_LOG=warning \
    "$dir/bin/fault_test" --gtest_brief=1 --gtest_filter="FaultFallback.*"
  # The same faults with every fault device in a driver host process, and the isolation suite (hosts
  # that crash, hang, abort at load, a soak of random kills); a killed host's state is not freed.
  echo "== fault_test, isolation_test: devices in driver hosts ($sanitizer sanitizer)"
  for config in fault_process_runtime:FaultTest fault_process_fallback_runtime:FaultFallback \
                isolation_runtime:-IsolationFallback isolation_fallback_runtime:IsolationFallback \
                isolation_doorbell_runtime:IsolationDoorbell; do
    yaml=${config%%:*} suite=${config#*:}
    test=fault_test; [[ $yaml == isolation* ]] && test=isolation_test
    ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" NNRT_CONFIG="$PWD/$dir/lib/$yaml.yaml" NNRT_PLUGIN_DIR="$PWD/$dir/lib" \
      NNRT_LOG=warning "$dir/bin/$test" --gtest_brief=1 --gtest_filter="$suite.*"
  done
  if [ "$sanitizer" = address ]; then
    echo "== model_builder_fuzz_test (address sanitizer: a fixed seed, then random seeds for 20 s)"
    NNRT_FUZZ_SECONDS=20 "$dir/bin/model_builder_fuzz_test" --gtest_brief=1
    # Every conformance case through the C API and the cpu device, in every execution mode, and with
    # its scalar parameters out of range: the kernels read and write only what they may.
    echo "== runtime_conformance_test (address sanitizer)"
    cmake --build "$dir" -j"$jobs" --target runtime_conformance_test
    NNRT_CONFIG="$PWD/$dir/tests/conformance/runtime_cpu.yaml" NNRT_PLUGIN_DIR="$PWD/$dir/lib" NNRT_LOG=error \
      "$dir/bin/runtime_conformance_test" --gtest_brief=1
  fi
done
echo "all tests passed"
