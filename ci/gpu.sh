#!/usr/bin/env bash
# ci/gpu.sh: the GPU tier as the self-hosted runner runs it; anyone can run it on a GPU machine.
#
#   ci/gpu.sh                  check the machine, build the gpu preset, run every test over every GPU
#   ci/gpu.sh --check          only check for the GPU, nvcc and compute-sanitizer, and say what was found
#   ci/gpu.sh --summary [DIR]  rebuild the artifacts and the summary from a finished run in DIR (build/gpu)
#   ci/gpu.sh --shard I/N      the full run of shard I of N only (ci/shard.sh picks its tests: the
#                              perf tests together, balanced by the times of the last unsharded
#                              run when there is one, else by ctest's stride); its artifacts go to
#                              build/gpu/ci-artifacts-shard-I-of-N/. ci/merge-reports.sh joins them.
#
# The full run:
#   1. fails loudly (exit 2) if nvidia-smi cannot list a GPU, or nvcc or compute-sanitizer is missing;
#   2. configures and builds the gpu preset (`cmake --preset gpu`, `cmake --build --preset gpu`);
#   3. writes the CTest resource spec for every GPU (ci/resource-spec.sh) and runs
#      `ctest --preset gpu --resource-spec-file SPEC -j N`: each GPU test takes one of S slots of
#      a GPU, each perf test a whole GPU, so the tier spreads over all of them;
#   4. collects JUnit XML, perf JSON/Markdown/TSV, the ctest log, one log per sanitizer run and the
#      test-to-GPU map into build/gpu/ci-artifacts/, draws the perf tier's JSON as report.html
#      (`kernel-lab report`; a page that cannot be drawn fails the tier) and writes summary.md
#      there, also appended to $GITHUB_STEP_SUMMARY when that is set (the job summary on GitHub).
# Exit status: 0 every test passed, 1 a build or a test failed, 2 the machine lacks a prerequisite.
#
# Environment:
#   KL_CI_DEEP=1             nightly deep tier: GPU tests outside the sanitizers with the RapidCheck
#                            defaults $KL_CI_DEEP_RC_PARAMS (default "max_success=1000 max_size=200";
#                            configured as KL_GPU_RC_DEFAULTS, not the slow tier), sanitizer runs with
#                            $KL_CI_DEEP_SANITIZER_RC_PARAMS (default "max_success=32 max_size=40": four
#                            times the PR tier's cases; configured as KL_SANITIZER_RC_PARAMS), test
#                            timeouts x4, and the perf tier 5 times. Both reach the tests as
#                            KL_RC_DEFAULTS, never as RC_PARAMS: each sanitizer run keeps its own.
#   RC_PARAMS                the caller's, passed through untouched: every key it sets wins over the
#                            defaults in every test, sanitizer runs included (e.g. a reproduce string)
#   KL_CI_PERF_ROUNDS=R      how many times the perf tier runs (default 1, deep 5); each round's
#                            outputs are kept under ci-artifacts/perf/round-<k>/
#   KL_CI_SLOTS_PER_GPU=S    tests sharing one GPU (default: the build's KL_CTEST_GPU_SLOTS)
#   KL_CI_JOBS=N             ctest -j (default: S x GPUs, at most the number of CPUs)
#   CUDA_VISIBLE_DEVICES     if set, only these GPUs (nvidia-smi indices) are used
#   CUDACXX, KL_COMPUTE_SANITIZER   which nvcc and compute-sanitizer to use (else found on PATH,
#                            /usr/local/cuda/bin, or next to nvcc)
#   KL_CI_SHARD_TIMES=FILE   with --shard: the JUnit file whose test times balance the shards
#                            (default: build/gpu/ci-shard-times.xml, the last unsharded run's JUnit,
#                            if there is one; a merged junit-gpu.xml serves as well)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

say() { printf 'ci/gpu.sh: %s\n' "$*" >&2; }

# The nightly deep tier's RapidCheck defaults (KL_CI_DEEP=1), outside and under the sanitizers.
deep_rc_defaults=${KL_CI_DEEP_RC_PARAMS:-max_success=1000 max_size=200}
deep_sanitizer_rc_defaults=${KL_CI_DEEP_SANITIZER_RC_PARAMS:-max_success=32 max_size=40}

