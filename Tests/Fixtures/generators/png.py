"""PNG fixtures: every colour type and bit depth, tRNS variants, Adam7, eXIf, and broken files.

Most files are written byte by byte (zlib + struct + crc32) because Pillow cannot write every
combination. Each decodable `name.png` gets `name.rgba`: the RGBA8 pixels a decoder must produce,
derived by construction (low bit depths scaled by bit replication, 16-bit samples as `value >> 8`,
tRNS keys compared at full depth), never from Pillow's conversions. Broken files go to `invalid/`
with a `.bin` extension so that sweeps over decodable fixtures skip them.
"""
import pathlib
import random
import struct
import zlib

import numpy as np
from PIL import Image

from _pictures import pack_bits

WIDTH, HEIGHT = 11, 7  # odd sizes: partial bytes at low depths, partial Adam7 passes
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def pack_row(samples, depth: int) -> bytes:
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    return pack_bits(samples, depth)


def raw_scanlines(samples, depth: int, interlaced: bool) -> bytes:
    """samples: [y][x] -> tuple of channel values. Filter type 0 on every row."""
    height, width = len(samples), len(samples[0])
    passes = ADAM7 if interlaced else [(0, 0, 1, 1)]
    out = bytearray()
    for x0, y0, dx, dy in passes:
        xs = list(range(x0, width, dx))
        if not xs:
            continue
        for y in range(y0, height, dy):
            out.append(0)
            out += pack_row([c for x in xs for c in samples[y][x]], depth)
    return bytes(out)


def png_bytes(samples, depth, color_type, interlaced=False, extra_before=(), extra_after=()):
    height, width = len(samples), len(samples[0])
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 1 if interlaced else 0)
    body = chunk(b"IHDR", ihdr)
    for kind, data in extra_before:
        body += chunk(kind, data)
    body += chunk(b"IDAT", zlib.compress(raw_scanlines(samples, depth, interlaced), 9))
    for kind, data in extra_after:
        body += chunk(kind, data)
    return b"\x89PNG\r\n\x1a\n" + body + chunk(b"IEND", b"")


def pattern(depth: int, channels: int, seed: int):
    """Deterministic samples covering 0 and the maximum; 16-bit high and low bytes differ."""
    top = (1 << depth) - 1
    rows = []
    for y in range(HEIGHT):
        row = []
        for x in range(WIDTH):
            if (x, y) == (0, 0):
                row.append((0,) * channels)
            elif (x, y) == (1, 0):
                row.append((top,) * channels)
            else:
                row.append(tuple((x * 4099 + y * 7919 + c * 12345 + seed * 31) % (top + 1) for c in range(channels)))
        rows.append(row)
    return rows


