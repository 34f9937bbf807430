#!/usr/bin/env bash
# Installs what nnrt needs on Debian 12, as root. Idempotent: when everything is present it only
# checks and returns (well under a second).
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libboost-dev                      # Boost headers: Asio, DLL, Graph
  libtbb-dev                        # oneTBB
  libopenblas-dev                   # OpenBLAS (cblas)
  libdnnl-dev                       # oneDNN: the cpu driver's fast layer
  libyaml-cpp-dev
  libfarmhash-dev                   # FarmHash Fingerprint64 (LSH_PROJECTION)
  libonnx-dev libprotobuf-dev       # the ONNX front end: ONNX's protobuf model classes
  libonnx-testdata                  # ONNX's backend node tests (onnx_node_test)
  libgtest-dev libgmock-dev
  libbenchmark-dev
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
