#!/usr/bin/env bash
# The main job: what nnrt is, in one run. Expects a build in ./build (see README.md); set
# NNRT_BUILD_DIR to use another build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
nnrt=${NNRT_BUILD_DIR:-build}/bin/nnrt
models=examples/models
# An application id from configs/allowlist.txt: this program may use the Fibonacci extension.
export NNRT_APP_ID=com.example.fibonacci_demo
export NNRT_LOG=${NNRT_LOG:-error}

show() {
  printf '\n== nnrt %s\n' "$*"
  "$nnrt" "$@"
}

show devices

# Standard operations around a vendor extension operation: three steps over two devices.
show plan $models/add_fib_add.yaml
show run $models/add_fib_add.yaml --input x=6

# The same pipeline as a C program written against <android/NeuralNetworks.h> only.
printf '\n== examples/c/add_fib_add.c\n'
"${NNRT_BUILD_DIR:-build}/bin/add_fib_add"

# A small MLP (weights inline) and CNN (weights in cnn.bin) on the reference CPU.
show run $models/mlp.yaml --device cpu --input x=1,0,0,1,0.5,0.5,-1,2 --repeat 20
show run $models/cnn.yaml --device cpu --repeat 20 --explain

# One model across all three devices: cpu, the Fibonacci accelerator, and the OpenCL device,
# which gets FULLY_CONNECTED through a policy pin (configs/demo.yaml) even though it costs more.
devices=$("$nnrt" devices --json)
if grep -q '"name": "opencl' <<<"$devices"; then
  NNRT_CONFIG=configs/demo.yaml show run $models/pipeline.yaml --input x=6 --explain
  show run $models/mlp.yaml --device opencl --input x=1,0,0,1,0.5,0.5,-1,2
else
  echo; echo "(no opencl device: 'nnrt devices' lists it under skipped, with the reason)"
  show run $models/pipeline.yaml --input x=6
fi

# The vendor extension alone, on its own device.
show run $models/fibonacci.yaml --device fibonacci --input n=10
