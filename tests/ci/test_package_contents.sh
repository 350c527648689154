#!/usr/bin/env bash
# What `cmake --install` ships is the harness and nothing of the lab (issue "Your own kernel in 80
# lines"): the installed files are exactly tests/ci/package-files.txt, and none of them is
# lab-specific: no path named after a family of the lab or its lessons, no installed source that
# includes a family's header, no symbol an installed archive defines in a family's or the
# lessons' code. The check is proven on three planted packages first: a family header shipped, a
# lab archive shipped under a harness name, a harness source that includes a family header.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_BUILD_DIR:?set KL_BUILD_DIR to the kernel-lab build tree}"
: "${KL_LAB_FAMILIES:?set KL_LAB_FAMILIES to the lab families (kl_family declarations), separated by |}"
: "${KL_LAB_ARCHIVE:?set KL_LAB_ARCHIVE to the lab families library (libkl_kernels.a)}"
: "${KL_CMAKE:=cmake}"
command -v nm >/dev/null || { echo "FAIL: nm (binutils) is needed to list the archives' symbols" >&2; exit 1; }

families=$KL_LAB_FAMILIES
# A path token, a symbol or an include that belongs to the lab.
path_re="(^|/|_|-)($families|lessons|seed_claims|sgemm)(_|-|\\.|/|$)"
include_re="#include [<\"]kl/($families|matmul_ladders|matmul_oracle|sgemm_tuning)\\.(hpp|cuh)[>\"]"
symbol_re="kl::([a-z_0-9]+::)*(lessons::|($families)(::|_)|[a-z_0-9]*_($families)\\b|family_($families)\\b|seed_claim|sgemm_)"

# lab_items PREFIX: one line per lab-specific thing installed under PREFIX (nothing for a clean one).
lab_items() {
  local prefix=$1 archive
  (cd "$prefix" && find . -type f | sed 's|^\./||' | grep -E "$path_re" | sed 's/^/lab file: /') || true
  grep -rlIE "$include_re" "$prefix" | sed "s|^$prefix/|includes a lab header: |" || true
  for archive in "$prefix"/lib/*.a; do
    nm -C --defined-only "$archive" 2>/dev/null | grep -E ' [TDBR] ' | grep -E "$symbol_re" |
      sed "s|^[0-9a-f]* [TDBR] |lab symbol in ${archive##*/}: |" | head -5 || true
  done
}

# installed_files PREFIX: the relative paths, sorted, the build type's export file named generically.
installed_files() {
  (cd "$1" && find . -type f | sed 's|^\./||' | sed -E 's|KernelLabTargets-[a-z]+\.cmake$|KernelLabTargets-<config>.cmake|' |
    LC_ALL=C sort)
}

prefix=$scratch/prefix
run_captured "$KL_CMAKE" --install "$KL_BUILD_DIR" --prefix "$prefix"
check "cmake --install succeeds" equals "$status" 0 || printf '%s\n' "$out" >&2

# The checker first: each planted package must be reported.
plant() {  # plant NAME: a copy of the installed package to plant a lab item into
  rm -rf "${scratch:?}/$1"
  cp -r "$prefix" "$scratch/$1"
  echo "$scratch/$1"
}
planted=$(plant header)
cp "$KL_SOURCE_DIR/kernels/include/kl/matmul.hpp" "$planted/include/kernel_lab/kl/"
check "a family header shipped is reported" contains "$(lab_items "$planted")" "lab file: include/kernel_lab/kl/matmul.hpp"
check "...and the file list no longer matches" test "$(installed_files "$planted")" != "$(installed_files "$prefix")"
planted=$(plant archive)
cp "$KL_LAB_ARCHIVE" "$planted/lib/libkl_common.a"
check "a lab archive under a harness name is reported by its symbols" contains "$(lab_items "$planted")" \
  "lab symbol in libkl_common.a: kl::"
planted=$(plant include)
printf '#include "kl/elementwise.hpp"\n' >>"$planted/share/KernelLab/derived/derived.cpp"
check "an installed source including a family header is reported" contains "$(lab_items "$planted")" \
  "includes a lab header: share/KernelLab/derived/derived.cpp"

# Then the package itself.
found=$(lab_items "$prefix")
check "nothing lab-specific is installed" equals "$found" ""
expected=$KL_SOURCE_DIR/tests/ci/package-files.txt
listed=$(grep -v '^#' "$expected")
check "the installed files are exactly tests/ci/package-files.txt" equals "$(installed_files "$prefix")" "$listed" ||
  diff <(printf '%s\n' "$listed") <(installed_files "$prefix") >&2 || true
finish
