#!/usr/bin/env bash
# ci/merge-reports.sh OUT SHARD_DIR...
#
# Joins the artifacts of a GPU tier run as shards (`ci/gpu.sh --shard I/N`, one directory each)
# into OUT: junit-gpu.xml (every shard's test suite), ctest-gpu.log (the shards' logs one after the
# other), report.html and charts/ (the perf JSON of every shard, `kernel-lab report`; KL_PROGRAM
# names the kernel-lab, default build/gpu/bench/kernel-lab) and summary.md, whose result line adds
# the shards up ("P% tests passed, F tests failed out of T"); appended to $GITHUB_STEP_SUMMARY
# when set.
# Exit status: 0 every shard ran and every test passed; 1 a test failed, a shard did not finish
# (no JUnit file or no result line) or the report could not be drawn; 2 bad arguments.
set -euo pipefail

say() { printf 'ci/merge-reports.sh: %s\n' "$*" >&2; }
[ "$#" -ge 2 ] || { sed -n '2p' "${BASH_SOURCE[0]}" | sed 's/^# /usage: /' >&2; exit 2; }
out=$1
shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
program=${KL_PROGRAM:-$root/build/gpu/bench/kernel-lab}
for dir in "$@"; do
  [ -d "$dir" ] || { say "no shard directory '$dir'"; exit 2; }
done
mkdir -p "$out"
rm -rf "$out/junit-gpu.xml" "$out/ctest-gpu.log" "$out/report.html" "$out/charts" "$out/summary.md"

# attribute NAME TAG: NAME's value in the first TAG (e.g. tests in <testsuite ...>) of stdin,
# whose attributes CTest writes one a line.
attribute() { tr '\n\t' '  ' | grep -o "<$2 [^>]*>" | head -n 1 | sed -n "s/.* $1=\"\\([0-9]*\\)\".*/\\1/p"; }

total=0 failed=0 status=0
problems=() failures=() rows=()
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<testsuites>'
} >"$out/junit-gpu.xml"
for dir in "$@"; do
  name=$(cat "$dir/shard.txt" 2>/dev/null || basename "$dir")
  junit=$dir/junit-gpu.xml
  log=$dir/ctest-gpu.log
  if [ ! -s "$junit" ]; then
    problems+=("shard $name did not finish: no junit-gpu.xml in $dir")
    status=1
    continue
  fi
  tests=$(attribute tests testsuite <"$junit")
  fails=$(attribute failures testsuite <"$junit")
  if [ -z "$tests" ] || [ -z "$fails" ]; then
    problems+=("shard $name: $junit has no <testsuite tests=... failures=...>")
    status=1
    continue
  fi
  if ! grep -Eq '^[0-9]+% tests passed' "$log" 2>/dev/null; then
    problems+=("shard $name did not finish: no ctest result line in $log")
    status=1
  fi
  total=$((total + tests))
  failed=$((failed + fails))
  rows+=("| $name | $tests | $fails |")
  # Every testcase element of the shard's suite goes into the merged file as it is.
  sed -n '/<testsuite[ >]/,/<\/testsuite>/p' "$junit" >>"$out/junit-gpu.xml"
  while IFS= read -r test; do failures+=("$test ($name)"); done < <(
    grep -o '<testcase [^>]*status="fail"[^>]*>' "$junit" | sed -n 's/.* name="\([^"]*\)".*/\1/p')
  { echo "== shard $name ($dir)"; cat "$log" 2>/dev/null || echo "(no ctest-gpu.log)"; } >>"$out/ctest-gpu.log"
done
echo '</testsuites>' >>"$out/junit-gpu.xml"
[ "$failed" -eq 0 ] || status=1

report_line="no perf JSON in any shard, so no HTML report"
jsons=()
for dir in "$@"; do
  for json in "$dir"/perf/round-1/*.json; do [ -e "$json" ] && jsons+=("$json"); done
done
if [ "${#jsons[@]}" -gt 0 ]; then
  if "$program" report "${jsons[@]}" --html "$out/report.html" --svg "$out/charts" >"$out/report.log" 2>&1; then
    # shellcheck disable=SC2016  # the backquotes are Markdown
    report_line='HTML report: `report.html` (roofline, ladders, gates; each chart also in `charts/`)'
  else
    report_line="**the HTML report could not be drawn**: see report.log"
    status=1
  fi
fi

passed=$((total - failed))
percent=$(( total > 0 ? (200 * passed + total) / (2 * total) : 0 ))
{
  echo "## kernel-lab GPU tier, $# shards merged"
  echo
  echo "**${percent}% tests passed, $failed tests failed out of $total**"
  echo
  echo "| shard | tests | failed |"
  echo "| --- | --- | --- |"
  printf '%s\n' "${rows[@]+"${rows[@]}"}"
  echo
  echo "- $report_line"
  for p in "${problems[@]+"${problems[@]}"}"; do echo "- **$p**"; done
  if [ "${#failures[@]}" -gt 0 ]; then
    echo
    echo "### Failed tests"
    echo
    for f in "${failures[@]}"; do echo "- \`${f% (*}\` (shard ${f##* (}"; done
  fi
} >"$out/summary.md"
[ -z "${GITHUB_STEP_SUMMARY:-}" ] || cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"
cat "$out/summary.md"
exit "$status"
