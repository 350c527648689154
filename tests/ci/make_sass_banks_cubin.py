#!/usr/bin/env python3
"""Writes the cubins tests/ci/test_sass_banks.sh feeds bench/sass_banks.py.

usage: make_sass_banks_cubin.py OUT.cubin [--ffma-form HEX] [--machine N]

The functions of bench/testdata/sass_banks.sass, instruction by instruction, in sm_90 machine
words (the fields bench/sass_banks.py documents), so the cubin reader must give the text reader's
rows. --ffma-form writes first()'s immediate FFMA with another operand form; --machine another
ELF machine number (62: x86-64).
"""
import argparse
import struct

PT = 0x7000  # the predicate field of an unpredicated instruction
OTHER = (0x00000A00FF017B82, 0x000FE20000000800)  # LDC R1, c[0x0][0x28]
IADD3 = (0x0000000107077810, 0x000FE20007FFE0FF)
MOV = (0x0000000200017202, 0x000FE20000000F00)
EXIT = (0x000000000000794D, 0x000FEA0003800000)
REUSE_A, REUSE_B = 1 << 58, 1 << 59
RZ = 255


def ffma(d, a, b, c, reuse=0, predicate=PT, form=0x223):
    """FFMA Rd, Ra, Rb, Rc; with form 0x823 b is the 32-bit immediate."""
    return (form | predicate | d << 16 | a << 24 | b << 32, 0x000FE20000000000 | c | reuse)


def functions(immediate_form):
    first = [OTHER,
             ffma(0, 4, 8, 12, REUSE_A),
             ffma(1, 4, 9, 13),
             ffma(2, 5, 9, 16, REUSE_B),
             ffma(3, 6, 9, RZ),
             IADD3,
             ffma(3, 6, 9, 3, REUSE_A),
             ffma(3, 6, 10, 3, predicate=0),  # @P0 (the text's negation of a changes no register)
             ffma(20, 21, 0x3F000000, 21, form=immediate_form),  # * 0.5
             EXIT]
    third = [ffma(0, 1, 5, 9), ffma(0, 2, 3, 0)]
    return [("_Z5firstPfS_", first), ("_Z6secondv", [MOV, EXIT]), ("_Z5thirdPf", third)]


def cubin(kernels, machine):
    names = b"\0.shstrtab\0" + b"".join(b".text." + n.encode() + b"\0" for n, _ in kernels)
    texts = [b"".join(struct.pack("<QQ", *word) for word in words) for _, words in kernels]
    body_at = 64
    sections = [(0, 0, 0, 0), (1, 3, body_at, len(names))]  # null, .shstrtab
    at, name_at = body_at + len(names), 1 + len(".shstrtab") + 1
    at += -at % 16
    bodies = names + b"\0" * (-(body_at + len(names)) % 16)
    for (name, _), text in zip(kernels, texts):
        sections.append((name_at, 1, at, len(text)))  # PROGBITS
        name_at += len(".text.") + len(name) + 1
        bodies += text
        at += len(text)
    header = struct.pack("<4sBBBB8xHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0x33, 2, machine, 1, 0, 0, at, 0, 64, 0, 0,
                         64, len(sections), 1)
    table = b"".join(struct.pack("<IIQQQQIIQQ", n, t, 0, 0, off, size, 0, 0, 16 if t == 1 else 1, 0)
                     for n, t, off, size in sections)
    return header + bodies + table


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--ffma-form", type=lambda x: int(x, 16), default=0x823)
    parser.add_argument("--machine", type=int, default=190)
    args = parser.parse_args()
    with open(args.out, "wb") as f:
        f.write(cubin(functions(args.ffma_form), args.machine))


if __name__ == "__main__":
    main()
