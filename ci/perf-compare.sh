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
#
# Options:
#   --rounds R          rounds (default 3)
#   --family F, --variant V, --reps N   passed to `kernel-lab bench`
#   --min-change PCT    smallest change that can count (default 5)
#   --noise-factor F    how many spreads a change must exceed (default 2)
#   --keep              keep the temporary worktrees and TSV files (their path is printed)
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

# compare BASE.tsv HEAD.tsv TITLE: prints the Markdown table; exit status 1 on a regression.
compare() {
  local base=$1 head=$2 title=$3
  [ -r "$base" ] || bad "cannot read $base"
  [ -r "$head" ] || bad "cannot read $head"
  awk -F '\t' -v min_change="$min_change" -v noise_factor="$noise_factor" -v title="$title" '
    function isnum(s) { return s ~ /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/ }
    # kernel-lab writes "null" for a figure it could not measure (not finite)
    function isnumornull(s) { return s == "null" || isnum(s) }
    # median of a[1..n] (sorts a copy; n is small)
    function median(a, n,    b, i, j, t) {
      for (i = 1; i <= n; i++) b[i] = a[i]
      for (i = 2; i <= n; i++) { t = b[i]; for (j = i - 1; j >= 1 && b[j] > t; j--) b[j + 1] = b[j]; b[j + 1] = t }
      return (n % 2) ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
    }
    function spread(a, n, centre,    i, lo, hi) {
      lo = hi = a[1]
      for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
      return (hi - lo) / centre
    }
    function pct(x) { return sprintf("%+.1f%%", 100 * x) }
    # median time / median value of one side for a key (value "-" when none was measured)
    function time_of(sd, key,    a, j, m) { m = n[sd, key]; for (j = 1; j <= m; j++) a[j] = t[sd, key, j]; return median(a, m) }
    function value_of(sd, key,    a, j, m) {
      m = nv[sd, key] + 0; if (m == 0) return "-"
      for (j = 1; j <= m; j++) a[j] = v[sd, key, j]
      return num(median(a, m))
    }
    function num(x) { return sprintf("%.4g", x) }
    FNR == 1 { file = FILENAME }
    /^[[:space:]]*$/ || /^#/ { next }
    FNR == 1 && $1 == "variant" && $4 == "median_ms" { next }   # a header line, if one is written
    {
      if (NF != 6 || !isnumornull($3) || !isnumornull($4) || !isnumornull($5) || !isnumornull($6)) {
        printf "perf-compare: %s:%d: expected variant, metric, value, median_ms, min_ms, max_ms separated by tabs: %s\n", file, FNR, $0 > "/dev/stderr"
        bad = 1; exit 2
      }
      key = $1 SUBSEP $2
      if (!(key in seen)) { seen[key] = 1; order[++nkeys] = key }
      if ($4 == "null") { untimed[side, key] = 1; next }
      if ($4 + 0 <= 0) {
        printf "perf-compare: %s:%d: median time %s is not positive\n", file, FNR, $4 > "/dev/stderr"
        bad = 1; exit 2
      }
      k = ++n[side, key]
      t[side, key, k] = $4 + 0
      if (isnum($3)) v[side, key, ++nv[side, key]] = $3 + 0
    }
    END {
      if (bad) exit 2
      if (nkeys == 0) { print "perf-compare: no results in either file" > "/dev/stderr"; exit 2 }
      print "### " title
      print ""
      printf "Rule: per variant and metric, time = median of the per-round median times; noise = (max - min) / median of those; "
      printf "a regression is head slower than base by more than max(%s%%, %s x the larger noise).\n", min_change, noise_factor
      print ""
      print "| variant | metric | base value | head value | base ms | head ms | time change | bound | verdict |"
      print "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
      regressions = 0
      for (i = 1; i <= nkeys; i++) {
        key = order[i]; split(key, parts, SUBSEP)
        nb = n["b", key] + 0; nh = n["h", key] + 0
        bv = value_of("b", key); hv = value_of("h", key)
        if (nb == 0 || nh == 0) {
          bt = nb ? num(time_of("b", key)) : "-"; ht = nh ? num(time_of("h", key)) : "-"
          if ((("b", key) in untimed) || (("h", key) in untimed)) verdict = "no time measured"
          else verdict = nb ? "only in base" : "new in head"
          printf "| %s | %s | %s | %s | %s | %s | - | - | %s |\n", parts[1], parts[2], bv, hv, bt, ht, verdict
          continue
        }
        for (j = 1; j <= nb; j++) tb[j] = t["b", key, j]
        for (j = 1; j <= nh; j++) th[j] = t["h", key, j]
        cb = median(tb, nb); ch = median(th, nh)
        noise = spread(tb, nb, cb); nh_noise = spread(th, nh, ch)
        if (nh_noise > noise) noise = nh_noise
        bound = noise_factor * noise
        if (bound < min_change / 100) bound = min_change / 100
        change = ch / cb - 1
        if (change > bound) { verdict = "**REGRESSION**"; regressions++ }
        else if (change < -bound) verdict = "faster"
        else verdict = "within noise"
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", parts[1], parts[2], bv, hv, num(cb), num(ch), pct(change), "+-" sprintf("%.1f%%", 100 * bound), verdict
      }
      print ""
      if (regressions) printf "**%d regression(s) beyond noise.**\n", regressions
      else print "No regression beyond noise."
      exit regressions ? 1 : 0
    }
  ' side=b "$base" side=h "$head"
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
    -h | --help) sed -n '2,37p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; positional+=("$@"); break ;;
    -*) say "unknown option '$1'"; usage ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ "${#positional[@]}" -eq 2 ] || { say "need exactly two arguments, got ${#positional[@]}"; usage; }
[[ $min_change =~ ^[0-9]+(\.[0-9]+)?$ ]] || bad "--min-change must be a number of percent, got '$min_change'"
[[ $noise_factor =~ ^[0-9]+(\.[0-9]+)?$ ]] || bad "--noise-factor must be a number, got '$noise_factor'"

if [ "$compare_only" = 1 ]; then
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
has_bench() {
  "$work/$1/build/gpu/bench/kernel-lab" help 2>&1 | grep -Eq '^[[:space:]]*(kernel-lab[[:space:]]+)?bench([[:space:]]|$)'
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
compare "$work/base.tsv" "$work/head.tsv" \
  "Performance: base ${base_sha:0:12} vs head ${head_sha:0:12} (GPU ${gpu_name:-$gpu}, $rounds rounds)" || status=$?
for w in ${warnings[@]+"${warnings[@]}"}; do printf -- '- note: %s\n' "$w"; done
exit "$status"
