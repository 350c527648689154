#!/usr/bin/env bash
# ci/perf-compare.sh: the comparison rule on given TSV files (--compare-tsv), and the whole run
# (worktrees, builds, ABBA rounds, cleanup) on a throwaway repository whose "kernel-lab" is a
# script with known timings, under a fake nvidia-smi.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
compare_sh=$KL_SOURCE_DIR/ci/perf-compare.sh

# tsv FILE "variant metric value median" ...: one line per argument (min/max = median -+1%).
tsv() {
  local file=$1 line
  shift
  : >"$file"
  for line in "$@"; do
    # shellcheck disable=SC2086  # the fields are split on purpose
    set -- $line
    awk -v v="$1" -v m="$2" -v val="$3" -v t="$4" \
      'BEGIN { printf "%s\t%s\t%s\t%s\t%.6g\t%.6g\n", v, m, val, t, t * 0.99, t * 1.01 }' >>"$file"
  done
}
cmp_tsv() { run_captured "$compare_sh" "$@" --compare-tsv "$scratch/base.tsv" "$scratch/head.tsv"; }
row() { printf '%s\n' "$out" | grep -E "^\| $1 \|" || true; }

tsv "$scratch/base.tsv" "add GB/s 1000 1.00" "add GB/s 1000 1.01" "add GB/s 1000 0.99"
tsv "$scratch/head.tsv" "add GB/s 1000 1.00" "add GB/s 1000 1.00" "add GB/s 1000 1.01"
cmp_tsv
check "same times: exit 0" equals "$status" 0
check "same times: within noise" contains "$(row add)" "within noise"
check "the rule is printed with the table" contains "$out" "^Rule: .*max\(5%, 2 x the larger noise\)"
check "the table has the promised columns" \
  contains "$out" "^\| variant \| metric \| base value \| head value \| base ms \| head ms \| time change \| bound \| verdict \|$"

tsv "$scratch/head.tsv" "add GB/s 960 1.04" "add GB/s 960 1.04" "add GB/s 960 1.04"
cmp_tsv
check "4% slower, under the 5% floor: exit 0" equals "$status" 0
check "...reported as +4.0%" contains "$(row add)" "\| \+4\.0% \| \+-5\.0% \| within noise \|"

tsv "$scratch/head.tsv" "add GB/s 900 1.10" "add GB/s 900 1.11" "add GB/s 900 1.10"
cmp_tsv
check "10% slower with 2% noise: exit 1" equals "$status" 1
check "...marked REGRESSION" contains "$(row add)" "REGRESSION"
check "...and counted" contains "$out" "1 regression\(s\) beyond noise"

tsv "$scratch/base.tsv" "add GB/s 1000 1.00" "add GB/s 1000 1.08" "add GB/s 1000 0.96"
cmp_tsv
check "10% slower but the base rounds spread 12%: the bound is 24%, exit 0" equals "$status" 0
check "...bound shown" contains "$(row add)" "\+-2[34]\.[0-9]% \| within noise"

tsv "$scratch/base.tsv" "add GB/s 1000 1.00"
tsv "$scratch/head.tsv" "add GB/s 1250 0.80"
cmp_tsv
check "20% faster: exit 0, marked faster" equals "$status/$(row add | grep -c faster)" "0/1"

tsv "$scratch/head.tsv" "add GB/s 960 1.04"
cmp_tsv --min-change 2
check "--min-change 2: 4% slower is a regression" equals "$status" 1
cmp_tsv --min-change 2 --chart "$scratch/compare.svg"
check "--chart: the chart is drawn" contains "$(cat "$scratch/compare.svg" 2>/dev/null)" '<rect class="change" data-key="add" data-verdict="\*\*REGRESSION\*\*"'
check "...and named under the table" contains "$out" "^Chart: $scratch/compare.svg$"

tsv "$scratch/base.tsv" "a x 1 1.0" "a x 1 3.0" "a x 1 1.2" "a x 1 1.4"
tsv "$scratch/head.tsv" "a x 1 1.3"
cmp_tsv
check "median of an even number of rounds is the mean of the middle two (1.3)" contains "$(row a)" "\| 1\.3 \| 1\.3 \| \+0\.0% \|"

tsv "$scratch/base.tsv" "gone x 1 1.0" "both x 1 1.0"
tsv "$scratch/head.tsv" "both x 1 1.0" "fresh x 1 9.0"
cmp_tsv
check "rows on one side only: listed, exit 0" equals "$status" 0
check "...only in base" contains "$(row gone)" "only in base"
check "...new in head" contains "$(row fresh)" "new in head"

