#!/usr/bin/env bash
# The replay line a failing property prints brings back the case it shrank to. For each mode a
# registered test runs in (plain; a sanitizer run's environment; the slow tier) the fixture
# property (property/host/replay_fixture.cpp) fails on purpose, and this runs the binary line
# it printed, verbatim, and expects the same counterexample: the smallest failing count of that
# mode. Without the mode's variables on the line the generators draw other shapes, and the
# replay comes back with another count or none.
# Needs KL_REPLAY_FIXTURE (the fixture binary), KL_REPLAY_SANITIZER_ENV (the NAME=VALUE words of
# every sanitizer run's ctest environment, tab-separated, from cmake/KernelLabTesting.cmake) and
# KL_PRESET (the preset the build prints in its ctest lines).
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_REPLAY_FIXTURE:?}" "${KL_REPLAY_SANITIZER_ENV:?}" "${KL_PRESET:?}"
# Only what each mode sets may reach the fixture and its replay: not the caller's RapidCheck
# parameters, nor a tier or sanitizer switch of the shell this runs in.
unset RC_PARAMS KL_RC_DEFAULTS KL_SANITIZER_SMALL KL_PROPERTY_TIER KL_REPLAY_FIXTURE_FAIL

# The words are tab-separated (a word such as KL_RC_DEFAULTS=... holds spaces).
mapfile -t sanitizer_env < <(printf '%s\n' "$KL_REPLAY_SANITIZER_ENV" | tr '\t' '\n')

# counterexample OUTPUT: RapidCheck's shrunk values, from its "Falsifiable after ..." line to the
# location of the failed assertion (the header's test and shrink counts differ on a replay).
counterexample() {
  printf '%s\n' "$1" | awk '/^Falsifiable after / { on = 1; next }
                            on && /\.(cpp|hpp):[0-9]+:$/ { exit }
                            on && NF { print }'
}

# binary_line OUTPUT: the printed replay of the binary itself (the ctest line needs a build tree
# registered under a preset; its reproduce string is checked against this one instead).
binary_line() {
  # No line (a run that did not fail) is an empty result for the checks to report, not an exit.
  printf '%s\n' "$1" | grep -E -- '--gtest_filter=' | grep -v ' ctest --preset ' | sed 's/^  //' || true
}

ends_with() { [[ $1 == *"$2" ]] || { printf '  got:  %s\n  want: ...%s\n' "$1" "$2" >&2; return 1; }; }

# round_trip MODE SMALLEST ENV_WORD...: the fixture fails under ENV, shrinks to n = SMALLEST and
# prints a binary line that carries ENV's shape variables and, run as printed, fails the same way.
round_trip() {
  local mode=$1 smallest=$2
  shift 2
  run_captured env "$@" KL_REPLAY_FIXTURE_FAIL=1 "$KL_REPLAY_FIXTURE"
  local first=$out first_status=$status
  local example line
  example=$(counterexample "$first")
  line=$(binary_line "$first")
  check "$mode: the property fails on purpose" test "$first_status" -ne 0
  check "$mode: ...shrunk to the smallest failing count, n = $smallest" equals "$example" "$(printf 'n:\n%s' "$smallest")"
  check "$mode: ...and prints one binary replay line" equals "$(printf '%s\n' "$line" | grep -c .)" 1
  local word
  for word in "$@"; do
    case $word in
      KL_SANITIZER_SMALL=* | KL_PROPERTY_TIER=*)
        check "$mode: the replay line sets $word" contains "$line" "(^| )$word "
        ;;
    esac
  done

  run_captured env KL_REPLAY_FIXTURE_FAIL=1 bash -c "$line"
  check "$mode: the replay line fails again" test "$status" -ne 0
  check "$mode: ...with the same counterexample" equals "$(counterexample "$out")" "$example"
}

run_captured "$KL_REPLAY_FIXTURE"
check "without KL_REPLAY_FIXTURE_FAIL the fixture property passes" equals "$status" 0

# Three random runs per mode: a replay in the wrong environment can still land on the same
# count by chance (seen in about one run of ten), three times in a row hardly ever.
for run in 1 2 3; do
  # 97: an edge of kl::gen::count() under both caps (2^22, and 5000 under a sanitizer).
  round_trip "plain #$run" 97
  round_trip "sanitizer #$run" 97 "${sanitizer_env[@]}"
  # The slow tier draws counts from 2^22 + 1: every one fails, the smallest is its first edge.
  round_trip "slow #$run" $(((1 << 22) + 1)) KL_PROPERTY_TIER=slow
done

# A registered test's run also names itself for ctest; the reproduce string is the binary line's.
run_captured env "${sanitizer_env[@]}" KL_CTEST_NAME=kl.demo.property.memcheck KL_REPLAY_FIXTURE_FAIL=1 \
  "$KL_REPLAY_FIXTURE"
ctest_line=$(printf '%s\n' "$out" | grep -E ' ctest --preset ' | sed 's/^  //')
want_ctest=" ctest --preset $KL_PRESET -R '^kl\\.demo\\.property\\.memcheck\$' --output-on-failure"
check "a sanitizer run's ctest line names that sanitizer run" ends_with "$ctest_line" "$want_ctest"
reproduce() { printf '%s\n' "$1" | grep -oE 'RC_PARAMS="[^"]*"'; }
check "...with the binary line's RC_PARAMS" equals "$(reproduce "$ctest_line")" "$(reproduce "$(binary_line "$out")")"

finish
