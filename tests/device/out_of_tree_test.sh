#!/usr/bin/env bash
# The vendor and application path against an *installed* nnrt, outside the source tree:
# 1. cmake --install the build tree into a scratch prefix;
# 2. build examples/out_of_tree_driver with find_package(nnrt) and nnrt_add_driver, and check that
#    the plugin exports the entry point alone;
# 3. the installed `nnrt` lists it (and the installed cpu plugin, found by a bare name) and runs a
#    RELU on it;
# 4. a C application built with `pkg-config --cflags --libs neuralnetworks` runs the RELU on it
#    through the C API, and examples/c/add_fib_add.c, built the same way, runs on the installed
#    default configuration (found from the installed library's own place);
# 5. a C application built with find_package(nnrt) and nnrt::onnx loads ONNX's test_relu model with
#    ANeuralNetworksNnrt_loadOnnxModel and runs it (when libonnx-testdata is installed).
set -euo pipefail
source_dir=$1
build_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

cmake --install "$build_dir" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name 'libneuralnetworks.so' | head -1)")
nnrt=$prefix/bin/nnrt

cmake -S "$source_dir/examples/out_of_tree_driver" -B "$work/driver" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/driver" >/dev/null
exports=$(nm -D --defined-only "$work/driver/libmy_relu_driver.so" | awk '$2 ~ /[TDBRVW]/ {print $3}')
[ "$exports" = nnrt_driver_get_api ] || { echo "FAIL: the plugin exports more than its entry point:"; echo "$exports" | head; exit 1; }

cat > "$work/runtime.yaml" <<YAML
version: 1
devices:
  - name: relu
    library: driver/libmy_relu_driver.so
  - name: cpu
    library: libnnrt_driver_cpu.so
    options: {fast: "off"}
  - name: ghost
    library: driver/libmissing.so
YAML
out=$(NNRT_CONFIG="$work/runtime.yaml" NNRT_LOG=error "$nnrt" devices)
echo "$out"
grep -q '^relu .*ACCELERATOR.*0\.0\.1' <<<"$out" || { echo "FAIL: the out-of-tree device is not listed"; exit 1; }
grep -q '^cpu .*CPU' <<<"$out" || { echo "FAIL: the installed cpu plugin was not found by its bare name"; exit 1; }
grep -q 'ghost .*libmissing.so: file not found' <<<"$out" || { echo "FAIL: the missing plugin is not named"; exit 1; }
cat > "$work/relu.yaml" <<YAML
version: 1
operands:
  - {name: x, type: TENSOR_FLOAT32, dims: [2, 3]}
  - {name: y, type: TENSOR_FLOAT32, dims: [2, 3]}
operations:
  - {type: RELU, inputs: [x], outputs: [y]}
inputs: [x]
outputs: [y]
YAML
out=$(NNRT_CONFIG="$work/runtime.yaml" NNRT_LOG=error "$nnrt" run "$work/relu.yaml" --device relu --input x=-1,2,-3,4.5,0,-0.5)
echo "$out"
grep -q '^output y: TENSOR_FLOAT32 \[2, 3\]: 0 2 0 4.5 0 0$' <<<"$out" || { echo "FAIL: RELU on the out-of-tree device"; exit 1; }
grep -q 'ran on: step 0 on relu' <<<"$out" || { echo "FAIL: the RELU did not run on the out-of-tree device"; exit 1; }

export PKG_CONFIG_PATH=$libdir/pkgconfig
cc "$source_dir/tests/device/relu_app.c" $(pkg-config --cflags --libs neuralnetworks) -o "$work/relu_app"
out=$(NNRT_CONFIG="$work/runtime.yaml" NNRT_LOG=error LD_LIBRARY_PATH="$libdir" "$work/relu_app" relu)
echo "$out"
[ "$out" = "relu on relu: 0 2 0 4.5 0 0" ] || { echo "FAIL: RELU through the C API on the out-of-tree device"; exit 1; }

cc "$source_dir/examples/c/add_fib_add.c" $(pkg-config --cflags --libs neuralnetworks) -o "$work/add_fib_add"
out=$(env -u NNRT_CONFIG NNRT_APP_ID=com.example.fibonacci_demo NNRT_LOG=error LD_LIBRARY_PATH="$libdir" "$work/add_fib_add")
echo "$out"
[ "$out" = "y = fib(x + 2) + offsets: 1.5 1.25 2 2.75 4.5 7 11 17" ] ||
  { echo "FAIL: the installed default configuration and plugins"; exit 1; }
relu_onnx=/usr/share/libonnx-testdata/data/node/test_relu/model.onnx
if [ -f "$relu_onnx" ]; then
  cmake -S "$source_dir/tests/device/onnx_app" -B "$work/onnx_app" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$work/onnx_app" >/dev/null
  out=$(env -u NNRT_CONFIG NNRT_LOG=error LD_LIBRARY_PATH="$libdir" "$work/onnx_app/onnx_app" "$relu_onnx")
  echo "$out"
  [ "$out" = "x -> y: sum 217.5" ] || { echo "FAIL: the installed ONNX front end (nnrt::onnx)"; exit 1; }
else
  echo "skipped the ONNX front end: $relu_onnx missing (install libonnx-testdata)"
fi
echo "PASS"
