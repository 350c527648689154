#!/usr/bin/env bash
# bench/sass_banks.py on a hand-made SASS excerpt (bench/testdata/sass_banks.sass) whose counts are
# worked out below, on the same functions as a cubin's machine code, and its refusals of input it
# cannot read.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
tool=$KL_SOURCE_DIR/bench/sass_banks.py
fixture=$KL_SOURCE_DIR/bench/testdata/sass_banks.sass
# A row, whether or not c++filt was there to demangle its name.
row() { printf '%s\n' "$out" | grep -E "^\| ($1) \|" || true; }

# first(float*, float*): 10 instructions, 7 FFMA (the predicated one too; LDC, IADD3, EXIT are not).
#   R0 = R4.reuse*R8+R12   nothing before it: R4 R8 R12 all fetched, one bank of 4 (and of 2): +2
#   R1 = R4*R9+R13         R4 from the cache (slot a, flagged before); R9 R13 share bank 1: +1
#   R2 = R5*R9.reuse+R16   R9 not cached (the FFMA before did not flag it); R5 R9 share bank 1: +1
#   R3 = R6*R9+RZ          R9 from the cache; RZ is no read: +0
#   IADD3                  empties the cache
#   R3 = R6.reuse*R9+R3    nothing cached; banks 2, 1, 3 (4 banks): +0; R9 R3 odd (2 banks): +1
#   R3 = -R6*R10+R3        R6 from the cache (negated); banks 2, 3: +0
#   R20 = R21*0.5+R21      one register read once, an immediate: +0
#   So 3 sources from the cache, 4 extra reads with 4 banks, 5 with 2; 4 / 7 FFMA = 571 a 1000.
# third(float*): R1 R5 R9 all in bank 1 (+2, 2 banks +2); then R2 R3 R0: banks 2, 3, 0 (+0) but
#   R2 R0 even (+1 with 2 banks). 0 from the cache, 2 and 3 extra reads, 1000 a 1000 FFMA.
# second(): no FFMA, no row.
run_captured "$tool" "$fixture"
check "a table: exit 0" equals "$status" 0
check "first's counts" contains "$(row 'first\(float\*, float\*\)|_Z5firstPfS_')" "\| 10 \| 7 \| 3 \| 4 \| 5 \| 571 \|$"
check "third's counts" contains "$(row 'third\(float\*\)|_Z5thirdPf')" "\| 2 \| 2 \| 0 \| 2 \| 3 \| 1000 \|$"
check "no row for a function without FFMA" equals "$(row 'second\(\)|_Z6secondv')" ""
check "fewest extra reads first" contains "$(printf '%s\n' "$out" | sed -n 3p)" "first|_Z5first"

run_captured "$tool" --match third "$fixture"
check "--match: third's row" contains "$(row 'third\(float\*\)|_Z5thirdPf')" "\| 1000 \|$"
check "--match: no other row" equals "$(row 'first\(float\*, float\*\)|_Z5firstPfS_')" ""

run_captured "$tool" --match 'no_such_kernel' "$fixture"
check "no match: exit 2" equals "$status" 2
check "no match: says so" contains "$out" "no function with FFMAs matches 'no_such_kernel' \(3 functions read\)"

run_captured "$tool" --match '(' "$fixture"
check "a bad regex: exit 2" equals "$status" 2
check "a bad regex: named" contains "$out" "--match '\(' is not a regular expression"

printf 'not sass at all\n' > "$scratch/plain.txt"
run_captured "$tool" "$scratch/plain.txt"
check "text without SASS: exit 2" equals "$status" 2
check "text without SASS: says what to give it" contains "$out" "no 'Function :' in the input: give it the text of cuobjdump -sass"

# The same functions as a cubin's machine code (tests/ci/make_sass_banks_cubin.py): the same rows.
maker=$KL_SOURCE_DIR/tests/ci/make_sass_banks_cubin.py
python3 "$maker" "$scratch/fixture.cubin"
run_captured "$tool" "$scratch/fixture.cubin"
check "a cubin: exit 0" equals "$status" 0
check "a cubin: first's counts" contains "$(row 'first\(float\*, float\*\)|_Z5firstPfS_')" "\| 10 \| 7 \| 3 \| 4 \| 5 \| 571 \|$"
check "a cubin: third's counts" contains "$(row 'third\(float\*\)|_Z5thirdPf')" "\| 2 \| 2 \| 0 \| 2 \| 3 \| 1000 \|$"
check "a cubin: no row for a function without FFMA" equals "$(row 'second\(\)|_Z6secondv')" ""

python3 "$maker" "$scratch/other_form.cubin" --ffma-form a23
run_captured "$tool" "$scratch/other_form.cubin"
check "an FFMA form not decoded: exit 2" equals "$status" 2
check "an FFMA form not decoded: named, and where" contains "$out" "_Z5firstPfS_ at 0x80: FFMA form 0xa23 is not decoded here"

python3 "$maker" "$scratch/host.o" --machine 62
run_captured "$tool" "$scratch/host.o"
check "a host ELF: exit 2" equals "$status" 2
check "a host ELF: says what to give it" contains "$out" "is an ELF for machine 62, not a cubin \(machine 190\)"

run_captured "$tool" "$scratch/no_such.cubin"
check "a missing file: exit 2" equals "$status" 2
check "a missing file: named" contains "$out" "cannot read .*no_such.cubin"

run_captured "$tool" --no-such-flag "$fixture"
check "an unknown flag: exit 2" equals "$status" 2
finish
