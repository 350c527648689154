#!/usr/bin/env bash
# ci/perf-compare.sh [options] BASE HEAD
# ci/perf-compare.sh [--min-change PCT] [--noise-factor F] --compare-tsv BASE.tsv HEAD.tsv
#
# Builds `kernel-lab` at two commits (git worktrees in a temporary directory, the gpu preset, the
# same CMAKE_CUDA_ARCHITECTURES for both) and runs `kernel-lab bench --tsv` for each, alternating
# on one GPU in one job: R rounds in the order base head, head base, base head, ... (ABBA, so a
# drift of the GPU's clocks or temperature over the job weighs on both sides alike). Then it
# compares the two and prints a Markdown table on stdout; progress and build logs go to stderr.
#
# The rule (printed with the table):
#   For each (variant, metric), a side's time is the median of its per-round median times, and
#   its noise is the spread of those round medians, (max - min) / median. The change is
#   head / base - 1. It is a REGRESSION only if the change exceeds max(MIN_CHANGE, F x noise),
#   the noise being the larger of the two sides' (defaults: MIN_CHANGE 5%, F 2); "faster" if it is
#   below minus that bound; otherwise "within noise". Rows present on one side only, and rows
#   whose time is "null" (kernel-lab's word for a figure it could not measure), are listed, never
#   a failure. With one round the noise is 0 and the bound is MIN_CHANGE: use 3 or more.
# Exit status: 0 no regression, 1 at least one regression, 2 bad arguments, a failed build, no
# GPU, or a failed benchmark run. A BASE whose kernel-lab has no `bench` command is reported
# ("nothing to compare") with status 0, so the first pull request that adds a benchmark passes.
#
# --compare-tsv runs only the comparison, on TSV files written by `kernel-lab bench --tsv` (one
# line per result: variant, metric, value, median_ms, min_ms, max_ms; several rounds may be
# concatenated in one file). The host tests use it.
# The comparison is `kernel-lab compare` (the rule above, in harness/core/run_compare.cpp):
# KL_COMPARE_PROGRAM names the kernel-lab that runs it; by default the head's build, or with
# --compare-tsv the kernel-lab on PATH.
#
# Options:
#   --rounds R          rounds (default 3)
#   --family F, --variant V, --reps N   passed to `kernel-lab bench`
#   --min-change PCT    smallest change that can count (default 5)
#   --noise-factor F    how many spreads a change must exceed (default 2)
#   --keep              keep the temporary worktrees and TSV files (their path is printed)
#   --chart FILE        also draw the comparison as an SVG chart (each variant's change over its
#                       noise band), named under the table
# Environment: CUDA_VISIBLE_DEVICES picks the GPU (its first entry; default: nvidia-smi's GPU 0);
#   KL_CUDA_ARCHITECTURES (default: the GPU's compute capability, e.g. 90); CMAKE_PREFIX_PATH as
#   for any gpu-preset build.
set -euo pipefail

say() { printf 'perf-compare: %s\n' "$*" >&2; }
bad() {
  say "$*"
  exit 2
}
usage() {
  sed -n '2,3p' "${BASH_SOURCE[0]}" | sed 's/^# /usage: /' >&2
  exit 2
}

min_change=5
noise_factor=2
chart=''


# compare BASE.tsv HEAD.tsv TITLE: prints the Markdown table; exit status 1 on a regression.
# The rule and the TSV reader are kernel-lab's own (`kernel-lab compare`, harness/core/run_compare.cpp).
compare() {
  local base=$1 head=$2 title=$3 status=0
  [ -n "$compare_program" ] || bad "no program to compare with: set KL_COMPARE_PROGRAM=path/to/kernel-lab or put kernel-lab on PATH"
  "$compare_program" compare --min-change "$min_change" --noise-factor "$noise_factor" --title "$title" \
    ${chart:+--chart "$chart"} "$base" "$head" || status=$?
  case $status in
    0 | 1) return "$status" ;;
    *) bad "$compare_program compare exited $status" ;;
  esac
}

# ---------------------------------------------------------------------------------------------

rounds=3
keep=0
compare_only=0
bench_args=()
positional=()
while [ "$#" -gt 0 ]; do
  case $1 in
    --compare-tsv) compare_only=1; shift ;;
    --rounds) [ "$#" -ge 2 ] || usage; rounds=$2; shift 2 ;;
    --family | --variant | --reps) [ "$#" -ge 2 ] || usage; bench_args+=("$1" "$2"); shift 2 ;;
    --min-change) [ "$#" -ge 2 ] || usage; min_change=$2; shift 2 ;;
    --noise-factor) [ "$#" -ge 2 ] || usage; noise_factor=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --chart) [ "$#" -ge 2 ] || usage; chart=$2; shift 2 ;;
    -h | --help) sed -n '2,37p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; positional+=("$@"); break ;;
    -*) say "unknown option '$1'"; usage ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ "${#positional[@]}" -eq 2 ] || { say "need exactly two arguments, got ${#positional[@]}"; usage; }
[[ $min_change =~ ^[0-9]+(\.[0-9]+)?$ ]] || bad "--min-change must be a number of percent, got '$min_change'"
[[ $noise_factor =~ ^[0-9]+(\.[0-9]+)?$ ]] || bad "--noise-factor must be a number, got '$noise_factor'"

# The program that compares: KL_COMPARE_PROGRAM, else (a whole run) the head's kernel-lab, else
# (--compare-tsv) kernel-lab on PATH.
compare_program=${KL_COMPARE_PROGRAM:-}
if [ "$compare_only" = 1 ]; then
  [ -n "$compare_program" ] || compare_program=$(command -v kernel-lab || true)
  compare "${positional[0]}" "${positional[1]}" "Performance: ${positional[0]} vs ${positional[1]}"
  exit $?