# ---------------------------------------------------------------------------------------------
# Prerequisites

# Appends a short Markdown report to $GITHUB_STEP_SUMMARY (if set) so a job that could not even
# start the tier says why on its summary page, then exits 2.
missing() {
  say "FAILED: $*"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf '## kernel-lab GPU tier\n\n**Could not run:** %s\n' "$*" >>"$GITHUB_STEP_SUMMARY"
  fi
  exit 2
}

check_gpu() {
  command -v nvidia-smi >/dev/null 2>&1 ||
    missing "nvidia-smi not found: this machine has no NVIDIA driver, so there is no GPU to test on"
  local listed
  if ! listed=$(nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1); then
    missing "nvidia-smi cannot query the GPUs: $listed"
  fi
  [ -n "$listed" ] || missing "nvidia-smi lists no GPU"
  gpu_list=$listed
  say "GPUs (nvidia-smi):"
  printf '%s\n' "$gpu_list" | sed 's/^/  /' >&2
}

check_nvcc() {
  nvcc=${CUDACXX:-}
  if [ -z "$nvcc" ]; then
    nvcc=$(command -v nvcc 2>/dev/null || true)
  fi
  if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
    nvcc=/usr/local/cuda/bin/nvcc
  fi
  if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
    missing "nvcc not found (looked at \$CUDACXX, PATH and /usr/local/cuda/bin): install the CUDA toolkit or set CUDACXX"
  fi
  local version
  version=$("$nvcc" --version 2>&1 | tail -n 1) || missing "$nvcc --version failed: $version"
  # CMake and the kernel-lab CLI look for the toolkit on PATH: put this nvcc's directory first.
  PATH="$(dirname "$nvcc"):$PATH"
  export PATH
  export CUDACXX="$nvcc"
  say "nvcc: $nvcc ($version)"
}

# The same search order as `kernel-lab sanitize`: $KL_COMPUTE_SANITIZER, PATH, then the toolkit's
# bin directory. The one found is exported so every test uses exactly it.
check_sanitizer() {
  local found=${KL_COMPUTE_SANITIZER:-}
  if [ -z "$found" ]; then
    found=$(command -v compute-sanitizer 2>/dev/null || true)
  fi
  if [ -z "$found" ]; then
    local dir
    dir=$(dirname "$nvcc")
    for candidate in "$dir/compute-sanitizer" "$dir/../compute-sanitizer/compute-sanitizer"; do
      if [ -x "$candidate" ]; then found=$candidate; break; fi
    done
  fi
  if [ -z "$found" ] || [ ! -x "$found" ]; then
    missing "compute-sanitizer not found (looked at \$KL_COMPUTE_SANITIZER, PATH and next to $nvcc): the sanitizer tier cannot run"
  fi
  local version
  version=$("$found" --version 2>&1 | grep -i version | head -n 1) ||
    missing "$found --version failed"
  export KL_COMPUTE_SANITIZER=$found
  sanitizer_version=$version
  say "compute-sanitizer: $found ($version)"
}

check_tools() {
  command -v cmake >/dev/null 2>&1 || missing "cmake not found (CMake >= 3.25 is required)"
  command -v ctest >/dev/null 2>&1 || missing "ctest not found (it comes with CMake)"
  command -v ninja >/dev/null 2>&1 || missing "ninja not found (the presets use the Ninja generator)"
}

check_all() {
  check_gpu
  check_nvcc
  check_sanitizer
  check_tools
}

# ---------------------------------------------------------------------------------------------
# Artifacts and summary (also used by --summary on a finished run)

# Splits ctest's LastTest.log into one file per test whose name matches the pattern (the
# sanitizer runs and the expected findings), holding exactly that test's output.
split_test_logs() {
  local log=$1 dir=$2 pattern=$3
  mkdir -p "$dir"
  awk -v dir="$dir" -v pattern="$pattern" '
    /^[0-9]+\/[0-9]+ Testing: / {
      name = $0; sub(/^[0-9]+\/[0-9]+ Testing: /, "", name)
      file = ""
      if (name ~ pattern) { safe = name; gsub(/[^A-Za-z0-9._-]/, "_", safe); file = dir "/" safe ".log" }
    }
    file != "" { print > file }
    /^"[^"]*" time elapsed: / { if (file != "") close(file); file = "" }
  ' "$log"
}