printf 'add\tGB/s\tnull\t1.0\t1.0\t1.0\nbad\tGB/s\tnull\tnull\tnull\tnull\n' >"$scratch/base.tsv"
printf 'add\tGB/s\t9\t1.0\t1.0\t1.0\nbad\tGB/s\tnull\tnull\tnull\tnull\n' >"$scratch/head.tsv"
cmp_tsv
check "null (unmeasured) figures: exit 0" equals "$status" 0
check "...a null value shows as -" contains "$(row add)" "^\| add \| GB/s \| - \| 9 \| 1 \| 1 \| \+0\.0% "
check "...a row without a time is listed, not compared" contains "$(row bad)" "no time measured"

{ printf 'variant\tmetric\tvalue\tmedian_ms\tmin_ms\tmax_ms\n'; printf 'add\tGB/s\t1\t1.0\t1.0\t1.0\n'; } >"$scratch/base.tsv"
printf 'add\tGB/s\t1\t1.0\t1.0\t1.0\n\n' >"$scratch/head.tsv"
cmp_tsv
check "a header line and blank lines are accepted" equals "$status" 0

printf 'add\tGB/s\t1\t1.0\t1.0\n' >"$scratch/head.tsv"
cmp_tsv
check "five fields: exit 2" equals "$status" 2
check "...naming the file and line" contains "$out" "head\.tsv:1: expected variant, metric, value, median_ms, min_ms, max_ms"
printf 'add\tGB/s\t1\tfast\t1.0\t1.0\n' >"$scratch/head.tsv"
cmp_tsv
check "a non-numeric time: exit 2" equals "$status" 2
printf 'add\tGB/s\t1\t0\t0\t0\n' >"$scratch/head.tsv"
cmp_tsv
check "a zero time: exit 2" equals "$status" 2
: >"$scratch/base.tsv"
: >"$scratch/head.tsv"
cmp_tsv
check "no results at all: exit 2" equals "$status" 2
run_captured "$compare_sh" --compare-tsv "$scratch/base.tsv" "$scratch/missing.tsv"
check "a missing file: exit 2" equals "$status" 2
check "...named by kernel-lab compare" contains "$out" "cannot read bench TSV '$scratch/missing.tsv': no such file"
run_captured env -u KL_COMPARE_PROGRAM PATH=/usr/bin:/bin "$compare_sh" --compare-tsv "$scratch/base.tsv" "$scratch/head.tsv"
check "no kernel-lab to compare with: exit 2" equals "$status" 2
check "...saying how to name one" contains "$out" "set KL_COMPARE_PROGRAM=path/to/kernel-lab"
run_captured "$compare_sh" --compare-tsv "$scratch/base.tsv"
check "one argument: usage, exit 2" equals "$status/$(printf '%s\n' "$out" | grep -c '^usage:')" "2/2"
run_captured "$compare_sh" --rounds zero HEAD HEAD
check "--rounds zero: exit 2" equals "$status" 2
run_captured "$compare_sh" --bogus a b
check "an unknown option: exit 2" equals "$status" 2

# ---------------------------------------------------------------------------------------------
# The whole run on a throwaway repository.
repo=$scratch/repo
mkdir -p "$repo" "$scratch/bin"
cat >"$scratch/bin/nvidia-smi" <<'SMI'
#!/bin/sh
case "$*" in
  *compute_cap*) echo "9.0" ;;
  *name*) echo "Fake GPU" ;;
  *index*) printf '0\n1\n' ;;
esac
SMI
chmod +x "$scratch/bin/nvidia-smi"
git_() { git -C "$repo" -c user.name=kl-test -c user.email=kl-test@localhost -c commit.gpgsign=false "$@"; }
git_ init -q
cat >"$repo/CMakePresets.json" <<'PRESETS'
{
  "version": 6,
  "configurePresets": [{"name": "gpu", "generator": "Ninja", "binaryDir": "${sourceDir}/build/gpu"}],
  "buildPresets": [{"name": "gpu", "configurePreset": "gpu"}]
}
PRESETS
cat >"$repo/CMakeLists.txt" <<'CML'
cmake_minimum_required(VERSION 3.25)
project(fake_kernel_lab NONE)
configure_file(kernel-lab.in bench/kernel-lab @ONLY
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE)
add_custom_target(kernel-lab)
CML
printf 'build/\n' >"$repo/.gitignore"
# kernel-lab.in: "help" lists bench (as kernel-lab's usage text does) when asked to; "bench" logs
# its call and writes a TSV.
kernel_lab() {
  cat >"$repo/kernel-lab.in" <<KL
#!/bin/sh
case "\$1" in
  help) printf 'usage: kernel-lab <command> [flags]\n\n  list [--json]    every variant\n'
        [ $1 = 1 ] && echo "  bench [--family F] [--variant V] [--reps N] [--tsv FILE]"
        printf '  help             this text\n'; exit 0 ;;
  bench) ;;
  *) exit 2 ;;
