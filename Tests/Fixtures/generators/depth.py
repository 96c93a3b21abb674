"""High bit depth fixtures: 16-bit PNG and TIFF, and 32-bit float TIFF, each with `name.ext.rgba16`,
the 16-bit RGBA pixels a decoder keeping the depth must produce (little-endian, straight alpha),
made here with numpy by construction.

PNGs are written with png.py's byte writer (Pillow cannot write 16-bit RGB); TIFFs by the small
baseline writer below (Pillow cannot write 16-bit RGB or float RGB TIFF either).

rgb16.png, rgba16.png, gray16.png, graya16.png   16x12 ramps and noise, every sample's low byte
                                                 differing from its high byte
gray16_trns.png, rgb16_trns.png                  a tRNS key colour at full depth (alpha 0 there)
rgb16_adam7.png                                  rgb16 interlaced
rgb16.tif          16-bit RGB, deflate with horizontal prediction, little-endian
rgba16.tif         16-bit RGBA, unassociated alpha, uncompressed, big-endian
rgba16_assoc.tif   16-bit RGBA, associated alpha (reference: the colour divided by alpha)
gray16.tif         16-bit gray, uncompressed
float.tif          32-bit float RGB (linear light), deflate, big-endian; values below 0, above 1
                   and NaN; reference: the sRGB curve of the clamped value (NaN as 0)

The AVIF, HEIC and JPEG XL ones are written from 16-bit PNGs of numpy samples by the codecs'
own tools (Debian libavif-bin, libheif-examples, libjxl-tools), single-threaded and
deterministic; their references are the same samples, reduced here as the tool reduces them:
rgb10.avif         16-bit RGB at 10 bits, `avifenc -l` (lossless: identity matrix, 4:4:4, full
                   range); reference: each value rounded to 10 bits and scaled back,
                   round(round(v × 1023 / 65535) × 65535 / 1023); libavif's float conversion
                   lands within 1 of it
rgba12.avif        16-bit RGBA at 12 bits, likewise (4095 levels, alpha too)
rgb10.heic         16-bit RGB at 10 bits, `heif-enc -L -p chroma=444 --matrix_coefficients=0
                   -b 10` (heif-enc keeps each value's top 10 bits); reference: v >> 6 scaled back
                   as a decoder does, (t << 6) | (t >> 4); x265's lossless mode leaves a few
                   values one 10-bit level off (65 of 65535)
rgb16.jxl          16-bit RGB, `cjxl -d 0` (lossless); reference: the samples, exactly (RGB, because
                   cjxl 0.7 stores a 16-bit PNG's alpha at 8 bits; the tests' own round trips cover
                   16-bit alpha)
"""
import pathlib
import shutil
import struct
import subprocess
import tempfile
import zlib

import numpy as np

from png import png_bytes

WIDTH, HEIGHT = 16, 12


def samples16(channels: int, seed: int) -> np.ndarray:
    """(HEIGHT, WIDTH, channels) uint16 covering 0 and 65535, low bytes unlike high bytes."""
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    planes = [((x * 4099 + y * 7919 + c * 12345 + seed * 31) * 37) % 65536 for c in range(channels)]
    array = np.stack(planes, axis=-1).astype(np.uint16)
    array[0, 0] = 0
    array[0, 1] = 65535
    return array


def rgba16(array: np.ndarray, key=None) -> np.ndarray:
    """Expands gray, gray+alpha and RGB to RGBA (opaque unless the pixel equals `key`)."""
    channels = array.shape[-1]
    colour = array[..., :1].repeat(3, -1) if channels in (1, 2) else array[..., :3]
    if channels in (2, 4):
        alpha = array[..., -1:]
    else:
        alpha = np.full(array.shape[:2] + (1,), 65535, np.uint16)
        if key is not None:
            alpha[np.all(array == np.array(key, np.uint16), axis=-1)] = 0
    return np.concatenate([colour, alpha], axis=-1).astype(np.uint16)


def write_expected(path: pathlib.Path, pixels: np.ndarray):
    path.with_name(path.name + ".rgba16").write_bytes(pixels.astype("<u2").tobytes())