# Writes "test<TAB>CUDA_VISIBLE_DEVICES" for every test that got a GPU through a resource group,
# read from the one-line notes harness/testing/ctest-gpu-env.sh prints into each test's output.
gpu_map() {
  local log=$1
  awk '
    /^[0-9]+\/[0-9]+ Testing: / { name = $0; sub(/^[0-9]+\/[0-9]+ Testing: /, "", name) }
    /^kl-gpu: / && match($0, /CUDA_VISIBLE_DEVICES=[0-9,]+/) {
      print name "\t" substr($0, RSTART + 21, RLENGTH - 21)
    }
  ' "$log"
}

collect() {
  local build=$1 art=$2
  mkdir -p "$art"
  [ -f "$build/junit-gpu.xml" ] && cp "$build/junit-gpu.xml" "$art/"
  [ -f "$build/ci-ctest.log" ] && cp "$build/ci-ctest.log" "$art/ctest-gpu.log"
  [ -f "$build/ci-resource-spec.json" ] && cp "$build/ci-resource-spec.json" "$art/resource-spec.json"
  # ci/gpu.sh keeps the main run's log as ci-LastTest.log (perf rounds rewrite LastTest.log).
  local last=$build/Testing/Temporary/LastTest.log
  if [ -f "$build/ci-LastTest.log" ]; then last=$build/ci-LastTest.log; fi
  if [ -f "$last" ]; then
    cp "$last" "$art/ctest-LastTest.log"
    rm -rf "$art/sanitizer"
    split_test_logs "$last" "$art/sanitizer" '\.(memcheck|racecheck|synccheck|initcheck)$|^kl\.expect\.'
    gpu_map "$last" >"$art/gpu-map.tsv"
  fi
  # Perf outputs of the main run are round 1 (run_perf_rounds adds the others).
  if [ ! -d "$art/perf/round-1" ] && compgen -G "$build/perf/*" >/dev/null; then
    mkdir -p "$art/perf/round-1"
    cp -R "$build/perf/." "$art/perf/round-1/"
  fi
}

