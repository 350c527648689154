#!/usr/bin/env bash
# ci/resource-spec.sh writes a CTest resource spec from nvidia-smi; with it, real ctest spreads
# GPU tests over the GPUs and harness/testing/ctest-gpu-env.sh hands each test its GPU. A fake nvidia-smi
# stands in for the driver.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_CTEST:=ctest}"
spec_sh=$KL_SOURCE_DIR/ci/resource-spec.sh
wrapper=$KL_SOURCE_DIR/harness/testing/ctest-gpu-env.sh

# fake_smi "LINES" [EXIT]: an nvidia-smi that prints LINES for the index query.
mkdir -p "$scratch/bin"
fake_smi() {
  printf '#!/bin/sh\nprintf "%s"\nexit %s\n' "$1" "${2:-0}" >"$scratch/bin/nvidia-smi"
  chmod +x "$scratch/bin/nvidia-smi"
}
spec() { env -u CUDA_VISIBLE_DEVICES PATH="$scratch/bin:$PATH" "$spec_sh" "$@"; }

fake_smi '0\n1\n2\n'
run_captured spec --slots 4
check "three GPUs: exit 0" equals "$status" 0
check "three GPUs: version 1.0" contains "$out" '"version": \{"major": 1, "minor": 0\}'
check "three GPUs: one gpus entry each, 4 slots" \
  equals "$(printf '%s\n' "$out" | grep -c '{"id": "[0-2]", "slots": 4}')" 3
check "three GPUs: ids in nvidia-smi order" \
  equals "$(printf '%s\n' "$out" | grep -o '"id": "[0-9]*"' | tr -d '"id: ' | tr '\n' ,)" "0,1,2,"

run_captured env CUDA_VISIBLE_DEVICES=2,0 PATH="$scratch/bin:$PATH" "$spec_sh" --slots 2
check "CUDA_VISIBLE_DEVICES=2,0 keeps GPUs 0 and 2 only" \
  equals "$(printf '%s\n' "$out" | grep -o '"id": "[0-9]*"' | tr -d '"id: ' | tr '\n' ,)" "0,2,"

run_captured env CUDA_VISIBLE_DEVICES=GPU-8a1b PATH="$scratch/bin:$PATH" "$spec_sh" --slots 2
check "a UUID in CUDA_VISIBLE_DEVICES is refused (exit 2)" equals "$status" 2

fake_smi ' 0\r\n 1\r\n'
run_captured spec --slots 1
check "spaces and carriage returns around indices are ignored" contains "$out" '"id": "1", "slots": 1'

mkdir -p "$scratch/build"
printf 'FOO:BOOL=ON\nKL_CTEST_GPU_SLOTS:STRING=6\n' >"$scratch/build/CMakeCache.txt"
run_captured spec --build-dir "$scratch/build" "$scratch/spec.json"
check "--build-dir reads KL_CTEST_GPU_SLOTS from CMakeCache.txt" \
  equals "$(grep -c '"slots": 6' "$scratch/spec.json")" 2
check "...and says what it wrote" contains "$out" "2 GPU\(s\) \[0,1\], 6 slots each"

run_captured spec --slots 0
check "zero slots refused (exit 2)" equals "$status" 2
run_captured spec --slots 007
check "a leading zero refused (exit 2): JSON has no 007" equals "$status" 2
run_captured spec --slots 100000
check "more than 9999 slots refused (exit 2)" equals "$status" 2
run_captured spec
check "no slot count: usage (exit 2)" equals "$status" 2
run_captured spec --build-dir "$scratch/nowhere"
check "a build dir without a cache: exit 2" equals "$status" 2

fake_smi 'No devices were found\n' 6
run_captured spec --slots 1
check "nvidia-smi failing: exit 1" equals "$status" 1
check "...with its message" contains "$out" "nvidia-smi failed: No devices were found"

fake_smi ''
run_captured spec --slots 1
check "no GPU listed: exit 1" equals "$status" 1

run_captured env -u CUDA_VISIBLE_DEVICES PATH=/usr/bin:/bin "$spec_sh" --slots 1
if ! PATH=/usr/bin:/bin command -v nvidia-smi >/dev/null; then
  check "no nvidia-smi at all: exit 1" equals "$status" 1
  check "...saying there is no driver" contains "$out" "nvidia-smi not found"
fi

# ---------------------------------------------------------------------------------------------
# End to end: real ctest with the generated spec, on tests shaped like kernel-lab's (two GPUs,
# two slots each; four ordinary tests and one whole-GPU RUN_SERIAL test).
fake_smi '0\n1\n'
spec --slots 2 "$scratch/gpus.json" 2>/dev/null
tests=$scratch/tests
mkdir -p "$tests"
cat >"$tests/record.sh" <<'REC'
#!/bin/sh
echo "$1 ${CUDA_VISIBLE_DEVICES-unset} ${CTEST_RESOURCE_GROUP_COUNT-none}" >>"$(dirname "$0")/record.txt"
sleep 1
REC
chmod +x "$tests/record.sh"
{
  for t in a b c d; do
    echo "add_test(gpu_$t \"$wrapper\" \"$tests/record.sh\" \"gpu_$t\")"
    echo "set_tests_properties(gpu_$t PROPERTIES RESOURCE_GROUPS \"gpus:1\")"
  done
  echo "add_test(perf_w \"$wrapper\" \"$tests/record.sh\" \"perf_w\")"
  echo "set_tests_properties(perf_w PROPERTIES RESOURCE_GROUPS \"gpus:2\" RUN_SERIAL TRUE)"
} >"$tests/CTestTestfile.cmake"

run_captured env -u CUDA_VISIBLE_DEVICES "$KL_CTEST" --test-dir "$tests" --resource-spec-file "$scratch/gpus.json" -j 4 -V
# CTest 4 prints "100% tests passed out of N" when nothing failed; CTest 3.25 adds ", 0 tests failed".
check "ctest accepts the spec and runs all five tests" contains "$out" "100% tests passed(, 0 tests failed)? out of 5"
record=$(sort "$tests/record.txt")
check "every test got exactly one GPU, 0 or 1" \
  equals "$(printf '%s\n' "$record" | awk '$2 !~ /^[01]$/ || $3 != 1')" ""
# With -j 4 the four ordinary tests start together and need all four slots: two on each GPU.
check "the four ordinary tests filled the two slots of each GPU" \
  equals "$(printf '%s\n' "$record" | awk '/^gpu_/ { print $2 }' | sort | uniq -c | awk '{ print $2 "x" $1 }' | tr '\n' ,)" "0x2,1x2,"
check "the whole-GPU test got one GPU to itself" contains "$record" "^perf_w [01] 1$"
check "the ctest log shows which GPU each test got" \
  equals "$(printf '%s\n' "$out" | grep -c 'kl-gpu: CUDA_VISIBLE_DEVICES=[01] (ctest resource group gpus id:[01],slots:[12])')" 5

rm -f "$tests/record.txt"
run_captured env CUDA_VISIBLE_DEVICES=7 "$KL_CTEST" --test-dir "$tests" -j 4
check "without a spec file the same tests pass" contains "$out" "100% tests passed"
check "...and every test keeps the caller's CUDA_VISIBLE_DEVICES" \
  equals "$(awk '{ print $2 $3 }' "$tests/record.txt" | sort -u)" "7none"

finish