fi

[[ $rounds =~ ^[1-9][0-9]*$ ]] || bad "--rounds must be a positive integer, got '$rounds'"
repo=$(git rev-parse --show-toplevel 2>/dev/null) || bad "run this inside the kernel-lab git repository"
base_sha=$(git -C "$repo" rev-parse --verify --quiet "${positional[0]}^{commit}") ||
  bad "BASE '${positional[0]}' is not a commit of this repository"
head_sha=$(git -C "$repo" rev-parse --verify --quiet "${positional[1]}^{commit}") ||
  bad "HEAD '${positional[1]}' is not a commit of this repository"

# One GPU for every run.
command -v nvidia-smi >/dev/null 2>&1 || bad "nvidia-smi not found: no GPU to benchmark on"
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  gpu=${CUDA_VISIBLE_DEVICES%%,*}
  export CUDA_VISIBLE_DEVICES=$gpu
else
  gpu=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' \r') ||
    bad "nvidia-smi cannot list the GPUs"
  [ -n "$gpu" ] || bad "nvidia-smi lists no GPU"
  export CUDA_VISIBLE_DEVICES=$gpu CUDA_DEVICE_ORDER=PCI_BUS_ID
fi
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader -i "$gpu" 2>/dev/null | head -n 1 || true)
arch=${KL_CUDA_ARCHITECTURES:-}
if [ -z "$arch" ]; then
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i "$gpu" 2>/dev/null | head -n 1 | tr -d ' .\r' || true)
fi
[[ $arch =~ ^[0-9]+[a-z]?$ ]] || bad "cannot tell the GPU's compute capability ('$arch'): set KL_CUDA_ARCHITECTURES (e.g. 90)"
say "GPU $gpu (${gpu_name:-unknown}), CMAKE_CUDA_ARCHITECTURES=$arch, $rounds round(s)"

work=$(mktemp -d "${TMPDIR:-/tmp}/kl-perf-compare.XXXXXX")
# shellcheck disable=SC2317  # called through the EXIT trap
cleanup() {
  if [ "$keep" = 1 ]; then
    say "kept $work"
    return
  fi
  git -C "$repo" worktree remove --force "$work/base" >/dev/null 2>&1 || true
  git -C "$repo" worktree remove --force "$work/head" >/dev/null 2>&1 || true
  rm -rf "$work"
  git -C "$repo" worktree prune >/dev/null 2>&1 || true
}
trap cleanup EXIT

# build SIDE SHA: a worktree at SHA with kernel-lab built by the gpu preset.
build() {
  local side=$1 sha=$2 tree=$work/$1
  say "$side: building ${sha:0:12} in $tree"
  git -C "$repo" worktree add --detach "$tree" "$sha" >/dev/null 2>&1 || bad "git worktree add $sha failed"
  if ! (cd "$tree" && cmake --preset gpu "-DCMAKE_CUDA_ARCHITECTURES=$arch" &&
        cmake --build --preset gpu --target kernel-lab) >"$work/$side-build.log" 2>&1; then
    tail -n 30 "$work/$side-build.log" >&2
    bad "$side (${sha:0:12}) does not build (log above)"
  fi
  [ -x "$tree/build/gpu/bench/kernel-lab" ] || bad "$side: no build/gpu/bench/kernel-lab after the build"
}

# `kernel-lab help` lists each command on a line of its own ("  bench [--family F] ...").
# The text is read whole before grep looks at it: with pipefail, `help | grep -q` fails whenever
# grep exits on its match before help has written the rest (SIGPIPE), which a loaded machine
# makes likely.
has_bench() {
  local text
  text=$("$work/$1/build/gpu/bench/kernel-lab" help 2>&1) || true
  grep -Eq '^[[:space:]]*(kernel-lab[[:space:]]+)?bench([[:space:]]|$)' <<<"$text"
}

build base "$base_sha"
build head "$head_sha"
has_bench head || bad "head (${head_sha:0:12}) has no 'kernel-lab bench' command"
if ! has_bench base; then
  # shellcheck disable=SC2016  # the backquotes are Markdown
  printf '### Performance: %s vs %s\n\nBase %s has no `kernel-lab bench` command: nothing to compare against.\n' \
    "${base_sha:0:12}" "${head_sha:0:12}" "${base_sha:0:12}"
  exit 0
fi

warnings=()
run() {
  local side=$1 round=$2 out=$work/$1-$2.tsv status=0
  say "round $round: $side"
  "$work/$side/build/gpu/bench/kernel-lab" bench "${bench_args[@]}" --tsv "$out" \
    >"$work/$side-$round.out" 2>&1 || status=$?
  case $status in
    0) ;;
    1) warnings+=("$side round $round: a gate or check failed (kernel-lab bench exit 1); its times are still compared") ;;
    *) cat "$work/$side-$round.out" >&2; bad "$side round $round: kernel-lab bench exited $status" ;;
  esac
  [ -s "$out" ] || { cat "$work/$side-$round.out" >&2; bad "$side round $round wrote no TSV"; }
  cat "$out" >>"$work/$side.tsv"
}

: >"$work/base.tsv"
: >"$work/head.tsv"
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then run base "$r"; run head "$r"; else run head "$r"; run base "$r"; fi
done

status=0
[ -n "$compare_program" ] || compare_program=$work/head/build/gpu/bench/kernel-lab
compare "$work/base.tsv" "$work/head.tsv" \
  "Performance: base ${base_sha:0:12} vs head ${head_sha:0:12} (GPU ${gpu_name:-$gpu}, $rounds rounds)" || status=$?
for w in ${warnings[@]+"${warnings[@]}"}; do printf -- '- note: %s\n' "$w"; done
exit "$status"
