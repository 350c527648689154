#!/usr/bin/env python3
"""Checks of the HTML report as a person sees it (tests/ci/test_report_browser.sh).

  report_checks.py png FILE            the screenshot is not blank: exit 0, else 1
  report_checks.py xml FILE...         every file parses as XML: exit 0, else 1 naming the file
  report_checks.py points REPORT.json  prints the keys a roofline point is drawn for, one a line
"""
import json
import struct
import sys
import xml.etree.ElementTree as ET
import zlib


def png_pixels(path):
    """Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes): rows of pixels."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"{path}: only 8-bit non-interlaced RGB/RGBA is read (depth {depth}, colour {colour})")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up = previous[i]
            corner = previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, bpp, rows


def png_not_blank(path):
    width, height, bpp, rows = png_pixels(path)
    counts = {}
    for row in rows[::4]:  # every fourth row and pixel is plenty
        for x in range(0, width * bpp, 4 * bpp):
            pixel = row[x:x + 3]
            counts[pixel] = counts.get(pixel, 0) + 1
    total = sum(counts.values())
    background = max(counts.values())
    drawn = 1 - background / total
    print(f"{path}: {width}x{height}, {len(counts)} colours sampled, {100 * drawn:.1f}% not background")
    return drawn >= 0.02 and len(counts) >= 8


def main(argv):
    if len(argv) >= 3 and argv[1] == "png":
        return 0 if png_not_blank(argv[2]) else 1
    if len(argv) >= 3 and argv[1] == "xml":
        for path in argv[2:]:
            try:
                ET.parse(path)
            except ET.ParseError as e:
                print(f"{path}: not XML: {e}")
                return 1
        print(f"{len(argv) - 2} file(s) parse as XML")
        return 0
    if len(argv) == 3 and argv[1] == "points":
        with open(argv[2]) as f:
            report = json.load(f)
        for r in report["results"]:
            rate = r["value"] is not None and r["value"] > 0 and r["metric"] in ("GB/s", "TFLOPS", "TOPS")
            if rate and r["intensity"] is not None and r["intensity"] > 0:
                print(r["key"])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
