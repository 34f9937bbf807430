#!/usr/bin/env bash
# `nnrt run fibonacci.yaml --input n=10` prints 1 1 2 3 5 8 13 21 34 55 and exits 0 (NNRT_APP_ID is
# set by ctest); without NNRT_APP_ID the model file is refused and the command exits non-zero.
set -uo pipefail
nnrt=$1
model=$2
out=$("$nnrt" run "$model" --input n=10 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: nnrt run exited $rc"; exit 1; }
grep -q '^output fib: .* \[10\]: 1 1 2 3 5 8 13 21 34 55$' <<<"$out" || { echo "FAIL: wrong values"; exit 1; }
grep -q '^ran on: step 0 on fibonacci$' <<<"$out" || { echo "FAIL: wrong device"; exit 1; }

out=$(env -u NNRT_APP_ID "$nnrt" run "$model" --input n=10 2>&1)
rc=$?
echo "$out"
[ $rc -eq 1 ] || { echo "FAIL: without NNRT_APP_ID, nnrt run exited $rc (expected 1)"; exit 1; }
grep -q 'ANeuralNetworksModel_getExtensionOperandType returned ANEURALNETWORKS_BAD_DATA' <<<"$out" ||
  { echo "FAIL: the refusal is not explained"; exit 1; }
echo PASS
