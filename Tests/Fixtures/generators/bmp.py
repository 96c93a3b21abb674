"""BMP fixtures: Pillow writes the common kinds; the rest are put together here byte by byte
(Pillow writes no RLE, 4-bit, 16-bit, top-down or core-header files). Reference pixels are
Pillow's decodes as raw RGBA next to each file.

rgb24.bmp      40x30 24-bit (rows padded: 40 * 3 = 120 bytes)
rgb24_odd.bmp  13x7 24-bit (row padding of 1 byte)
rgbx32.bmp     20x10 32-bit BI_RGB, as Pillow writes RGBA: the fourth byte is padding, not alpha
argb32_v4.bmp  20x10 32-bit BI_BITFIELDS with a V4 header and an alpha mask  (by hand)
gray8.bmp      40x30 8-bit gray palette
pal8.bmp       40x30 8-bit, 32-colour palette (clrUsed = 32)
mono1.bmp      37x9 1-bit
pal4.bmp       21x5 4-bit, 16 colours                          (by hand)
rgb565.bmp     16x8 16-bit BI_BITFIELDS 5-6-5                   (by hand)
rgb555.bmp     16x8 16-bit BI_RGB (5-5-5 by default)            (by hand)
topdown.bmp    12x6 24-bit with a negative height               (by hand)
rle8.bmp       24x6 RLE8, encoded and absolute runs              (by hand)
rle4.bmp       24x6 RLE4, encoded and absolute runs              (by hand)
core8.bmp      10x4 8-bit with a 12-byte OS/2 core header        (by hand)
"""
import pathlib
import struct

import numpy as np
from PIL import Image

from _pillow_reference import write_rgba


def _photo(w, h, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, size=(h, w, 3)).astype(np.uint8)


def _file(info: bytes, palette: bytes, pixels: bytes) -> bytes:
    offset = 14 + len(info) + len(palette)
    return b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset) + info + palette + pixels


def _info(width, height, bits, compression=0, image_size=0, colors=0):
    return struct.pack("<IiiHHIIiiII", 40, width, height, 1, bits, compression, image_size, 2835, 2835, colors, 0)


def _palette(colours):
    return b"".join(struct.pack("BBBB", b, g, r, 0) for r, g, b in colours)


def _rows(rows_bottom_up, row_bytes):
    return b"".join(row + b"\0" * (row_bytes - len(row)) for row in rows_bottom_up)


COLOURS16 = [(i * 16, 255 - i * 16, (i * 97) % 256) for i in range(16)]


def generate(out_dir: pathlib.Path):
    Image.fromarray(_photo(40, 30, 1), "RGB").save(out_dir / "rgb24.bmp")
    Image.fromarray(_photo(13, 7, 2), "RGB").save(out_dir / "rgb24_odd.bmp")
    rgba = np.zeros((10, 20, 4), np.uint8)
    rgba[:, :, :3] = _photo(20, 10, 3)
    rgba[:, :, 3] = np.tile(np.array([255, 128, 0, 64], np.uint8), 5)
    Image.fromarray(rgba, "RGBA").save(out_dir / "rgbx32.bmp")
    v4 = struct.pack("<IiiHHIIiiII", 108, 20, 10, 1, 32, 3, 800, 2835, 2835, 0, 0)
    v4 += struct.pack("<IIII", 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000) + b"BGRs" + b"\0" * 48
    rows = [rgba[y][:, [2, 1, 0, 3]].tobytes() for y in reversed(range(10))]
    (out_dir / "argb32_v4.bmp").write_bytes(_file(v4, b"", _rows(rows, 80)))
    Image.fromarray(_photo(40, 30, 4)[:, :, 0], "L").save(out_dir / "gray8.bmp")
    Image.fromarray(_photo(40, 30, 5), "RGB").quantize(colors=32, dither=Image.Dither.NONE).save(out_dir / "pal8.bmp")
    Image.fromarray(_photo(37, 9, 6)[:, :, 0] > 127).save(out_dir / "mono1.bmp")

    # 4-bit: 21 pixels a row, two a byte, rows padded to 12 bytes.
    rng = np.random.default_rng(7)
    indices = rng.integers(0, 16, size=(5, 21))
    rows = []
    for y in reversed(range(5)):
        row = list(indices[y]) + [0]
        rows.append(bytes((row[i] << 4) | row[i + 1] for i in range(0, 22, 2)))
    (out_dir / "pal4.bmp").write_bytes(_file(_info(21, 5, 4, colors=16), _palette(COLOURS16), _rows(rows, 12)))

    # 16-bit: 5-6-5 in bit fields, and the default 5-5-5.
    values = rng.integers(0, 65536, size=(8, 16)).astype(np.uint16)
    rows = [values[y].astype("<u2").tobytes() for y in reversed(range(8))]
    masks = struct.pack("<III", 0xF800, 0x07E0, 0x001F)
    (out_dir / "rgb565.bmp").write_bytes(_file(_info(16, 8, 16, compression=3), masks, _rows(rows, 32)))
    (out_dir / "rgb555.bmp").write_bytes(_file(_info(16, 8, 16), b"", _rows(rows, 32)))

    # Top-down 24-bit: the first stored row is the top one.
    pixels = _photo(12, 6, 8)
    rows = [pixels[y, :, ::-1].tobytes() for y in range(6)]
    (out_dir / "topdown.bmp").write_bytes(_file(_info(12, -6, 24), b"", _rows(rows, 36)))

    # RLE8 and RLE4, bottom-up, every pixel written: per row an encoded run of 10, an absolute
    # run of 6, an encoded run of 8, then end of line; end of bitmap after the last row.
    palette = _palette(COLOURS16)
    rle8 = b""
    rle4 = b""
    for y in range(6):
        absolute = [(y + k) % 16 for k in range(6)]
        rle8 += bytes([10, y % 16, 0, 6] + absolute + [8, (y + 7) % 16, 0, 0])
        packed4 = bytes((absolute[i] << 4) | absolute[i + 1] for i in range(0, 6, 2))
        rle4 += bytes([10, (y << 4) | (15 - y), 0, 6]) + packed4 + b"\0" + bytes([8, 0x5A, 0, 0])
    rle8 += b"\0\1"
    rle4 += b"\0\1"
    (out_dir / "rle8.bmp").write_bytes(_file(_info(24, 6, 8, compression=1, image_size=len(rle8), colors=16),
                                             palette, rle8))
    (out_dir / "rle4.bmp").write_bytes(_file(_info(24, 6, 4, compression=2, image_size=len(rle4), colors=16),
                                             palette, rle4))

    # OS/2 core header: 16-bit sizes and 3-byte palette entries.
    core = struct.pack("<IHHHH", 12, 10, 4, 1, 8)
    core_palette = b"".join(struct.pack("BBB", b, g, r) for r, g, b in COLOURS16) + b"\0" * 3 * 240
    rows = [bytes((x + y) % 16 for x in range(10)) for y in reversed(range(4))]
    (out_dir / "core8.bmp").write_bytes(_file(core, core_palette, _rows(rows, 12)))

    for path in sorted(out_dir.glob("*.bmp")):
        write_rgba(path)
