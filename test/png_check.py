#!/usr/bin/env python3
"""png_check.py FILE.png MIN_COLOURS NAME=R,G,B:MIN_PIXELS ...: is a screenshot a picture, not blank?

Decodes the PNG (8-bit greyscale, RGB or RGBA, not interlaced, as browsers write screenshots) and counts its
distinct colours, which must be at least MIN_COLOURS, and, for each NAME, the pixels of that colour's hue
(within 12 degrees, saturation at least 0.3, not dark): lit and seen through translucent surfaces, a colour
keeps its hue against a grey background. Each must have at least MIN_PIXELS. Prints the counts, then
"png ok", or what is missing and exits 1. Standard library only.
"""
import colorsys
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    at, idat, header = 8, [], None
    while at < len(data):
        length, kind = struct.unpack_from(">I4s", data, at)
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        at += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    channels = {0: 1, 2: 3, 6: 4}.get(colour_type)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError("unsupported PNG: depth %d, colour type %d, interlace %d" % (depth, colour_type, interlace))
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        unfilter(kind, row, previous, channels)
        rows.append(row)
        previous = row
    return width, height, channels, rows


def unfilter(kind, row, up, bpp):
    """Undoes one row's PNG filter in place (None, Sub, Up, Average, Paeth)."""
    for i in range(len(row)):
        left = row[i - bpp] if i >= bpp else 0
        upper_left = up[i - bpp] if i >= bpp else 0
        if kind == 1:
            row[i] = (row[i] + left) & 255
        elif kind == 2:
            row[i] = (row[i] + up[i]) & 255
        elif kind == 3:
            row[i] = (row[i] + (left + up[i]) // 2) & 255
        elif kind == 4:
            p = left + up[i] - upper_left
            pa, pb, pc = abs(p - left), abs(p - up[i]), abs(p - upper_left)
            row[i] = (row[i] + (left if pa <= pb and pa <= pc else up[i] if pb <= pc else upper_left)) & 255


def pixels(width, channels, rows):
    for row in rows:
        for x in range(width):
            if channels == 1:
                yield (row[x],) * 3
            else:
                yield tuple(row[x * channels:x * channels + 3])


def hue_of(rgb):
    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    return h * 360, s, v


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    width, height, channels, rows = read_png(argv[1])
    min_colours = int(argv[2])
    wanted = []
    for arg in argv[3:]:
        name, rest = arg.split("=")
        rgb, least = rest.split(":")
        wanted.append((name, hue_of([float(c) * 255 for c in rgb.split(",")])[0], int(least)))
    counts = {}
    found = dict((name, 0) for name, _, _ in wanted)
    for p in pixels(width, channels, rows):
        counts[p] = counts.get(p, 0) + 1
    for p, n in counts.items():
        h, s, v = hue_of(p)
        if s < 0.3 or v < 0.15:
            continue
        for name, hue, _ in wanted:
            if min(abs(h - hue), 360 - abs(h - hue)) <= 12:
                found[name] += n
    print("%dx%d, %d distinct colours" % (width, height, len(counts)))
    bad = []
    if len(counts) < min_colours:
        bad.append("fewer than %d distinct colours" % min_colours)
    for name, _, least in wanted:
        print("%s: %d pixels" % (name, found[name]))
        if found[name] < least:
            bad.append("fewer than %d pixels of %s" % (least, name))
    print("png ok" if not bad else "png bad: " + "; ".join(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