def save_png(out: pathlib.Path, name: str, array: np.ndarray, color_type: int, interlaced=False, trns=None):
    rows = [[tuple(int(v) for v in array[y, x]) for x in range(WIDTH)] for y in range(HEIGHT)]
    extra = [(b"tRNS", struct.pack(">" + "H" * len(trns), *trns))] if trns else []
    (out / f"{name}.png").write_bytes(png_bytes(rows, 16, color_type, interlaced=interlaced, extra_before=extra))
    write_expected(out / f"{name}.png", rgba16(array, key=trns))


def tiff_bytes(array: np.ndarray, photometric: int, big_endian=False, compression=1, predictor=1,
               extra_sample=None, float_samples=False) -> bytes:
    """A one-strip baseline TIFF of `array` (height, width, samples)."""
    e = ">" if big_endian else "<"
    height, width, samples = array.shape
    bits = 32 if float_samples else 16
    stored = array.astype(e + ("f4" if float_samples else "u2"))
    if predictor == 2:
        stored = stored.astype(np.int64)
        stored[:, 1:] = (stored[:, 1:] - stored[:, :-1]) % 65536
        stored = stored.astype(e + "u2")
    strip = stored.tobytes()
    if compression == 8:
        strip = zlib.compress(strip, 9)
    entries = [
        (256, 4, [width]), (257, 4, [height]), (258, 3, [bits] * samples), (259, 3, [compression]),
        (262, 3, [photometric]), (273, 4, [0]), (277, 3, [samples]), (278, 4, [height]),
        (279, 4, [len(strip)]), (284, 3, [1]), (339, 3, [3 if float_samples else 1] * samples),
    ]
    if predictor != 1:
        entries.append((317, 3, [predictor]))
    if extra_sample is not None:
        entries.append((338, 3, [extra_sample]))
    entries.sort()

    def packed(kind, values):
        return b"".join(struct.pack(e + ("H" if kind == 3 else "I"), v) for v in values)

    # Values longer than 4 bytes follow the IFD; the strip comes last.
    data_offset = 8 + 2 + 12 * len(entries) + 4
    blob_size = sum(len(packed(k, v)) for _, k, v in entries if len(packed(k, v)) > 4)
    strip_offset = data_offset + blob_size
    fields, blobs = b"", b""
    for tag, kind, values in entries:
        if tag == 273:
            values = [strip_offset]
        data = packed(kind, values)
        if len(data) <= 4:
            fields += struct.pack(e + "HHI", tag, kind, len(values)) + data.ljust(4, b"\0")
        else:
            fields += struct.pack(e + "HHII", tag, kind, len(values), data_offset + len(blobs))
            blobs += data
    header = (b"MM\x00\x2a" if big_endian else b"II\x2a\x00") + struct.pack(e + "I", 8)
    ifd = struct.pack(e + "H", len(entries)) + fields + struct.pack(e + "I", 0)
    return header + ifd + blobs + strip


def srgb16(linear: np.ndarray) -> np.ndarray:
    v = np.nan_to_num(linear.astype(np.float64), nan=0.0)
    v = np.clip(v, 0.0, 1.0)
    encoded = np.where(v <= 0.0031308, v * 12.92, 1.055 * np.power(v, 1 / 2.4) - 0.055)
    return np.floor(encoded * 65535 + 0.5).astype(np.uint16)


