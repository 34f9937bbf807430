#!/usr/bin/env bash
# Builds examples/out_of_tree_driver against a copy of include/nnrt/driver/ alone (no other nnrt
# header is reachable, the SDK's operation library built from the copy), then checks that
# `nnrt devices` loads it and lists its device and that `nnrt run` runs a RELU on it.
set -euo pipefail
source_dir=$1
nnrt=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/include/nnrt"
cp -r "$source_dir/include/nnrt/driver" "$work/include/nnrt/"
cmake -S "$source_dir/examples/out_of_tree_driver" -B "$work/build" -DNNRT_DRIVER_INCLUDE_DIR="$work/include" >/dev/null
cmake --build "$work/build" >/dev/null
cat > "$work/runtime.yaml" <<YAML
version: 1
devices:
  - name: relu
    library: build/libmy_relu_driver.so
  - name: ghost
    library: build/libmissing.so
YAML
out=$(NNRT_CONFIG="$work/runtime.yaml" NNRT_LOG=error "$nnrt" devices)
echo "$out"
grep -q '^relu .*ACCELERATOR.*0\.0\.1' <<<"$out" || { echo "FAIL: the out-of-tree device is not listed"; exit 1; }
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
out=$(NNRT_CONFIG="$work/runtime.yaml" NNRT_LOG=error "$nnrt" run "$work/relu.yaml" --input x=-1,2,-3,4.5,0,-0.5)
echo "$out"
grep -q '^output y: TENSOR_FLOAT32 \[2, 3\]: 0 2 0 4.5 0 0$' <<<"$out" || { echo "FAIL: RELU on the out-of-tree device"; exit 1; }
grep -q 'ran on: step 0 on relu' <<<"$out" || { echo "FAIL: the RELU did not run on the out-of-tree device"; exit 1; }
echo "PASS"
