#!/usr/bin/env bash
# harness/testing/ctest-gpu-env.sh maps ctest's GPU allocation to CUDA_VISIBLE_DEVICES, and changes nothing
# when ctest allocated nothing.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
wrapper=$KL_SOURCE_DIR/harness/testing/ctest-gpu-env.sh

# A stand-in test: prints what the CUDA runtime would see, then exits with its first argument.
cat >"$scratch/stub.sh" <<'STUB'
#!/bin/sh
echo "seen CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-<unset>} CUDA_DEVICE_ORDER=${CUDA_DEVICE_ORDER-<unset>} args=$*"
exit "${1:-0}"
STUB
chmod +x "$scratch/stub.sh"
stub=$scratch/stub.sh

# Runs the wrapper with a clean ctest environment plus the given assignments.
wrap() {
  env -u CTEST_RESOURCE_GROUP_COUNT -u CTEST_RESOURCE_GROUP_0 -u CTEST_RESOURCE_GROUP_0_GPUS \
      -u CTEST_RESOURCE_GROUP_1 -u CTEST_RESOURCE_GROUP_1_GPUS -u CUDA_DEVICE_ORDER "$@"
}

run_captured wrap CUDA_VISIBLE_DEVICES=5 "$wrapper" "$stub" 0 a b
check "no allocation: CUDA_VISIBLE_DEVICES untouched" contains "$out" "seen CUDA_VISIBLE_DEVICES=5 CUDA_DEVICE_ORDER=<unset> args=0 a b"
check "no allocation: no note printed" lacks "$out" "kl-gpu:"
check "no allocation: exit 0" equals "$status" 0

run_captured wrap -u CUDA_VISIBLE_DEVICES "$wrapper" "$stub" 0
check "no allocation and no CUDA_VISIBLE_DEVICES: still unset" contains "$out" "seen CUDA_VISIBLE_DEVICES=<unset>"

run_captured wrap CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=gpus \
  CTEST_RESOURCE_GROUP_0_GPUS=id:1,slots:1 KL_CTEST_NAME=kl.demo.unit CUDA_VISIBLE_DEVICES=0,1 \
  "$wrapper" "$stub" 0
check "one slot of GPU 1 -> CUDA_VISIBLE_DEVICES=1 in PCI order" \
  contains "$out" "seen CUDA_VISIBLE_DEVICES=1 CUDA_DEVICE_ORDER=PCI_BUS_ID"
check "the note names the test and its GPU" \
  contains "$out" "^kl-gpu: kl\.demo\.unit: CUDA_VISIBLE_DEVICES=1 \(ctest resource group gpus id:1,slots:1\)$"

run_captured wrap CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=gpus \
  CTEST_RESOURCE_GROUP_0_GPUS=id:3,slots:8 "$wrapper" "$stub" 0
check "a whole GPU (all 8 slots of GPU 3) -> CUDA_VISIBLE_DEVICES=3" contains "$out" "seen CUDA_VISIBLE_DEVICES=3 "

run_captured wrap CTEST_RESOURCE_GROUP_COUNT=2 CTEST_RESOURCE_GROUP_0=gpus CTEST_RESOURCE_GROUP_1=gpus \
  "CTEST_RESOURCE_GROUP_0_GPUS=id:2,slots:1" "CTEST_RESOURCE_GROUP_1_GPUS=id:0,slots:1;id:2,slots:1" \
  "$wrapper" "$stub" 0
check "two groups -> their GPUs in group order, each once" contains "$out" "seen CUDA_VISIBLE_DEVICES=2,0 "

run_captured wrap CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=gpus \
  CTEST_RESOURCE_GROUP_0_GPUS=id:0,slots:1 "$wrapper" "$stub" 7
check "the test's exit status passes through" equals "$status" 7

run_captured wrap CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=crypto_chips CUDA_VISIBLE_DEVICES=4 \
  "$wrapper" "$stub" 0
check "groups without gpus: CUDA_VISIBLE_DEVICES untouched" contains "$out" "seen CUDA_VISIBLE_DEVICES=4 "
check "groups without gpus: says so" contains "$out" "kl-gpu: ctest allocated no gpus"

run_captured wrap CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=gpus \
  CTEST_RESOURCE_GROUP_0_GPUS=gpu0 "$wrapper" "$stub" 0
check "a malformed allocation fails loudly (exit 2)" equals "$status" 2
check "...and says what it could not read" contains "$out" "cannot read CTEST_RESOURCE_GROUP_0_GPUS='gpu0'"
check "...without running the test" lacks "$out" "seen CUDA"

run_captured wrap CTEST_RESOURCE_GROUP_COUNT=x "$wrapper" "$stub" 0
check "a non-numeric group count fails (exit 2)" equals "$status" 2
# A count no test asks for: one past the shell's integers, and one that would loop for minutes.
for huge in 99999999999999999999 100000000; do
  run_captured wrap CTEST_RESOURCE_GROUP_COUNT=$huge "$wrapper" "$stub" 0
  check "a group count of $huge fails (exit 2)" equals "$status" 2
  check "...naming the count" contains "$out" "CTEST_RESOURCE_GROUP_COUNT='$huge' is more resource groups"
done

run_captured wrap CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=gpus \
  "CTEST_RESOURCE_GROUP_0_GPUS=id:0,slots:1;\$(touch $scratch/injected),slots:1" "$wrapper" "$stub" 0
check "an allocation string is never evaluated" test ! -e "$scratch/injected"

run_captured "$wrapper"
check "no command: usage, exit 2" equals "$status" 2

finish