def generate(out_dir: pathlib.Path):
    out_dir = pathlib.Path(out_dir)
    for old in out_dir.glob("*"):
        if old.is_file():
            old.unlink()

    rgb = samples16(3, 1)
    save_png(out_dir, "rgb16", rgb, 2)
    save_png(out_dir, "rgb16_adam7", rgb, 2, interlaced=True)
    save_png(out_dir, "rgba16", samples16(4, 2), 6)
    gray = samples16(1, 3)
    save_png(out_dir, "gray16", gray, 0)
    save_png(out_dir, "graya16", samples16(2, 4), 4)
    keyed = gray.copy()
    keyed[::3, ::2] = 0x1234
    keyed[1, 1] = 0x12FF  # shares the key's high byte: stays opaque
    save_png(out_dir, "gray16_trns", keyed, 0, trns=(0x1234,))
    keyed_rgb = rgb.copy()
    keyed_rgb[::2, ::3] = (0x0102, 0xFEFD, 0x8081)
    save_png(out_dir, "rgb16_trns", keyed_rgb, 2, trns=(0x0102, 0xFEFD, 0x8081))

    (out_dir / "rgb16.tif").write_bytes(tiff_bytes(rgb, 2, compression=8, predictor=2))
    write_expected(out_dir / "rgb16.tif", rgba16(rgb))
    straight = samples16(4, 5)
    (out_dir / "rgba16.tif").write_bytes(tiff_bytes(straight, 2, big_endian=True, extra_sample=2))
    write_expected(out_dir / "rgba16.tif", straight)
    alpha = straight[..., 3:].astype(np.int64)
    colour = straight[..., :3].astype(np.int64)
    premultiplied = (colour * alpha + 32767) // 65535
    associated = np.concatenate([premultiplied, alpha], -1).astype(np.uint16)
    (out_dir / "rgba16_assoc.tif").write_bytes(tiff_bytes(associated, 2, extra_sample=1))
    a = associated[..., 3:].astype(np.int64)
    unpremultiplied = np.where(a == 0, 0, np.minimum(65535, (associated[..., :3].astype(np.int64) * 65535 + a // 2)
                                                      // np.maximum(a, 1)))
    write_expected(out_dir / "rgba16_assoc.tif", np.concatenate([unpremultiplied, a], -1))
    (out_dir / "gray16.tif").write_bytes(tiff_bytes(gray, 1))
    write_expected(out_dir / "gray16.tif", rgba16(gray))

    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    linear = np.stack([x / (WIDTH - 1), y / (HEIGHT - 1), (x * y) / ((WIDTH - 1) * (HEIGHT - 1))], -1)
    linear = (linear * 1.2 - 0.1).astype(np.float32)  # some below 0, some above 1
    linear[2, 3] = (np.nan, 0.5, np.inf)
    linear[4, 5] = (0.0031308, 0.0001, 1.0)
    (out_dir / "float.tif").write_bytes(tiff_bytes(linear, 2, big_endian=True, compression=8, float_samples=True))
    opaque = np.full(linear.shape[:2] + (1,), 65535, np.uint16)
    write_expected(out_dir / "float.tif", np.concatenate([srgb16(linear), opaque], -1))

    deep_codec_files(out_dir)


def _tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise SystemExit(f"{name} is missing: apt-get install {package}")
    return path


def deep_codec_files(out_dir: pathlib.Path):
    """The 10-, 12- and 16-bit AVIF, HEIC and JPEG XL fixtures (see the module's docstring)."""
    rgb = samples16(3, 6)
    rgba = samples16(4, 7)

    def rounded_to(bits: int, values: np.ndarray) -> np.ndarray:
        top = (1 << bits) - 1
        levels = np.floor(values.astype(np.int64) * top / 65535 + 0.5)
        return np.floor(levels * 65535 / top + 0.5).astype(np.uint16)

    def run(*command):
        subprocess.run([str(part) for part in command], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    with tempfile.TemporaryDirectory() as scratch:
        rgb_png = pathlib.Path(scratch) / "rgb.png"
        rgba_png = pathlib.Path(scratch) / "rgba.png"
        for path, array, color_type in ((rgb_png, rgb, 2), (rgba_png, rgba, 6)):
            rows = [[tuple(int(v) for v in array[y, x]) for x in range(WIDTH)] for y in range(HEIGHT)]
            path.write_bytes(png_bytes(rows, 16, color_type))

        avifenc = _tool("avifenc", "libavif-bin")
        run(avifenc, "-l", "-d", "10", "-s", "6", "-j", "1", "--ignore-icc", rgb_png, out_dir / "rgb10.avif")
        write_expected(out_dir / "rgb10.avif", rgba16(rounded_to(10, rgb)))
        run(avifenc, "-l", "-d", "12", "-s", "6", "-j", "1", "--ignore-icc", rgba_png, out_dir / "rgba12.avif")
        write_expected(out_dir / "rgba12.avif", rounded_to(12, rgba))

        heif_enc = _tool("heif-enc", "libheif-examples")
        run(heif_enc, "-L", "-p", "chroma=444", "--matrix_coefficients=0", "-b", "10", "-o", out_dir / "rgb10.heic",
            rgb_png)
        top = rgb.astype(np.int64) >> 6
        write_expected(out_dir / "rgb10.heic", rgba16(((top << 6) | (top >> 4)).astype(np.uint16)))

        cjxl = _tool("cjxl", "libjxl-tools")
        run(cjxl, "-d", "0", "-e", "7", "--num_threads", "0", rgb_png, out_dir / "rgb16.jxl")
        write_expected(out_dir / "rgb16.jxl", rgba16(rgb))
