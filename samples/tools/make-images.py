#!/usr/bin/env python3
"""Writes the small PNG images of the sample books (deterministic: same bytes on every run).

The PNGs are committed; run this only to regenerate them:
    python3 samples/tools/make-images.py
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.dirname(HERE)


def png(width, height, pixel):
    """An 8-bit RGB PNG whose pixel (x, y) is pixel(x, y) -> (r, g, b)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        for x in range(width):
            rows.extend(pixel(x, y))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def lighthouse_cover(x, y):
    """Night sky, sea, a white tower with a yellow lamp and a beam to the left."""
    w, h = 200, 300
    sea = 220
    if y >= sea:
        return (20, 40 + (y - sea) // 4, 70 + (y - sea) // 3)
    cx = w // 2
    top = 90
    half = 12 + (y - top) * 10 // (sea - top) if y >= top else 0
    if top <= y < sea and abs(x - cx) <= half:
        band = ((y - top) // 25) % 2
        return (200, 40, 40) if band else (240, 240, 235)
    if 70 <= y < top and abs(x - cx) <= 10:
        return (255, 220, 90)
    # beam: a wedge from the lamp towards the left edge
    if x < cx and 70 <= y < 90 + (cx - x) // 3 and y > 70 - (cx - x) // 3:
        return (90, 90, 60)
    return (10, 15, 40 + y // 8)


def machines_cover(x, y):
    """Paper ground with a dark gear-like ring and a rule."""
    w, h = 200, 300
    dx, dy = x - w // 2, y - 130
    r2 = dx * dx + dy * dy
    if 45 * 45 <= r2 <= 60 * 60:
        return (60, 50, 40)
    if r2 <= 12 * 12:
        return (60, 50, 40)
    if 60 * 60 < r2 <= 68 * 68 and ((x // 8 + y // 8) % 2 == 0):
        return (60, 50, 40)
    if 230 <= y <= 233 and 30 <= x <= 170:
        return (120, 30, 30)
    return (236, 228, 210)


def escapement_figure(x, y):
    """A toothed wheel and a pallet bar: the figure of chapter 4."""
    w, h = 240, 160
    dx, dy = x - 90, y - 90
    r2 = dx * dx + dy * dy
    if r2 <= 50 * 50:
        return (80, 80, 80) if r2 >= 44 * 44 or r2 <= 6 * 6 else (245, 245, 245)
    if r2 <= 60 * 60 and ((x + y) // 7) % 2 == 0:
        return (80, 80, 80)
    if 20 <= y <= 26 and 60 <= x <= 220:
        return (140, 60, 20)
    if 150 <= x <= 156 and 20 <= y <= 60:
        return (140, 60, 20)
    return (255, 255, 255)


def write(path, data):
    full = os.path.join(SAMPLES, path)
    with open(full, "wb") as f:
        f.write(data)
    print(full, len(data), "bytes")


if __name__ == "__main__":
    write("the-lighthouse-keepers-daughter/OEBPS/images/cover.png", png(200, 300, lighthouse_cover))
    write("a-treatise-on-small-machines/OEBPS/images/cover.png", png(200, 300, machines_cover))
    write("a-treatise-on-small-machines/OEBPS/images/fig-escapement.png", png(240, 160, escapement_figure))
