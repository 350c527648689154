#!/usr/bin/env bash
# README's "Your first kernel", run as written: the first block of commands under that heading,
# with HOME in a scratch directory and build/host standing for this build tree. The project that
# `new-family` writes must configure against the installed package, build without a warning and
# pass its host tier. And new-family refuses a bad name and a directory that is not empty (exit 2,
# the rule named), writing nothing.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_BUILD_DIR:?set KL_BUILD_DIR to the kernel-lab build tree}"
: "${KL_PROGRAM:?set KL_PROGRAM to kernel-lab}"

block=$(awk '/^## Your first kernel/ { inside = 1; next }
             inside && /^## / { exit }
             inside && /^    / { seen = 1; print substr($0, 5); next }
             inside && seen { exit }' "$KL_SOURCE_DIR/README.md")
check "README has the walk-through's commands" contains "$block" "new-family"
mkdir -p "$scratch/home"
{
  echo 'set -euxo pipefail'
  printf '%s\n' "$block" | sed "s#build/host#$KL_BUILD_DIR#g"
} >"$scratch/walkthrough.sh"
cd "$KL_SOURCE_DIR"
run_captured env HOME="$scratch/home" ${KL_CXX_COMPILER:+CXX="$KL_CXX_COMPILER"} \
  ${KL_CUDA_COMPILER:+CUDACXX="$KL_CUDA_COMPILER"} bash "$scratch/walkthrough.sh"
check "the walk-through runs to the end" equals "$status" 0 || printf '%s\n' "$out" >&2
check "the new project's host tier passes" contains "$out" "100% tests passed(, 0 tests failed)? out of 3"
check "it builds without a warning" lacks "$out" "warning"

run_captured "$KL_PROGRAM" new-family Scale "$scratch/bad-name"
check "new-family refuses a name that is not lower-case (exit 2)" equals "$status" 2
check "naming the rule" contains "$out" "family name 'Scale': lower-case letters, digits and _"
check "and writes nothing" test ! -e "$scratch/bad-name"
mkdir -p "$scratch/taken" && touch "$scratch/taken/notes.txt"
run_captured "$KL_PROGRAM" new-family scale "$scratch/taken"
check "new-family refuses a directory that is not empty (exit 2)" equals "$status" 2
check "naming it" contains "$out" "taken' exists and is not empty"
check "and leaves it as it was" equals "$(ls "$scratch/taken")" "notes.txt"
finish
