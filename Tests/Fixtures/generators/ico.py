"""ICO fixtures: PNG entries as Pillow writes them, bitmap entries put together here byte by byte
(Pillow writes its bitmap entries with an AND mask of zeros, or none at 32 bits). Reference
pixels are Pillow's decodes as raw RGBA next to each file: `name.rgba` is the entry Pillow opens
(the largest), `name_<size>.rgba` another entry's.

png_multi.ico  PNG entries of 16, 32, 48 and 64 pixels square, from one RGBA picture (Pillow)
bmp32.ico      20x20 32-bit bitmap whose fourth bytes are alpha, no AND mask (Pillow)
bmp24.ico      13x9 24-bit, rows padded, an AND mask with holes                   (by hand)
bmp8.ico       16x16 8-bit with a 32-colour palette (clrUsed 32) and a mask         (by hand)
bmp4.ico       21x11 4-bit, 16 colours, and a mask                                  (by hand)
bmp1.ico       37x9 1-bit, two colours, a mask wider than 32 pixels                 (by hand)
mixed.ico      a 16x16 24-bit bitmap, a 48x48 PNG and a 32x32 8-bit bitmap, in that
               order, each drawn differently: the coder picks one by size        (by hand)
"""
import io
import pathlib
import struct

import numpy as np
from PIL import Image

from _pictures import gradient, pack_bits, photo


def _picture_rgba(size, seed):
    rgba = np.zeros((size, size, 4), np.uint8)
    rgba[:, :, :3] = photo(size, size, seed, 20)
    y, x = np.mgrid[0:size, 0:size]
    rgba[:, :, 3] = np.where((x + y) % 7 == 0, 0, 255 - (x * 255 // max(size - 1, 1)) // 2)
    return rgba


def _mask(width, height, seed):
    """True where the AND mask hides the pixel: a seeded scatter plus the whole first column."""
    hidden = np.random.default_rng(seed).random((height, width)) < 0.3
    hidden[:, 0] = True
    return hidden


def _padded(row, size):
    return row + b"\0" * (size - len(row))


def _dib(width, height, bits, rows_top_down, hidden, palette=b"", colors_used=0):
    """A DIB as ICO stores it: header with the height doubled, palette, colour rows and AND mask
    bottom-up, each row padded to 4 bytes."""
    row_bytes = (width * bits + 31) // 32 * 4
    mask_bytes = (width + 31) // 32 * 4
    pixels = b"".join(_padded(row, row_bytes) for row in reversed(rows_top_down))
    mask = b"".join(_padded(pack_bits(hidden[y].astype(int), 1), mask_bytes) for y in reversed(range(height)))
    header = struct.pack("<IiiHHIIiiII", 40, width, height * 2, 1, bits, 0, len(pixels) + len(mask),
                         0, 0, colors_used, 0)
    return header + palette + pixels + mask


def _palette(colours):
    return b"".join(struct.pack("BBBB", b, g, r, 0) for r, g, b in colours)


def _ico(entries):
    """entries: (width, height, bits, payload bytes)."""
    out = struct.pack("<HHH", 0, 1, len(entries))
    offset = 6 + 16 * len(entries)
    table, blobs = b"", b""
    for width, height, bits, payload in entries:
        table += struct.pack("<BBBBHHII", width % 256, height % 256, 0, 0, 1, bits, len(payload), offset)
        blobs += payload
        offset += len(payload)
    return out + table + blobs


def _indexed(width, height, count, seed):
    return np.random.default_rng(seed).integers(0, count, size=(height, width))


def _colours(count, seed):
    return [tuple(int(c) for c in rgb) for rgb in np.random.default_rng(seed).integers(0, 256, size=(count, 3))]


def _bmp24(width, height, seed):
    rgb = photo(width, height, seed, 30)
    rows = [rgb[y, :, ::-1].tobytes() for y in range(height)]
    return _dib(width, height, 24, rows, _mask(width, height, seed))


def _bmp_indexed(width, height, bits, count, seed):
    indices = _indexed(width, height, count, seed)
    rows = [pack_bits(indices[y], bits) for y in range(height)]
    colours = _colours(count, seed)
    colors_used = count if count < (1 << bits) else 0
    return _dib(width, height, bits, rows, _mask(width, height, seed), _palette(colours), colors_used)


def _png(rgba):
    buffer = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buffer, "png")
    return buffer.getvalue()


def generate(out_dir: pathlib.Path):
    picture = Image.fromarray(_picture_rgba(64, 1), "RGBA")
    picture.save(out_dir / "png_multi.ico", sizes=[(16, 16), (32, 32), (48, 48), (64, 64)])
    Image.fromarray(_picture_rgba(20, 2), "RGBA").save(out_dir / "bmp32.ico", bitmap_format="bmp", sizes=[(20, 20)])
    (out_dir / "bmp24.ico").write_bytes(_ico([(13, 9, 24, _bmp24(13, 9, 3))]))
    (out_dir / "bmp8.ico").write_bytes(_ico([(16, 16, 8, _bmp_indexed(16, 16, 8, 32, 4))]))
    (out_dir / "bmp4.ico").write_bytes(_ico([(21, 11, 4, _bmp_indexed(21, 11, 4, 16, 5))]))
    (out_dir / "bmp1.ico").write_bytes(_ico([(37, 9, 1, _bmp_indexed(37, 9, 1, 2, 6))]))
    mixed_png = np.zeros((48, 48, 4), np.uint8)
    mixed_png[:, :, :3] = gradient(48, 48)
    mixed_png[:, :, 3] = 255
    mixed_png[10:20, 10:20, 3] = 0
    (out_dir / "mixed.ico").write_bytes(_ico([
        (16, 16, 24, _bmp24(16, 16, 7)),
        (48, 48, 32, _png(mixed_png)),
        (32, 32, 8, _bmp_indexed(32, 32, 8, 256, 8)),
    ]))

    for path in sorted(out_dir.glob("*.ico")):
        with Image.open(path) as image:
            image.load()
            path.with_suffix(".rgba").write_bytes(image.convert("RGBA").tobytes())
            for index, header in enumerate(image.ico.entry):
                if header.dim != image.size:
                    frame = image.ico.frame(index).convert("RGBA")
                    name = f"{path.stem}_{header.width}.rgba"
                    (out_dir / name).write_bytes(frame.tobytes())
