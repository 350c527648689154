#!/usr/bin/env python3
"""How hard a kernel's FFMA stream presses on the register file, read from its SASS.

usage: cuobjdump -sass OBJECT | bench/sass_banks.py [--match REGEX] [FILE]

For each function of `cuobjdump -sass` text (FILE, or standard input) that has FFMAs, and whose
name matches REGEX: its instructions, its FFMAs, how many of their register sources the operand
reuse cache serves, and how many extra register-file reads the others cost by sharing a bank.
Rows are sorted by the extra reads a thousand FFMAs (4 banks), fewest first.

Why: every order of the tuned SGEMM's FMAs (kernels/matmul/sgemm_prefetched.cuh) has the same
1024 FFMAs a tile, yet they run 0.83-0.96x cuBLAS on the H100; what differs is the register
assignment and reuse flags ptxas chose, and this count ranks the orders as the clock does, coarsely
(rank correlation 0.84 over eighteen orders; docs/SGEMM_LADDER.md "The FMA order, again").

The model (NVIDIA does not document the register file; this is the usual reading of it):
- An FFMA's three sources are slots a, b and c. A source is served by the reuse cache when the
  instruction right before it in program order is an FFMA that read the same register in the
  same slot and flagged it `.reuse`. Any other instruction in between empties the cache.
- The register file has banks: register Rn is in bank n % 4 (n % 2 in the second count). The
  distinct registers an FFMA still reads from the file cost one extra read for each beyond the
  first in the same bank. RZ, immediates and constants are not read from the file.
Exit status: 0 with a table; 2 when the input holds no SASS function, none with FFMAs matches, or\na flag is wrong.
"""
import argparse
import re
import shutil
import subprocess
import sys

FUNCTION = re.compile(r"^\s*Function : (\S+)")
INSTRUCTION = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?)\s*;")
REGISTER = re.compile(r"^[-|!]*R(\d+)(\.reuse)?\|?$")


class Function:
    def __init__(self, name):
        self.name = name
        self.instructions = 0
        self.ffma = 0
        self.from_cache = 0
        self.extra_reads = {4: 0, 2: 0}
        self.previous_ffma = None  # [(register, reuse flag) or None] for slots a, b, c

    def add(self, opcode, operands):
        self.instructions += 1
        if opcode.split(".")[0] != "FFMA":
            self.previous_ffma = None
            return
        self.ffma += 1
        slots = [REGISTER.match(o.strip()) for o in operands.split(",")[1:4]]
        sources = [(int(m.group(1)), bool(m.group(2))) if m else None for m in slots]
        fetched = set()
        for slot, source in enumerate(sources):
            if source is None:
                continue
            before = self.previous_ffma[slot] if self.previous_ffma else None
            if before is not None and before[0] == source[0] and before[1]:
                self.from_cache += 1
            else:
                fetched.add(source[0])
        for banks in self.extra_reads:
            per_bank = {}
            for register in fetched:
                per_bank[register % banks] = per_bank.get(register % banks, 0) + 1
            self.extra_reads[banks] += sum(count - 1 for count in per_bank.values())
        self.previous_ffma = sources


def read_functions(lines):
    functions, current = [], None
    for line in lines:
        header = FUNCTION.match(line)
        if header:
            current = Function(header.group(1))
            functions.append(current)
            continue
        instruction = INSTRUCTION.match(line)
        if instruction and current is not None:
            current.add(instruction.group(1), instruction.group(2))
    return functions


def demangled(names):
    """The names as c++filt writes them, or as given where c++filt is not installed."""
    tool = shutil.which("c++filt")
    if not tool or not names:
        return names
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True, check=False).stdout
    lines = out.splitlines()
    return lines if len(lines) == len(names) else names


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", help="cuobjdump -sass output (default: standard input)")
    parser.add_argument("--match", default="", help="only functions whose demangled or mangled name matches this regex")
    args = parser.parse_args()
    try:
        pattern = re.compile(args.match)
    except re.error as e:
        print(f"sass_banks.py: --match '{args.match}' is not a regular expression: {e}", file=sys.stderr)
        return 2
    with (open(args.file, encoding="utf-8", errors="replace") if args.file else sys.stdin) as text:
        functions = read_functions(text)
    if not functions:
        print("sass_banks.py: no 'Function :' in the input: give it the text of cuobjdump -sass", file=sys.stderr)
        return 2
    rows = []
    for f, name in zip(functions, demangled([f.name for f in functions])):
        if f.ffma and (pattern.search(name) or pattern.search(f.name)):
            rows.append((f.extra_reads[4] * 1000 / f.ffma, name, f))
    if not rows:
        print(f"sass_banks.py: no function with FFMAs matches '{args.match}' ({len(functions)} functions read)",
              file=sys.stderr)
        return 2
    print("| function | instructions | FFMA | sources from the reuse cache | extra reads, 4 banks "
          "| extra reads, 2 banks | extra reads a 1000 FFMA (4 banks) |")
    print("|---|---|---|---|---|---|---|")
    for per_thousand, name, f in sorted(rows, key=lambda r: (r[0], r[1])):
        print(f"| {name} | {f.instructions} | {f.ffma} | {f.from_cache} | {f.extra_reads[4]} | {f.extra_reads[2]} "
              f"| {per_thousand:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
