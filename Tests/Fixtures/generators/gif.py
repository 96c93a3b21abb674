"""GIF fixtures for GIFCoder's tests.

Most files are written byte by byte by the small writer below, so frame rectangles, disposal
modes, transparency, colour tables, interlacing, delays and loop extensions are exactly what
the tests expect. Their LZW data uses literal codes only (a clear code before the code size
would grow). `pillow_noise.gif` comes from Pillow's own LZW encoder (real compression with
code-size growth); `pillow_noise.rgba` holds Pillow's composited RGBA frames for comparison.
"""
import pathlib
import struct

import numpy as np
from PIL import Image

RED, GREEN, BLUE, WHITE, BLACK, YELLOW = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0), (255, 255, 0)


def lzw_literal(indices, min_code_size):
    """LZW data of literal codes only, re-clearing before the code size would grow."""
    clear = 1 << min_code_size
    width = min_code_size + 1
    codes = [clear]
    run = 0
    for value in indices:
        if run == clear - 2:
            codes.append(clear)
            run = 0
        codes.append(value)
        run += 1
    codes.append(clear + 1)
    out, acc, bits = bytearray(), 0, 0
    for code in codes:
        acc |= code << bits
        bits += width
        while bits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            bits -= 8
    if bits:
        out.append(acc & 0xFF)
    return bytes(out)


def sub_blocks(payload):
    out = bytearray()
    for i in range(0, len(payload), 255):
        chunk = payload[i:i + 255]
        out.append(len(chunk))
        out += chunk
    out.append(0)
    return bytes(out)


def color_table(colors):
    size = 2
    while size < len(colors):
        size *= 2
    padded = list(colors) + [BLACK] * (size - len(colors))
    return bytes(c for rgb in padded for c in rgb), size.bit_length() - 2


def gif(width, height, frames, global_colors=None, loop=None):
    """frames: dicts with rect (x, y, w, h), rows (list of index rows, in display order),
    and optional delay (cs), disposal, transparent, colors (local table), interlace."""
    out = bytearray(b"GIF89a")
    packed = 0
    table = b""
    if global_colors:
        table, bits = color_table(global_colors)
        packed = 0x80 | 0x70 | bits
    out += struct.pack("<HHBBB", width, height, packed, 0, 0) + table
    if loop is not None:
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    for frame in frames:
        if "delay" in frame or "disposal" in frame or "transparent" in frame:
            transparent = frame.get("transparent")
            flags = (frame.get("disposal", 0) << 2) | (1 if transparent is not None else 0)
            out += b"\x21\xf9\x04" + struct.pack("<BHB", flags, frame.get("delay", 0), transparent or 0) + b"\x00"
        x, y, w, h = frame["rect"]
        rows = frame["rows"]
        if frame.get("interlace"):
            order = list(range(0, h, 8)) + list(range(4, h, 8)) + list(range(2, h, 4)) + list(range(1, h, 2))
            rows = [rows[r] for r in order]
        packed = 0
        local = b""
        if frame.get("colors"):
            local, bits = color_table(frame["colors"])
            packed = 0x80 | bits
        if frame.get("interlace"):
            packed |= 0x40
        out += b"\x2c" + struct.pack("<HHHHB", x, y, w, h, packed) + local
        min_code_size = frame.get("min_code_size", 8)
        out += bytes([min_code_size]) + sub_blocks(lzw_literal([v for row in rows for v in row], min_code_size))
    out += b"\x3b"
    return bytes(out)


def solid(w, h, index):
    return [[index] * w for _ in range(h)]


def disposal_sequence(disposal):
    """8×8: red background frame, a 4×4 blue square at (2,2) whose centre (4,4) is transparent
    with the given disposal, then a 2×2 green square at (0,0)."""
    square = solid(4, 4, 2)
    square[2][2] = 3  # transparent index
    return gif(8, 8, [
        {"rect": (0, 0, 8, 8), "rows": solid(8, 8, 0), "delay": 10, "disposal": 1},
        {"rect": (2, 2, 4, 4), "rows": square, "delay": 20, "disposal": disposal, "transparent": 3},
        {"rect": (0, 0, 2, 2), "rows": solid(2, 2, 1), "delay": 30, "disposal": 1},
    ], global_colors=[RED, GREEN, BLUE, WHITE], loop=0)


