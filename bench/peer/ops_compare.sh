#!/bin/bash
# nnrt's cpu plugin against ONNX Runtime on the single-operator models of bench/peer/ops_pair.py (written to
# /tmp/peer/ops), 100 runs each, 2 threads, medians; one line per operator with the ratio nnrt / ONNX Runtime.
# ONNX Runtime's time for a one-operator model includes its own copies of large inputs and outputs, so a ratio
# far below 1 says little; one above 1 points at a slow kernel. Run from the repository root after building.
set -euo pipefail
dir=/tmp/peer/ops
while read -r name dims; do
  o=$(node /tmp/ortnode/ort_run.js "$dir/$name.onnx" "$dir/$name.f32" "$dims" 100 2 | sed 's/.*median \([0-9.]*\) us.*/\1/')
  n=$(build/bin/nnrt run "$dir/$name.onnx" --device cpu --input "x=$dir/$name.f32" --repeat 100 2>&1 | grep timing |
      sed 's/.*wall \([0-9.]*\) \([mu]s\).*/\1 \2/' | awk '{ print ($2 == "ms") ? $1 * 1000 : $1 }')
  echo "$name ort_us $o nnrt_us $n ratio $(awk -v a="$n" -v b="$o" 'BEGIN { printf "%.2f", a / b }')"
done < "$dir/ops.txt"
