#!/usr/bin/env bash
# `kernel-lab bench` reads every reference it measured once more before the gates and the report
# (harness/core/reference_readings.hpp): one slow reading of a library would make every ratio
# read against it too high. On reduction, read against CUB:
#  - reduction.warp_shuffle alone: the log names CUB's readings; the report gives CUB's case and
#    two or three readings, the ceiling is the fastest of them, and the rung is read against it;
#  - reduction.cub_sum alone (the reference measured as a case first): its own row becomes its
#    fastest reading, the ceiling's value.
# The log prints the rung's ratio when it measures it, before CUB is read again; the last
# percentage it prints for the rung (its case line, or the "now" line a faster reading of CUB
# adds) must be the report's.
# A bench that read a reference once would have one reading (or none) and fail the checks on
# readings; one that kept the readings but did not read the results against the fastest would
# fail the ceiling_value and row checks; one that left the case line's percentage standing after a
# faster reading would fail the last check.
# shellcheck source=tests/ci/lib.sh
. "$KL_SOURCE_DIR/tests/ci/lib.sh"
: "${KL_PROGRAM:?the kernel-lab to run}"
command -v python3 >/dev/null || { echo "python3 not found: it reads the bench's JSON" >&2; exit 1; }

# The report's facts about CUB's float ceiling and result KEY, as lines the checks below match.
facts() {
  python3 - "$1" "$2" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
cub = next(c for c in report["ceilings"] if c["name"] == "cub_sum.float")
row = next(r for r in report["results"] if r["key"] == sys.argv[2])
print("reference", cub["reference"])
print("readings", len(cub["readings"]))
print("ceiling is the fastest reading", cub["value"] == max(cub["readings"]))
print("row read against it", row["ceiling"] == "cub_sum.float" and row["ceiling_value"] == cub["value"])
print("row is the fastest reading", row["value"] == cub["value"])
PY
}

run_captured "$KL_PROGRAM" bench --family reduction --variant warp_shuffle --reps 3 --json "$scratch/rung.json"
printf '%s\n' "$out"
check "the rung's bench exits 0" equals "$status" 0
check "the log names CUB's readings" contains "$out" \
  '^reference cub_sum\.float read again: [0-9.]+ GB/s, the fastest of [0-9.]+(, [0-9.]+)? and [0-9.]+'
rung=$(facts "$scratch/rung.json" reduction.warp_shuffle.float)
printf '%s\n' "$rung"
check "the report names CUB's case" contains "$rung" '^reference reduction\.cub_sum\.float$'
check "with two readings or three" contains "$rung" '^readings [23]$'
check "the ceiling is the fastest" contains "$rung" '^ceiling is the fastest reading True$'
check "the rung is read against it" contains "$rung" '^row read against it True$'
printf '%s\n' "$out" > "$scratch/rung.log"
last_printed=$(python3 - "$scratch/rung.json" "$scratch/rung.log" <<'PY2'
import json, math, re, sys
ratio = next(r for r in json.load(open(sys.argv[1]))["results"] if r["key"] == "reduction.warp_shuffle.float")["ratio"]
shown = [float(m.group(1)) for m in re.finditer(
    r"^\s*(?:now )?reduction\.warp_shuffle\.float: (?:.* )?([0-9.]+)% of cub_sum\.float", open(sys.argv[2]).read(), re.M)]
want = 100 * ratio
half_digit = 0.5 * 10 ** (math.floor(math.log10(want)) - 2)
print("last printed matches", bool(shown) and abs(shown[-1] - want) <= half_digit * 1.0001)
PY2
)
check "the log's last percentage for the rung is the report's" contains "$last_printed" '^last printed matches True$'

run_captured "$KL_PROGRAM" bench --family reduction --variant cub_sum --reps 3 --json "$scratch/cub.json"
check "the reference's bench exits 0" equals "$status" 0
cub=$(facts "$scratch/cub.json" reduction.cub_sum.float)
printf '%s\n' "$cub"
check "CUB measured as a case is read again" contains "$cub" '^readings [23]$'
check "its row is its fastest reading" contains "$cub" '^row is the fastest reading True$'
finish
