#!/usr/bin/env bash
# ci/shard.sh splits a build's tests into shards (each test in exactly one, the perf tests
# together, balanced by earlier times or by stride, the same split every time) and
# ci/merge-reports.sh joins the shards' artifacts (counts add up; a failed or unfinished shard
# fails the merge). Real ctest runs stand-in tests; a stand-in kernel-lab draws the report.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_CTEST:=ctest}"
export KL_CTEST
shard_sh=$KL_SOURCE_DIR/ci/shard.sh
merge_sh=$KL_SOURCE_DIR/ci/merge-reports.sh

# A build with ten tests: kl.t.0 .. kl.t.7, and two perf tests (label perf) among them.
build=$scratch/build
mkdir -p "$build"
# shellcheck disable=SC2016  # the script's own variables, expanded when it runs
printf '#!/bin/sh\n[ -z "$FAIL" ] || [ "$FAIL" != "$1" ]\n' >"$build/t.sh"
chmod +x "$build/t.sh"
{
  for i in 0 1 2 3; do echo "add_test(kl.t.$i \"$build/t.sh\" kl.t.$i)"; done
  echo "add_test(kl.perf.a \"$build/t.sh\" kl.perf.a)"
  echo "set_tests_properties(kl.perf.a PROPERTIES LABELS \"gpu;perf\")"
  for i in 4 5 6; do echo "add_test(kl.t.$i \"$build/t.sh\" kl.t.$i)"; done
  echo "add_test(kl.perf.b \"$build/t.sh\" kl.perf.b)"
  echo "set_tests_properties(kl.perf.b PROPERTIES LABELS \"gpu;perf\")"
  echo "add_test(kl.t.7 \"$build/t.sh\" kl.t.7)"
} >"$build/CTestTestfile.cmake"

# split N [--times FILE]: every shard's lines, each prefixed with its shard number.
split() {
  local n=$1 i
  shift
  for ((i = 1; i <= n; i++)); do "$shard_sh" --build-dir "$build" "$@" "$i/$n" | sed "s/^/$i\t/"; done
}
every_test_once() {  # every_test_once SPLIT: each of the ten test numbers exactly once
  equals "$(printf '%s\n' "$1" | cut -f2 | sort -n | tr '\n' ' ')" "1 2 3 4 5 6 7 8 9 10 "
}
perf_together() {  # perf_together SPLIT: both perf tests in one shard
  equals "$(printf '%s\n' "$1" | grep -F 'kl.perf.' | cut -f1 | sort -u | wc -l | tr -d ' ')" 1
}

s3=$(split 3)
check "stride, 3 shards: every test in exactly one" every_test_once "$s3"
check "...the perf tests together" perf_together "$s3"
check "...the units dealt in turn (9 units: 3 each; the perf unit counts as one)" \
  equals "$(printf '%s\n' "$s3" | grep -v kl.perf | cut -f1 | sort | uniq -c | awk '{print $1}' | tr '\n' ' ')" "3 2 3 "
check "...the same split every time" equals "$(split 3)" "$s3"
check "one shard: everything" equals "$(split 1 | wc -l | tr -d ' ')" 10
check "more shards than units: every test once, some shards empty" every_test_once "$(split 12)"

# Times of an earlier run: kl.t.0 is long (11 s), the perf tests 4 s together, the rest 1 s;
# kl.t.7 is missing from the file and counts as the median (1 s).
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<testsuite name="x" tests="9" failures="0">'
  echo '<testcase name="kl.t.0" classname="kl.t.0" time="11" status="run">'
  for t in kl.t.1 kl.t.2 kl.t.3 kl.t.4 kl.t.5 kl.t.6; do echo "<testcase name=\"$t\" classname=\"$t\" time=\"1\" status=\"run\">"; done
  echo '<testcase name="kl.perf.a" classname="kl.perf.a" time="3" status="run">'
  echo '<testcase name="kl.perf.b" classname="kl.perf.b" time="1" status="run">'
  echo '</testsuite>'
} >"$scratch/times.xml"
t2=$(split 2 --times "$scratch/times.xml")
check "balanced by time: every test in exactly one shard" every_test_once "$t2"
check "...the perf tests together" perf_together "$t2"
check "...kl.t.0 (11 s) alone against everything else (4 s of perf + 7 x 1 s)" \
  equals "$(printf '%s\n' "$t2" | awk -F '\t' '$1 == 1 {print $3}' | tr '\n' ' ')" "kl.t.0 "
check "...the same split every time" equals "$(split 2 --times "$scratch/times.xml")" "$t2"

