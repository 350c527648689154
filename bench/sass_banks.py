#!/usr/bin/env python3
"""How hard a kernel's FFMA stream presses on the register file, read from its SASS.

usage: cuobjdump -sass OBJECT | bench/sass_banks.py [--match REGEX] [FILE]
       bench/sass_banks.py [--match REGEX] KERNELS.cubin

For each function of `cuobjdump -sass` text (FILE, or standard input) that has FFMAs, and whose
name matches REGEX: its instructions, its FFMAs, how many of their register sources the operand
reuse cache serves, and how many extra register-file reads the others cost by sharing a bank.
Rows are sorted by the extra reads a thousand FFMAs (4 banks), fewest first.

A cubin (`nvcc -cubin -arch=sm_90`) is read directly, without cuobjdump: its machine code is
decoded where the counts need it (which instructions are FFMA, their source registers and reuse
flags), so a build machine without the disassembler can rank candidates before they are timed.

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
Exit status: 0 with a table; 2 when the input holds no SASS function, none with FFMAs matches, a
cubin holds an FFMA form this reader does not decode, or a flag is wrong.
"""
import argparse
import re
import shutil
import struct
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
        """One instruction of cuobjdump's text: its opcode and operand list."""
        if opcode.split(".")[0] != "FFMA":
            self.add_other()
            return
        slots = [REGISTER.match(o.strip()) for o in operands.split(",")[1:4]]
        self.add_ffma([(int(m.group(1)), bool(m.group(2))) if m else None for m in slots])

    def add_other(self):
        self.instructions += 1
        self.previous_ffma = None

    def add_ffma(self, sources):
        """An FFMA whose slots a, b, c read (register, reuse flag), or None: no register-file read."""
        self.instructions += 1
        self.ffma += 1
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


# The sm_90 instruction word as far as the counts need it (NVIDIA documents none of it). 128 bits
# in two little-endian 64-bit words. Low word: bits 0-11 the opcode and its operand form, 16-23 the
# destination, 24-31 source a, 32-39 source b where b is a register (32-63 where it is an
# immediate). High word: bits 0-7 source c, and in the control bits at the top, 58-60 the reuse
# flags of slots a, b and c. The register form was checked on the H100 machine against cuobjdump:
# this reader and `cuobjdump -sass | sass_banks.py` give the same rows for every kernel of
# 27_tuned.cu (2026-11-27). The immediate form was read from a kernel compiled for the purpose (its
# constant 3.5f in bits 32-63). Other forms (a constant or a uniform register as b) are refused.
FFMA_OPCODE = 0x023       # the low 9 bits of every FFMA
FFMA_B_REGISTER = 0x223   # FFMA Rd, Ra, Rb, Rc
FFMA_B_IMMEDIATE = 0x823  # FFMA Rd, Ra, 0.5, Rc
RZ = 255
EM_CUDA = 190


class CubinError(Exception):
    pass


def read_cubin(data, path):
    """The FFMA-counting view of every kernel in a cubin's .text.<name> sections."""
    if data[4] != 2 or data[5] != 1:
        raise CubinError(f"{path} is not a 64-bit little-endian ELF")
    machine = struct.unpack_from("<H", data, 0x12)[0]
    if machine != EM_CUDA:
        raise CubinError(f"{path} is an ELF for machine {machine}, not a cubin (machine {EM_CUDA}): give it "
                         "the output of nvcc -cubin, or the text of cuobjdump -sass")
    section_table = struct.unpack_from("<Q", data, 0x28)[0]
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, section_table + i * entry_size) for i in range(count)]
    names_at = headers[names_index][4]

    def name_of(header):
        start = names_at + header[0]
        return data[start:data.index(b"\0", start)].decode()

    functions = []
    for header in headers:
        name, offset, size = name_of(header), header[4], header[5]
        if not name.startswith(".text.") or size % 16:
            continue
        function = Function(name[len(".text."):])
        for at in range(offset, offset + size, 16):
            low, high = struct.unpack_from("<QQ", data, at)
            opcode = low & 0xFFF
            if opcode & 0x1FF != FFMA_OPCODE:
                function.add_other()
                continue
            if opcode not in (FFMA_B_REGISTER, FFMA_B_IMMEDIATE):
                raise CubinError(f"{function.name} at 0x{at - offset:x}: FFMA form 0x{opcode:03x} is not decoded "
                                 "here: read this kernel through cuobjdump -sass")
            reuse = high >> 58
            registers = [(low >> 24) & 0xFF, (low >> 32) & 0xFF if opcode == FFMA_B_REGISTER else RZ, high & 0xFF]
            function.add_ffma([None if r == RZ else (r, bool(reuse >> slot & 1)) for slot, r in enumerate(registers)])
        functions.append(function)
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
    parser.add_argument("file", nargs="?", help="cuobjdump -sass output or a cubin (default: standard input, text)")
    parser.add_argument("--match", default="", help="only functions whose demangled or mangled name matches this regex")
    args = parser.parse_args()
    try:
        pattern = re.compile(args.match)
    except re.error as e:
        print(f"sass_banks.py: --match '{args.match}' is not a regular expression: {e}", file=sys.stderr)
        return 2
    data = b""
    if args.file:
        try:
            with open(args.file, "rb") as f:
                data = f.read()
        except OSError as e:
            print(f"sass_banks.py: cannot read {args.file}: {e.strerror}", file=sys.stderr)
            return 2
    if data.startswith(b"\x7fELF"):
        try:
            functions = read_cubin(data, args.file)
        except (CubinError, struct.error, ValueError, IndexError) as e:
            print(f"sass_banks.py: {e if isinstance(e, CubinError) else f'{args.file}: a damaged ELF ({e})'}",
                  file=sys.stderr)
            return 2
        if not functions:
            print(f"sass_banks.py: no kernel code (.text.*) in {args.file}", file=sys.stderr)
            return 2
    else:
        text = data.decode("utf-8", errors="replace").splitlines() if args.file else sys.stdin
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
