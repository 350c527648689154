#!/usr/bin/env bash
# ci/shard.sh --build-dir DIR [--times JUNIT] I/N
#
# Prints the share of the tests registered in the build DIR that shard I of N runs, one line per
# test: "<ctest number><TAB><name>", in test-number order. Every test is in exactly one shard, and
# the share is the same on every machine for the same build and inputs.
#   - The perf tests (label perf) stay together in one shard: they take a whole GPU each and are
#     timed one after the other, so they are one unit of work.
#   - With --times (a JUnit file of an earlier run, e.g. junit-gpu.xml), units are balanced by their
#     time: the longest first, each to the shard with the least work so far (ties: the lower
#     shard, then the name). A test the file does not list counts as the median listed time.
#   - Without it, ctest's stride: the k-th unit in test-number order (the perf unit at its first
#     test) goes to shard (k mod N) + 1.
# Exit status: 0, or 2 for bad arguments or a build without tests.
set -euo pipefail

say() { printf 'ci/shard.sh: %s\n' "$*" >&2; }
usage() { sed -n '2p' "${BASH_SOURCE[0]}" | sed 's/^# /usage: /' >&2; exit 2; }

build='' times='' spec=''
while [ "$#" -gt 0 ]; do
  case $1 in
    --build-dir) [ "$#" -ge 2 ] || usage; build=$2; shift 2 ;;
    --times) [ "$#" -ge 2 ] || usage; times=$2; shift 2 ;;
    -h | --help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) say "unknown option '$1'"; usage ;;
    *) [ -z "$spec" ] || { say "one I/N only"; usage; }; spec=$1; shift ;;
  esac
done
if [ -z "$build" ] || [ -z "$spec" ]; then usage; fi
[[ $spec =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] || { say "shard must be I/N with 1 <= I <= N, got '$spec'"; exit 2; }
index=${BASH_REMATCH[1]} count=${BASH_REMATCH[2]}
[ "$index" -le "$count" ] || { say "shard must be I/N with 1 <= I <= N, got '$spec'"; exit 2; }
[ -d "$build" ] || { say "no build directory '$build'"; exit 2; }
if [ -n "$times" ] && [ ! -r "$times" ]; then say "cannot read the times file '$times'"; exit 2; fi

ctest_bin=${KL_CTEST:-ctest}
# "  Test  #12: kl.x.unit" -> "12<TAB>kl.x.unit"
list_tests() { "$ctest_bin" --test-dir "$build" -N "$@" | sed -n 's/^ *Test *#\([0-9][0-9]*\): \(.*\)$/\1\t\2/p'; }
all=$(list_tests)
[ -n "$all" ] || { say "no tests registered in '$build'"; exit 2; }
perf=$(list_tests -L '^perf$' | cut -f2)

# name<TAB>seconds from the JUnit file (CTest writes one <testcase name=... time=...> per test).
junit_times() {
  [ -n "$times" ] || return 0
  grep -o '<testcase [^>]*>' "$times" | sed -n 's/.*name="\([^"]*\)".*time="\([0-9.eE+-]*\)".*/\1\t\2/p'
}

awk -F '\t' -v index_="$index" -v count="$count" -v timed="$([ -n "$times" ] && echo 1 || echo 0)" '
  section == "perf" { perf[$1] = 1; next }
  section == "times" { t[$1] = $2 + 0; nt++; times_sorted[nt] = $2 + 0; next }
  section == "tests" {
    number[++n] = $1; name[n] = $2
  }
  END {
    # Units: each test alone, or "perf" for every perf test together (placed at its first test).
    for (i = 1; i <= n; i++) {
      u = (name[i] in perf) ? "perf" : name[i]
      if (!(u in unit_pos)) { unit_pos[u] = ++nu; unit[nu] = u }
      of[i] = u
    }
    if (timed) {
      # median of the listed times, for tests the file does not list
      for (i = 2; i <= nt; i++) { v = times_sorted[i]; for (j = i - 1; j >= 1 && times_sorted[j] > v; j--) times_sorted[j + 1] = times_sorted[j]; times_sorted[j + 1] = v }
      median = nt ? ((nt % 2) ? times_sorted[(nt + 1) / 2] : (times_sorted[nt / 2] + times_sorted[nt / 2 + 1]) / 2) : 1
      for (i = 1; i <= n; i++) w[of[i]] += (name[i] in t) ? t[name[i]] : median
      # longest first; ties by name
      for (k = 1; k <= nu; k++) order[k] = unit[k]
      for (k = 2; k <= nu; k++) {
        v = order[k]
        for (j = k - 1; j >= 1 && (w[order[j]] < w[v] || (w[order[j]] == w[v] && order[j] > v)); j--) order[j + 1] = order[j]
        order[j + 1] = v
      }
      for (s = 1; s <= count; s++) load[s] = 0
      for (k = 1; k <= nu; k++) {
        best = 1
        for (s = 2; s <= count; s++) if (load[s] < load[best]) best = s
        shard[order[k]] = best; load[best] += w[order[k]]
      }
    } else {
      for (k = 1; k <= nu; k++) shard[unit[k]] = ((k - 1) % count) + 1
    }
    for (i = 1; i <= n; i++) if (shard[of[i]] == index_) print number[i] "\t" name[i]
  }
' section=perf <(printf '%s\n' "$perf" | sed '/^$/d') section=times <(junit_times) section=tests <(printf '%s\n' "$all")