def to8(value: int, depth: int) -> int:
    if depth == 16:
        return value >> 8
    return value * (255 // ((1 << depth) - 1))


def expected_rgba(samples, depth, color_type, palette=None, trns=None, key=None) -> bytes:
    out = bytearray()
    for row in samples:
        for s in row:
            if color_type == 3:
                r, g, b = palette[s[0]]
                a = trns[s[0]] if trns is not None and s[0] < len(trns) else 255
                out += bytes((r, g, b, a))
                continue
            if color_type in (0, 4):
                v = to8(s[0], depth)
                rgb = (v, v, v)
            else:
                rgb = tuple(to8(c, depth) for c in s[:3])
            if color_type in (4, 6):
                a = to8(s[-1], depth)
            elif key is not None:
                a = 0 if tuple(s) == key else 255
            else:
                a = 255
            out += bytes(rgb + (a,))
    return bytes(out)


def save(out: pathlib.Path, name: str, data: bytes, expected: bytes):
    (out / f"{name}.png").write_bytes(data)
    (out / f"{name}.rgba").write_bytes(expected)


def generate(out_dir: pathlib.Path):
    out_dir = pathlib.Path(out_dir)
    for old in out_dir.glob("**/*"):
        if old.is_file():
            old.unlink()
    (out_dir / "invalid").mkdir(parents=True, exist_ok=True)

    seed = 0
    plain = [(0, d) for d in (1, 2, 4, 8, 16)] + [(2, 8), (2, 16), (4, 8), (4, 16), (6, 8), (6, 16)]
    names = {0: "gray", 2: "rgb", 4: "graya", 6: "rgba"}
    for color_type, depth in plain:
        seed += 1
        samples = pattern(depth, CHANNELS[color_type], seed)
        name = f"{names[color_type]}{depth}"
        expected = expected_rgba(samples, depth, color_type)
        save(out_dir, name, png_bytes(samples, depth, color_type), expected)
        if (color_type, depth) in ((0, 2), (2, 16), (6, 8)):
            save(out_dir, f"{name}_adam7", png_bytes(samples, depth, color_type, interlaced=True), expected)

    # Palettes: every entry a distinct colour; the tRNS variants give the first entries alpha.
    for depth in (1, 2, 4, 8):
        count = min(1 << depth, 200)
        palette = [((i * 37) % 256, (i * 91 + 50) % 256, (255 - i * 13) % 256) for i in range(count)]
        plte = b"".join(bytes(c) for c in palette)
        samples = [[((x * 3 + y * 5) % count,) for x in range(WIDTH)] for y in range(HEIGHT)]
        save(out_dir, f"palette{depth}", png_bytes(samples, depth, 3, extra_before=[(b"PLTE", plte)]),
             expected_rgba(samples, depth, 3, palette))
        trns = [(i * 97) % 256 for i in range(max(1, count // 2))]
        trns[0] = 0
        save(out_dir, f"palette{depth}_trns",
             png_bytes(samples, depth, 3, extra_before=[(b"PLTE", plte), (b"tRNS", bytes(trns))]),
             expected_rgba(samples, depth, 3, palette, trns))

    # tRNS keys. The 16-bit key shares its high byte with other samples, which must stay opaque.
    gray8 = [[(0x40 if (x + y) % 3 == 0 else (x * 20 + y) % 256,) for x in range(WIDTH)] for y in range(HEIGHT)]
    save(out_dir, "gray8_trns", png_bytes(gray8, 8, 0, extra_before=[(b"tRNS", struct.pack(">H", 0x40))]),
         expected_rgba(gray8, 8, 0, key=(0x40,)))
    gray16 = [[((0x1234, 0x12FF, 0xABCD)[(x + y) % 3],) for x in range(WIDTH)] for y in range(HEIGHT)]
    save(out_dir, "gray16_trns", png_bytes(gray16, 16, 0, extra_before=[(b"tRNS", struct.pack(">H", 0x1234))]),
         expected_rgba(gray16, 16, 0, key=(0x1234,)))
    key = (10, 200, 30)
    rgb8 = [[key if (x * y) % 4 == 1 else ((x * 23) % 256, (y * 41) % 256, 30) for x in range(WIDTH)] for y in range(HEIGHT)]
    save(out_dir, "rgb8_trns", png_bytes(rgb8, 8, 2, extra_before=[(b"tRNS", struct.pack(">HHH", *key))]),
         expected_rgba(rgb8, 8, 2, key=key))

    # Fully transparent pixels whose colour must survive a decode-encode round trip.
    hidden = [[((x * 40) % 256, (y * 50 + 5) % 256, 200, 0 if x % 2 == 0 else 128 + y) for x in range(WIDTH)]
              for y in range(HEIGHT)]
    save(out_dir, "rgba8_hidden_rgb", png_bytes(hidden, 8, 6), expected_rgba(hidden, 8, 6))

    # Pillow's own writer (adaptive filters), from an RGBA array it stores exactly.
    yy, xx = np.mgrid[0:48, 0:64]
    array = np.stack([xx * 4, yy * 5, (xx + yy) * 2, 255 - xx * 3], axis=-1).astype(np.uint8)
    Image.fromarray(array, "RGBA").save(out_dir / "pillow_rgba8.png", optimize=False)
    (out_dir / "pillow_rgba8.rgba").write_bytes(array.tobytes())

    # EXIF orientation: 3x2 stored, six distinct colours.
    colours = [[(255, 0, 0), (0, 255, 0), (0, 0, 255)], [(255, 255, 0), (0, 255, 255), (255, 0, 255)]]
    exif_right = b"MM\x00\x2a" + struct.pack(">IH", 8, 1) + struct.pack(">HHIHH", 0x0112, 3, 1, 6, 0) + b"\0\0\0\0"
    save(out_dir, "exif_right", png_bytes(colours, 8, 2, extra_before=[(b"eXIf", exif_right)]),
         expected_rgba(colours, 8, 2))
    exif_left = b"II\x2a\x00" + struct.pack("<IH", 8, 1) + struct.pack("<HHIHH", 0x0112, 3, 1, 8, 0) + b"\0\0\0\0"
    save(out_dir, "exif_left_after_idat", png_bytes(colours, 8, 2, extra_after=[(b"eXIf", exif_left)]),
         expected_rgba(colours, 8, 2))

    write_invalid(out_dir / "invalid")


def write_invalid(out: pathlib.Path):
    sig = b"\x89PNG\r\n\x1a\n"

    def ihdr(width, height, depth=8, color_type=6):
        return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0))

    good = png_bytes(pattern(8, 4, 99), 8, 6)
    # A flipped bit in the IDAT CRC, and one in the IHDR CRC.
    idat_crc = bytearray(good)
    iend_at = len(idat_crc) - 12
    idat_crc[iend_at - 1] ^= 0x01
    (out / "bad_idat_crc.bin").write_bytes(bytes(idat_crc))
    ihdr_crc = bytearray(good)
    ihdr_crc[8 + 8 + 13] ^= 0x80
    (out / "bad_ihdr_crc.bin").write_bytes(bytes(ihdr_crc))
    # 100000 x 100000: past the default pixel limit; the IDAT is tiny.
    tiny = chunk(b"IDAT", zlib.compress(b"\0" * 64))
    (out / "huge_ihdr.bin").write_bytes(sig + ihdr(100000, 100000) + tiny + chunk(b"IEND", b""))
    # A side longer than the whole pixel limit.
    (out / "long_side.bin").write_bytes(sig + ihdr(200_000_000, 1, 8, 0) + tiny + chunk(b"IEND", b""))
    # 9000 x 9000 RGBA is under the limit, but a few bytes cannot inflate to 324 MB.
    (out / "short_idat_huge.bin").write_bytes(sig + ihdr(9000, 9000) + tiny + chunk(b"IEND", b""))
    # 32 x 32 RGBA with data for 16 rows: plausible in size, short when inflated.
    rng = random.Random(7)
    rows = b"".join(b"\0" + bytes(rng.randrange(256) for _ in range(128)) for _ in range(16))
    (out / "short_idat.bin").write_bytes(sig + ihdr(32, 32) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    # Zero width, a bad bit depth, and no IDAT at all.
    (out / "zero_width.bin").write_bytes(sig + ihdr(0, 4) + tiny + chunk(b"IEND", b""))
    (out / "bad_depth.bin").write_bytes(sig + ihdr(4, 4, 3, 6) + tiny + chunk(b"IEND", b""))
    (out / "no_idat.bin").write_bytes(sig + ihdr(4, 4) + chunk(b"IEND", b""))
    # Indices past a 4-entry palette (libpng treats this as a benign error and reads them as black).
    rows = b"".join(b"\0" + bytes([0, 1, 2, 3, 4, 200, 255, 3]) for _ in range(2))
    plte = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9])
    (out / "palette_index_out_of_range.bin").write_bytes(
        sig + ihdr(8, 2, 8, 3) + chunk(b"PLTE", plte) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    # A palette image without PLTE.
    (out / "palette_missing_plte.bin").write_bytes(
        sig + ihdr(4, 4, 8, 3) + chunk(b"IDAT", zlib.compress(b"\0\0\0\0\0" * 4)) + chunk(b"IEND", b""))