esac
shift
echo "$2 arch=@CMAKE_CUDA_ARCHITECTURES@ gpu=\$CUDA_VISIBLE_DEVICES args=\$*" >>"\$KL_FAKE_BENCH_LOG"
while [ \$# -gt 0 ]; do [ "\$1" = --tsv ] && out=\$2; shift; done
printf 'add\tGB/s\t100\t$2\t$2\t$2\n' >"\$out"
exit $3
KL
}
kernel_lab 0 1.00 0 && git_ add -A && git_ commit -qm "no bench yet" && c0=$(git_ rev-parse HEAD)
kernel_lab 1 1.00 0 && git_ add -A && git_ commit -qm "bench at 1.00 ms" && c1=$(git_ rev-parse HEAD)
kernel_lab 1 1.30 0 && git_ add -A && git_ commit -qm "bench at 1.30 ms" && c2=$(git_ rev-parse HEAD)
kernel_lab 1 1.00 2 && git_ add -A && git_ commit -qm "bench fails" && c3=$(git_ rev-parse HEAD)

export KL_FAKE_BENCH_LOG=$scratch/bench.log
e2e() { (cd "$repo" && env -u CUDA_VISIBLE_DEVICES -u KL_CUDA_ARCHITECTURES PATH="$scratch/bin:$PATH" \
  TMPDIR="$scratch" "$compare_sh" "$@"); }

: >"$KL_FAKE_BENCH_LOG"
status=0
out=$(e2e --rounds 3 --family elementwise "$c1" "$c2" 2>"$scratch/stderr") || status=$?
check "1.00 ms -> 1.30 ms: exit 1" equals "$status" 1
check "...a REGRESSION row on stdout" contains "$(row add)" "\| 1 \| 1\.3 \| \+30\.0% \| \+-5\.0% \| \*\*REGRESSION\*\*"
check "...stdout is only Markdown" lacks "$out" "perf-compare:"
check "runs alternate ABBA: base head, head base, base head" \
  equals "$(awk '{ printf "%s ", $1 }' "$KL_FAKE_BENCH_LOG")" "1.00 1.30 1.30 1.00 1.00 1.30 "
check "both builds got the GPU's architecture (90) and one GPU" \
  equals "$(awk '{ print $2, $3 }' "$KL_FAKE_BENCH_LOG" | sort -u)" "arch=90 gpu=0"
check "bench options are passed on" equals "$(grep -c 'args=--family elementwise --tsv ' "$KL_FAKE_BENCH_LOG")" 6
check "the worktrees are removed afterwards" equals "$(git_ worktree list | wc -l | tr -d ' ')" 1
check "...and the temporary directory" equals "$(find "$scratch" -maxdepth 1 -name 'kl-perf-compare.*' | wc -l | tr -d ' ')" 0

: >"$KL_FAKE_BENCH_LOG"
status=0
out=$(e2e --rounds 2 "$c1" "$c1" 2>/dev/null) || status=$?
check "a commit against itself: exit 0, within noise" equals "$status/$(row add | grep -c 'within noise')" "0/1"

status=0
out=$(e2e "$c0" "$c1" 2>/dev/null) || status=$?
check "a base without 'kernel-lab bench': nothing to compare, exit 0" equals "$status" 0
check "...said so" contains "$out" "has no \`kernel-lab bench\` command: nothing to compare"

status=0
out=$(e2e --rounds 1 "$c1" "$c3" 2>&1) || status=$?
check "a bench run failing with exit 2: exit 2" equals "$status" 2
check "...naming the side and round" contains "$out" "head round 1: kernel-lab bench exited 2"

status=0
out=$(e2e "$c1" nosuchcommit 2>&1) || status=$?
check "an unknown commit: exit 2" equals "$status" 2

finish
