#!/usr/bin/env bash
# expect_planted_finding.sh BINARY RUNS WORK_DIR CORPUS_DIR: the planted parser bug must be found.
# Runs the planted build of a target for at most RUNS inputs (fixed seed) from the seed corpus;
# passes only if libFuzzer stops on AddressSanitizer's report of the planted read, and says after
# how many executions.
set -u
binary=$1 runs=$2 work=$3 corpus=$4
rm -rf "$work" && mkdir -p "$work/corpus" "$work/findings"
cp "$corpus"/* "$work/corpus/"
output=$("$binary" -runs="$runs" -seed=1 -max_len=512 -timeout=10 -artifact_prefix="$work/findings/" "$work/corpus" 2>&1)
status=$?
if [ "$status" -eq 0 ]; then
  printf '%s\n' "$output" | tail -15
  echo "MISSED: $runs runs of $(basename "$binary") found nothing; the fuzzer no longer reaches the planted bug" >&2
  exit 1
fi
if ! printf '%s\n' "$output" | grep -E 'AddressSanitizer: heap-buffer-overflow' >/dev/null ||
   ! printf '%s\n' "$output" | grep -E 'planted_section_bug' >/dev/null; then
  printf '%s\n' "$output" | tail -40
  echo "the run failed, but not on the planted read (heap-buffer-overflow in planted_section_bug)" >&2
  exit 1
fi
found_after=$(printf '%s\n' "$output" | grep -Eo '^#[0-9]+' | tail -1 | tr -d '#')
echo "found: libFuzzer reported the planted heap-buffer-overflow in planted_section_bug after about ${found_after:-?} executions (bound $runs)"
ls "$work/findings"
