"""The pixels of a PNG screenshot (8-bit RGB or RGBA, not interlaced: what headless Chromium writes),
read with the standard library only — enough to ask what colours a screenshot shows."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def rows(path: Path) -> list[list[tuple[int, int, int]]]:
    """The image as rows of (r, g, b)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and not interlace, (depth, colour, interlace)
            step = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, out, prev = zlib.decompress(idat), width * step, [], bytearray(width * step)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, cur = line[0], bytearray(line[1:])
        for i in range(stride):
            a = cur[i - step] if i >= step else 0
            b, c = prev[i], prev[i - step] if i >= step else 0
            cur[i] = (cur[i] + (0, a, b, (a + b) // 2, _paeth(a, b, c))[kind]) & 0xFF
        out.append([tuple(cur[x:x + 3]) for x in range(0, stride, step)])
        prev = cur
    return out
