#!/usr/bin/env bash
# The main job: what nnrt is, in one run. Expects a build in ./build (see README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
nnrt=build/bin/nnrt

echo "== nnrt devices"
"$nnrt" devices
