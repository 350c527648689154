#!/usr/bin/env bash
# run_fuzzer.sh BINARY SECONDS WORK_DIR CORPUS_DIR...: one libFuzzer target for SECONDS. It first
# replays every input of the corpus directories (the seeds and the regression inputs), then
# mutates them; new inputs go to WORK_DIR/corpus (the nightly run keeps it as an artifact), a
# finding to WORK_DIR/findings/. Passes when nothing was found; prints the executions either way.
set -u
binary=$1 seconds=$2 work=$3
shift 3
mkdir -p "$work/corpus" "$work/findings"
log=$work/fuzz.log
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
  -artifact_prefix="$work/findings/" "$work/corpus" "$@" >"$log" 2>&1
status=$?
executions=$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)
[ -n "$executions" ] || executions=$(grep -Eo '^#[0-9]+' "$log" | tail -1 | tr -d '#')
echo "$(basename "$binary"): ${executions:-?} executions in ${seconds} s, exit $status"
if [ "$status" -ne 0 ]; then
  tail -60 "$log"
  echo "FINDING: the input is in $work/findings/; reproduce with $binary <file>, fix the bug, and add" \
    "the input to tests/fuzz/regressions/ (the host tier then replays it)" >&2
  exit 1
fi
grep -E '^(Done|INFO: -max_total_time)|stat::' "$log" | tail -8