# Draws the perf tier's JSON of round 1 (one file per family) as one page, ART/report.html, with
# its charts in ART/charts/ (`kernel-lab report`; KL_REPORT_PROGRAM names another program). Sets
# report_note, the summary's line about it; returns 1 if the page could not be drawn.
render_report() {
  local build=$1 art=$2
  local program=${KL_REPORT_PROGRAM:-$build/bench/kernel-lab}
  if ! compgen -G "$art/perf/round-1/*.json" >/dev/null; then
    report_note="no perf JSON in this run, so no HTML report"
    return 0
  fi
  rm -rf "$art/report.html" "$art/charts"
  if "$program" report "$art"/perf/round-1/*.json --html "$art/report.html" --svg "$art/charts" >"$art/report.log" 2>&1; then
    # shellcheck disable=SC2016  # the backquotes are Markdown
    report_note='HTML report: `report.html` in the artifacts (roofline, ladders, gates; each chart also in `charts/`)'
  else
    report_note="**the HTML report could not be drawn**: see report.log in the artifacts"
    return 1
  fi
}

summary() {
  local build=$1 art=$2 out=$2/summary.md
  local log=$art/ctest-gpu.log
  {
    if [ -n "${shard:-}" ]; then
      echo "## kernel-lab GPU tier, shard $shard ($(wc -l <"$art/shard-tests.tsv" 2>/dev/null | tr -d ' ') tests)"
    else
      echo "## kernel-lab GPU tier"
    fi
    echo
    local commit
    # On a runner GITHUB_SHA names the commit under test; a copied tree may carry stale git metadata.
    if [ -n "${GITHUB_SHA:-}" ]; then commit=${GITHUB_SHA:0:12}; else
      commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
    fi
    echo "- commit: \`$commit\`"
    if [ -n "${gpu_list:-}" ]; then
      echo "- GPUs: $(printf '%s\n' "$gpu_list" | awk -F', ' '{print $2}' | sort | uniq -c |
        awk '{n=$1; $1=""; sub(/^ /, ""); printf "%s%d x %s", (NR>1 ? ", " : ""), n, $0}')"
    fi
    [ -n "${sanitizer_version:-}" ] && echo "- compute-sanitizer: $sanitizer_version"
    if [ "${KL_CI_DEEP:-0}" = 1 ]; then
      echo "- tier: **nightly deep** (RapidCheck defaults: \`$deep_rc_defaults\`, under the sanitizers \`$deep_sanitizer_rc_defaults\`; perf rounds: ${perf_rounds:-1})"
    fi
    [ -n "${RC_PARAMS:-}" ] && echo "- RC_PARAMS from the caller, over every default: \`$RC_PARAMS\`"
    [ -n "${ctest_jobs:-}" ] && echo "- ctest: -j $ctest_jobs over ${gpu_count:-?} GPU(s), ${slots:-?} test(s) per GPU"
    [ -n "${report_note:-}" ] && echo "- $report_note"
    if [ "${#step_times[@]}" -gt 0 ]; then
      local joined
      joined=$(printf '%s, ' "${step_times[@]}")
      echo "- step times: ${joined%, }"
    fi
    echo
    if [ -n "${stage_failed:-}" ]; then
      echo "**$stage_failed failed**: see ${stage_failed}.log in the artifacts."
      echo
    fi
    if [ -f "$log" ]; then
      local line
      line=$(grep -E '^[0-9]+% tests passed' "$log" | tail -n 1 || true)
      if [ -n "$line" ]; then echo "**$line**"; else echo "**ctest printed no result line** (see ctest-gpu.log)"; fi
      echo
      # ctest lists failures as "<tab>  12 - kl.x.unit (Failed)" after "The following tests FAILED:".
      local failed
      failed=$(awk '/^The following tests FAILED:/ { on = 1; next }
                    on && /^[[:space:]]+[0-9]+ - / { sub(/^[[:space:]]+[0-9]+ - /, ""); print; next }
                    on { on = 0 }' "$log")
      if [ -n "$failed" ]; then
        echo "### Failed tests"
        echo
        echo "| test | result |"
        echo "| --- | --- |"
        # shellcheck disable=SC2016  # the backquotes are Markdown, not a command substitution
        # CTest 4 appends the test's labels after "(Failed)"; test names hold no spaces.
        printf '%s\n' "$failed" | sed -E 's/^([^ ]+) \(([^()]*)\).*$/| `\1` | \2 |/'
        echo
        echo "Each failing test's output is in ctest-LastTest.log (sanitizer runs: sanitizer/<test>.log)."
        echo
      fi
    fi
    if [ -s "$art/gpu-map.tsv" ]; then
      echo "### GPU assignment"
      echo
      echo "| GPU (CUDA_VISIBLE_DEVICES) | tests |"
      echo "| --- | --- |"
      awk -F'\t' '{ n[$2]++ } END { for (g in n) print "| " g " | " n[g] " |" }' "$art/gpu-map.tsv" | sort
      echo
    fi
    if compgen -G "$art/perf/round-1/*.md" >/dev/null; then
      echo "### Performance"
      echo
      local rounds
      rounds=$(find "$art/perf" -maxdepth 1 -name 'round-*' -type d | wc -l | tr -d ' ')
      if [ "$rounds" -gt 1 ]; then
        echo "Round 1 of $rounds; every round's JSON, Markdown and TSV are in the artifacts (perf/round-*)."
        echo
      fi
      for md in "$art"/perf/round-1/*.md; do
        cat "$md"
        echo
      done
    fi
  } >"$out"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$out" >>"$GITHUB_STEP_SUMMARY"
  fi
  say "summary: $out"
}

# ---------------------------------------------------------------------------------------------
# The full run

build=$root/build/gpu
art=$build/ci-artifacts
shard=''

# Each step's wall time ("configure 3 s"), printed as it ends and in the summary.
step_times=()
record_step_time() {
  step_times+=("$1 $2 s")
  say "$1 took $2 s"
}

run_logged() {
  local name=$1 start=$SECONDS
  shift
  say "$name: $*"
  if ! "$@" 2>&1 | tee "$art/$name.log"; then
    stage_failed=$name
    say "GPU tier FAILED: $name (log: $art/$name.log)"
    exit 1
  fi
  record_step_time "$name" $((SECONDS - start))
}

perf_test_count() {
  ctest --test-dir "$build" -N -L '^perf$' 2>/dev/null | sed -n 's/^Total Tests: //p'
}

# Rounds 2..R of the perf tier, each alone (the tests are RUN_SERIAL and take a whole GPU), each
# with its own JUnit file; outputs of round k go to ci-artifacts/perf/round-k/.
run_perf_rounds() {
  local rounds=$1 status=0 k
  [ "$rounds" -gt 1 ] || return 0
  local count
  count=$(perf_test_count)
  if [ "${count:-0}" -eq 0 ]; then
    say "no test labelled perf: the perf tier has nothing to repeat"
    return 0
  fi
  for ((k = 2; k <= rounds; k++)); do
    say "perf round $k of $rounds"
    rm -rf "$build/perf"  # so a round that writes nothing cannot pass off the last round's files
    ctest --preset gpu -L '^perf$' --resource-spec-file "$spec" \
      --output-junit "$art/junit-perf-round-$k.xml" 2>&1 | tee -a "$art/ctest-perf-rounds.log" || status=1
    mkdir -p "$art/perf/round-$k"
    cp -R "$build/perf/." "$art/perf/round-$k/" 2>/dev/null || true
  done
  return "$status"
}

full_run() {
  check_all

  local deep=${KL_CI_DEEP:-0}
  perf_rounds=${KL_CI_PERF_ROUNDS:-1}
  local -a configure_args=(--preset gpu)
  if [ "$deep" = 1 ]; then
    perf_rounds=${KL_CI_PERF_ROUNDS:-5}
    # Defaults in the build, not RC_PARAMS in the environment: an exported RC_PARAMS would win
    # over every sanitizer run's own defaults too, and run 1000 cases under each tool.
    configure_args+=("-DKL_GPU_RC_DEFAULTS=$deep_rc_defaults"
                     "-DKL_SANITIZER_RC_PARAMS=$deep_sanitizer_rc_defaults"
                     -DKL_TEST_TIMEOUT_SCALE=4)
    say "deep tier: RapidCheck defaults '$deep_rc_defaults', under the sanitizers '$deep_sanitizer_rc_defaults', perf rounds: $perf_rounds"
  else
    # Back to the defaults in case an earlier deep run left its settings in this build's cache.
    configure_args+=(-UKL_GPU_RC_DEFAULTS -UKL_SANITIZER_RC_PARAMS -UKL_TEST_TIMEOUT_SCALE)
  fi
  case $perf_rounds in '' | *[!0-9]* | 0) missing "KL_CI_PERF_ROUNDS='$perf_rounds' is not a positive integer" ;; esac
  if [ -n "${KL_CI_SLOTS_PER_GPU:-}" ]; then
    configure_args+=("-DKL_CTEST_GPU_SLOTS=$KL_CI_SLOTS_PER_GPU")
  fi

  mkdir -p "$build"
  # The shards are balanced by the test times of the last whole (unsharded) run, which leaves
  # them in ci-shard-times.xml; a shard's own JUnit never replaces it, so shards run one after
  # another split the tier the same way.
  local shard_times=${KL_CI_SHARD_TIMES:-}
  if [ -n "$shard" ] && [ -z "$shard_times" ] && [ -s "$build/ci-shard-times.xml" ]; then
    shard_times=$build/ci-shard-times.xml
  fi
  rm -rf "$art" "$build/perf" "$build/ci-ctest.log" "$build/ci-LastTest.log" "$build/junit-gpu.xml" \
    "$build/Testing/Temporary/LastTest.log"
  mkdir -p "$art"
  {
    echo "commit: ${GITHUB_SHA:-$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)}"
    echo "nvcc: $nvcc"; "$nvcc" --version
    echo "compute-sanitizer: $KL_COMPUTE_SANITIZER ($sanitizer_version)"
    cmake --version | head -n 1
    nvidia-smi
  } >"$art/environment.txt" 2>&1 || true
  trap 'summary "$build" "$art" || true' EXIT

  cd "$root"
  run_logged configure cmake "${configure_args[@]}"
  run_logged build cmake --build --preset gpu

  spec=$build/ci-resource-spec.json
  ci/resource-spec.sh --build-dir "$build" "$spec" || missing "could not write the resource spec"
  gpu_count=$(grep -c '"id"' "$spec")
  slots=$(sed -n 's/^KL_CTEST_GPU_SLOTS:[A-Z]*=//p' "$build/CMakeCache.txt")
  local cpus
  cpus=$(nproc 2>/dev/null || echo 4)
  ctest_jobs=${KL_CI_JOBS:-$((slots * gpu_count))}
  if [ -z "${KL_CI_JOBS:-}" ] && [ "$ctest_jobs" -gt "$cpus" ]; then ctest_jobs=$cpus; fi

  local status=0
  local -a selection=()
  if [ -n "$shard" ]; then
    local -a times_args=()
    [ -n "$shard_times" ] && times_args=(--times "$shard_times")
    ci/shard.sh --build-dir "$build" ${times_args[@]+"${times_args[@]}"} "$shard" >"$art/shard-tests.tsv" ||
      missing "ci/shard.sh could not split the tier into shard $shard"
    echo "$shard" >"$art/shard.txt"
    if [ ! -s "$art/shard-tests.tsv" ]; then
      say "shard $shard holds no test (fewer tests than shards)"
      return 0
    fi
    # ctest -I START,END,STRIDE,N1,N2,...: exactly the listed test numbers.
    selection=(-I "0,0,0,$(cut -f1 "$art/shard-tests.tsv" | paste -sd, -)")
    say "shard $shard: $(wc -l <"$art/shard-tests.tsv" | tr -d ' ') tests ($([ -n "$shard_times" ] && echo "balanced by $shard_times" || echo "ctest's stride"))"
    # The perf tests are all in one shard (ci/shard.sh): only that one repeats them.
    if ! ctest --test-dir "$build" -N -L '^perf$' | sed -n 's/^ *Test *#[0-9]*: //p' |
      grep -qxF -f <(cut -f2 "$art/shard-tests.tsv"); then
      perf_rounds=1
    fi
  fi
  say "ctest --preset gpu --resource-spec-file $spec -j $ctest_jobs ${selection[*]}"
  local ctest_start=$SECONDS
  ctest --preset gpu --resource-spec-file "$spec" -j "$ctest_jobs" ${selection[@]+"${selection[@]}"} 2>&1 |
    tee "$build/ci-ctest.log" || status=1
  record_step_time ctest $((SECONDS - ctest_start))
  # The perf rounds below start new ctest runs, which rewrite LastTest.log: keep the main one.
  cp "$build/Testing/Temporary/LastTest.log" "$build/ci-LastTest.log" 2>/dev/null || true
  if [ -z "$shard" ] && [ -s "$build/junit-gpu.xml" ]; then cp "$build/junit-gpu.xml" "$build/ci-shard-times.xml"; fi
  collect "$build" "$art"
  render_report "$build" "$art" || status=1
  run_perf_rounds "$perf_rounds" || status=1
  if [ "$status" -ne 0 ]; then
    say "GPU tier FAILED (artifacts: $art)"
    exit 1
  fi
  say "GPU tier passed (artifacts: $art)"
}

case ${1:-} in
  --check)
    check_all
    say "ok: GPU, nvcc and compute-sanitizer found"
    ;;
  --summary)
    build=${2:-$root/build/gpu}
    art=$build/ci-artifacts
    [ -d "$build" ] || { say "no build directory $build"; exit 2; }
    collect "$build" "$art"
    render_report "$build" "$art" || true
    summary "$build" "$art"
    ;;
  '')
    full_run
    ;;
  --shard)
    [ "$#" -eq 2 ] || { say "--shard needs I/N, e.g. --shard 1/2"; exit 2; }
    if ! [[ $2 =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] || [ "${BASH_REMATCH[1]}" -gt "${BASH_REMATCH[2]}" ]; then
      say "--shard must be I/N with 1 <= I <= N, got '$2'"
      exit 2
    fi
    shard=$2
    art=$build/ci-artifacts-shard-${BASH_REMATCH[1]}-of-${BASH_REMATCH[2]}
    full_run
    ;;
  -h | --help)
    sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    ;;
  *)
    say "unknown argument '$1' (use --check, --summary [DIR], --shard I/N or nothing)"
    exit 2
    ;;
esac
