#!/usr/bin/env python3
"""Draw the web app's icons: src/handfoot/web/static/icon-192.png and icon-512.png.

The same picture as static/icon.svg (two cards on the green cloth, a spade-black diamond
and a red heart), drawn here with the standard library only (no third-party media, no image
library): every pixel is the mean of 3x3 samples, each sample painted by the shapes in
order, and the PNG written with zlib. The picture fills the square edge to edge, so it is
also a "maskable" icon (its important part sits inside the middle 80%).

    python3 scripts/make_icons.py          # rewrite both files
    python3 scripts/make_icons.py --check  # exit 1 if a file differs from what this draws
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "src" / "handfoot" / "web" / "static"
SIZES = (192, 512)
SAMPLES = 3

CLOTH = (0x1F, 0x61, 0x40)
CARD = (0xFB, 0xF6, 0xE7)
CARD2 = (0xFF, 0xFD, 0xF6)
EDGE = (0x0F, 0x3A, 0x25)
BLACK = (0x1D, 0x2A, 0x22)
RED = (0xC0, 0x39, 0x2B)

Colour = tuple[int, int, int]


def _rotate(x: float, y: float, degrees: float, cx: float = 32.0, cy: float = 34.0,
            ) -> tuple[float, float]:
    """(x, y) turned by -degrees about (cx, cy): a point in a turned card's own frame."""
    a = math.radians(-degrees)
    dx, dy = x - cx, y - cy
    return cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a)


def _in_rounded(x: float, y: float, x0: float, y0: float, x1: float, y1: float,
                r: float) -> bool:
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dx = max(abs(x - cx) - ((x1 - x0) / 2 - r), 0.0)
    dy = max(abs(y - cy) - ((y1 - y0) / 2 - r), 0.0)
    return dx * dx + dy * dy <= r * r


def _card(x: float, y: float, x0: float, y0: float) -> Colour | None:
    """A card 26 x 36 units from (x0, y0): its edge, its face, or None outside."""
    if not _in_rounded(x, y, x0 - 0.8, y0 - 0.8, x0 + 26.8, y0 + 36.8, 4.8):
        return None
    return CARD if _in_rounded(x, y, x0, y0, x0 + 26, y0 + 36, 4) else EDGE


def _heart(x: float, y: float, cx: float, cy: float, size: float) -> bool:
    u = (x - cx) / size
    v = -(y - cy) / size
    return (u * u + v * v - 1) ** 3 - u * u * v ** 3 <= 0


def sample(x: float, y: float) -> Colour:
    """The colour at (x, y) in the 64 x 64 picture."""
    colour: Colour = CLOTH
    lx, ly = _rotate(x, y, -14)
    left = _card(lx, ly, 11, 14)
    if left is not None:
        colour = left
        if left == CARD and abs(lx - 18.5) / 4.5 + abs(ly - 25) / 7 <= 1:
            colour = BLACK
    rx, ry = _rotate(x, y, 12)
    right = _card(rx, ry, 27, 14)
    if right is not None:
        colour = CARD2 if right == CARD else right
        if right == CARD and _heart(rx, ry, 40, 31.5, 7.5):
            colour = RED
    return colour


def render(size: int) -> bytes:
    """The icon as a PNG of ``size`` x ``size`` pixels."""
    rows = []
    step = 64.0 / size
    offsets = [(i + 0.5) / SAMPLES for i in range(SAMPLES)]
    n = SAMPLES * SAMPLES
    for py in range(size):
        row = bytearray(b"\x00")  # filter type 0
        for px in range(size):
            r = g = b = 0
            for oy in offsets:
                for ox in offsets:
                    cr, cg, cb = sample((px + ox) * step, (py + oy) * step)
                    r += cr
                    g += cg
                    b += cb
            row += bytes((round(r / n), round(g / n), round(b / n)))
        rows.append(bytes(row))
    return _png(size, size, b"".join(rows))


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + \
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + \
        chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main(argv: list[str]) -> int:
    check = "--check" in argv
    differ = []
    for size in SIZES:
        path = STATIC / f"icon-{size}.png"
        data = render(size)
        if check:
            if not path.exists() or path.read_bytes() != data:
                differ.append(path.name)
        else:
            path.write_bytes(data)
            print(f"{path}: {len(data)} bytes")
    if differ:
        print("differ from what scripts/make_icons.py draws: " + ", ".join(differ))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
