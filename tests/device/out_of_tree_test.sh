#!/usr/bin/env bash
# Builds examples/out_of_tree_driver against a copy of include/nnrt/driver/ alone (no other nnrt
# header is reachable), then checks that `nnrt devices` loads it and lists its device.
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
echo "PASS"