for bad in 0/2 3/2 x 1/0; do
  run_captured "$shard_sh" --build-dir "$build" "$bad"
  check "shard '$bad': exit 2" equals "$status" 2
done
run_captured "$shard_sh" --build-dir "$scratch/none" 1/2
check "no build directory: exit 2" equals "$status" 2
run_captured "$shard_sh" --build-dir "$build" --times "$scratch/none.xml" 1/2
check "an unreadable times file: exit 2" equals "$status" 2

# ---------------------------------------------------------------------------------------------
# Two shards run with ctest -I (as ci/gpu.sh --shard does), then merged.
# run_shard I N DIR [FAIL=test]: the shard's tests, JUnit and log in DIR, as ci/gpu.sh writes them.
run_shard() {
  local i=$1 n=$2 dir=$3 fail=${4:-}
  mkdir -p "$dir"
  "$shard_sh" --build-dir "$build" "$i/$n" >"$dir/shard-tests.tsv"
  echo "$i/$n" >"$dir/shard.txt"
  (cd "$build" && FAIL=$fail "$KL_CTEST" -I "0,0,0,$(cut -f1 "$dir/shard-tests.tsv" | paste -sd, -)" \
    --output-junit "$dir/junit-gpu.xml" >"$dir/ctest-gpu.log" 2>&1) || true
}
run_shard 1 2 "$scratch/s1"
run_shard 2 2 "$scratch/s2"
mkdir -p "$scratch/s1/perf/round-1"
cp "$KL_SOURCE_DIR/tests/fixtures/bench-report.json" "$scratch/s1/perf/round-1/all.json"
# shellcheck disable=SC2016  # the script's own variables, expanded when it runs
printf '#!/bin/sh\n[ "$1" = report ] || exit 2\nwhile [ $# -gt 0 ]; do [ "$1" = --html ] && echo "<html/>" >"$2"; shift; done\n' \
  >"$scratch/kernel-lab"
chmod +x "$scratch/kernel-lab"

: >"$scratch/step.md"
run_captured env KL_PROGRAM="$scratch/kernel-lab" GITHUB_STEP_SUMMARY="$scratch/step.md" "$merge_sh" "$scratch/merged" "$scratch/s1" "$scratch/s2"
check "two passing shards: exit 0" equals "$status" 0 || printf '%s\n' "$out" >&2
check "...the counts add up to the unsharded ten" contains "$out" '^\*\*100% tests passed, 0 tests failed out of 10\*\*$'
check "...one row per shard" contains "$out" '^\| 1/2 \| [0-9]+ \| 0 \|$'
check "...one JUnit file holding every test" equals "$(grep -c '<testcase ' "$scratch/merged/junit-gpu.xml")" 10
check "...which parses as XML" python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" "$scratch/merged/junit-gpu.xml"
check "...both shards' logs" equals "$(grep -c '^== shard' "$scratch/merged/ctest-gpu.log")" 2
check "...the perf JSON drawn" test -s "$scratch/merged/report.html"
check "...the summary on the job page" equals "$(cat "$scratch/step.md")" "$(cat "$scratch/merged/summary.md")"

failing=$(cut -f2 "$scratch/s2/shard-tests.tsv" | head -n 1)
run_shard 2 2 "$scratch/s2" "$failing"
run_captured env KL_PROGRAM="$scratch/kernel-lab" "$merge_sh" "$scratch/merged" "$scratch/s1" "$scratch/s2"
check "a failed test in a shard fails the merge: exit 1" equals "$status" 1
check "...counted" contains "$out" '^\*\*90% tests passed, 1 tests failed out of 10\*\*$'
check "...and named with its shard" contains "$out" "^- \`$failing\` \(shard 2/2\)$"

rm "$scratch/s2/junit-gpu.xml"
run_captured env KL_PROGRAM="$scratch/kernel-lab" "$merge_sh" "$scratch/merged" "$scratch/s1" "$scratch/s2"
check "a shard that did not finish fails the merge: exit 1" equals "$status" 1
check "...saying which" contains "$out" "shard 2/2 did not finish: no junit-gpu.xml"

run_shard 2 2 "$scratch/s2"
run_captured env KL_PROGRAM=/bin/false "$merge_sh" "$scratch/merged" "$scratch/s1" "$scratch/s2"
check "a report that cannot be drawn fails the merge: exit 1" equals "$status" 1
check "...saying so" contains "$out" "the HTML report could not be drawn"

run_captured "$merge_sh" "$scratch/merged"
check "no shard named: exit 2" equals "$status" 2
run_captured "$merge_sh" "$scratch/merged" "$scratch/none"
check "a shard directory that does not exist: exit 2" equals "$status" 2

finish