def generate(out_dir: pathlib.Path):
    out_dir.mkdir(parents=True, exist_ok=True)

    # 16×16 still, quadrants red | green over blue | white, with a global table.
    quadrants = [[(0 if x < 8 else 1) if y < 8 else (2 if x < 8 else 3) for x in range(16)] for y in range(16)]
    (out_dir / "static.gif").write_bytes(
        gif(16, 16, [{"rect": (0, 0, 16, 16), "rows": quadrants}], global_colors=[RED, GREEN, BLUE, WHITE]))

    (out_dir / "disposal_none.gif").write_bytes(disposal_sequence(1))
    (out_dir / "disposal_background.gif").write_bytes(disposal_sequence(2))
    (out_dir / "disposal_previous.gif").write_bytes(disposal_sequence(3))

    # Delays 0, 1, 2 and 50 cs with loop count 3.
    frames = [{"rect": (0, 0, 4, 4), "rows": solid(4, 4, i % 2), "delay": d} for i, d in enumerate([0, 1, 2, 50])]
    (out_dir / "loop3_delays.gif").write_bytes(gif(4, 4, frames, global_colors=[RED, BLUE], loop=3))

    # Two frames, no NETSCAPE extension and no graphic control extension at all.
    frames = [{"rect": (0, 0, 4, 4), "rows": solid(4, 4, i)} for i in range(2)]
    (out_dir / "no_loop.gif").write_bytes(gif(4, 4, frames, global_colors=[RED, BLUE]))

    # 5×19 interlaced frame: row y shows palette index y % 4.
    rows = [[y % 4] * 5 for y in range(19)]
    (out_dir / "interlaced.gif").write_bytes(
        gif(5, 19, [{"rect": (0, 0, 5, 19), "rows": rows, "interlace": True}], global_colors=[RED, GREEN, BLUE, WHITE]))

    # Frame 0 uses the global table (index 0 = red); frame 1 has a local table (index 0 = yellow)
    # and covers only the left half; no global table is needed by frame 2 (local, index 1 = white).
    (out_dir / "local_palette.gif").write_bytes(gif(4, 4, [
        {"rect": (0, 0, 4, 4), "rows": solid(4, 4, 0), "delay": 10},
        {"rect": (0, 0, 2, 4), "rows": solid(2, 4, 0), "delay": 10, "colors": [YELLOW, BLACK]},
        {"rect": (3, 3, 1, 1), "rows": solid(1, 1, 1), "delay": 10, "colors": [BLACK, WHITE], "min_code_size": 2},
    ], global_colors=[RED, GREEN], loop=0))

    # Real LZW from Pillow: 3 frames of 48×40 noise over 64 colours.
    rng = np.random.default_rng(7)
    palette = rng.integers(0, 256, size=(64, 3), dtype=np.uint8)
    images = []
    for _ in range(3):
        idx = rng.integers(0, 64, size=(40, 48), dtype=np.uint8)
        idx[10:30, 8:40] = idx[10, 8]  # a flat block so the encoder finds long runs
        im = Image.fromarray(idx, mode="P")
        im.putpalette(palette.flatten().tolist())
        images.append(im)
    path = out_dir / "pillow_noise.gif"
    images[0].save(path, save_all=True, append_images=images[1:], duration=[40, 40, 40], loop=2,
                   disposal=1, optimize=False)
    decoded = Image.open(path)
    expected = bytearray()
    for i in range(decoded.n_frames):
        decoded.seek(i)
        expected += decoded.convert("RGBA").tobytes()
    (out_dir / "pillow_noise.rgba").write_bytes(bytes(expected))
