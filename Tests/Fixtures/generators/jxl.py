"""JPEG XL fixtures, written by pillow-jxl-plugin (its own libjxl, through jpegxl-rs) and, for
what the plug-in cannot write (animation, orientation, an embedded ICC profile), by libjxl's
`cjxl` (Debian libjxl-tools). Reference pixels are the plug-in's decodes (jxl-oxide, an
independent decoder), kept as raw RGBA next to each file; for the cjxl files, which are lossless,
they are the source pixels.

lossless.jxl      64x48 lossless RGB: quadrants red / green / blue over a gradient; lossless.rgba
alpha.jxl         32x32 lossless RGBA, alpha blocks (255, 255, 128, 0); alpha.rgba
photo.jxl         192x128 lossy quality 80, seeded noise over gradients; photo.rgba
animated.jxl      40x30 lossless, 4 solid frames, 100/200/50/300 ms; animated-N.rgba (the APNG
                  source says 3 loops, but cjxl 0.7 writes num_loops 0, forever, as `jxlinfo -v` shows)
rotated.jxl       48x32 stored, header orientation 5 (transpose, from the source PNG's eXIf):
                  shown 32x48; rotated.rgba holds the upright pixels
display-p3.jxl    24x16 lossless with the Display P3 profile of ../color embedded;
                  display-p3.rgba (the stored, unconverted pixels)
hostile-metadata.jxl      16x8 lossless in the container, with an `Exif` box (Make "WebImageTest", big-endian
                  TIFF; the plug-in writes it without the 4-byte offset field the format defines)
                  and an `xml ` box (an empty x:xmpmeta element)
metadata-brob.jxl the same with both boxes Brotli-compressed (`brob`)
huge-header.jxl   a bare code stream header claiming 50000x50000 pixels and nothing else
progressive.jxl   320x240 lossy (VarDCT, distance 1) shapes and mild noise over gradients, for
                  incremental decoding: `cjxl -d 1 -e 7 --num_threads 0`. Every VarDCT file stores
                  its 1:8 DC image ahead of the detail, so a prefix already shows the whole
                  picture, blurred (cjxl 0.7's -p writes the very same bytes at these settings)
"""
import pathlib
import shutil
import subprocess
import tempfile

import numpy as np
import pillow_jxl  # noqa: F401  (registers the JXL plug-in with Pillow)
from PIL import Image

from _pictures import gradient, photo, rotated, transparency
from _pillow_reference import write_rgba

ANIMATED_COLOURS = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
ANIMATED_DURATIONS = [100, 200, 50, 300]


def _cjxl(source: pathlib.Path, target: pathlib.Path):
    cjxl = shutil.which("cjxl")
    if cjxl is None:
        raise SystemExit("cjxl is missing: apt-get install libjxl-tools")
    subprocess.run([cjxl, "-d", "0", "-e", "7", "--num_threads", "0", str(source), str(target)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def generate(out_dir: pathlib.Path):
    a = gradient(64, 48)
    a[0:12, 0:16] = (255, 0, 0)
    a[0:12, 48:64] = (0, 255, 0)
    a[36:48, 0:16] = (0, 0, 255)
    Image.fromarray(a, "RGB").save(out_dir / "lossless.jxl", lossless=True, effort=7, num_threads=1)
    write_rgba(out_dir / "lossless.jxl")

    rgba = transparency()
    Image.fromarray(rgba, "RGBA").save(out_dir / "alpha.jxl", lossless=True, effort=7, num_threads=1)
    write_rgba(out_dir / "alpha.jxl")

    Image.fromarray(photo(192, 128, seed=4321, spread=40), "RGB").save(
        out_dir / "photo.jxl", quality=80, effort=7, num_threads=1)
    write_rgba(out_dir / "photo.jxl")

    with tempfile.TemporaryDirectory() as scratch:
        scratch = pathlib.Path(scratch)
        frames = [Image.new("RGB", (40, 30), colour) for colour in ANIMATED_COLOURS]
        frames[0].save(scratch / "animated.png", save_all=True, append_images=frames[1:],
                       duration=ANIMATED_DURATIONS, loop=3)
        _cjxl(scratch / "animated.png", out_dir / "animated.jxl")
        for index, frame in enumerate(frames):
            (out_dir / f"animated-{index}.rgba").write_bytes(frame.convert("RGBA").tobytes())

        stored = rotated()
        exif = Image.Exif()
        exif[0x0112] = 5
        Image.fromarray(stored, "RGB").save(scratch / "rotated.png", exif=exif.tobytes())
        _cjxl(scratch / "rotated.png", out_dir / "rotated.jxl")
        upright = np.transpose(stored, (1, 0, 2))
        (out_dir / "rotated.rgba").write_bytes(Image.fromarray(upright, "RGB").convert("RGBA").tobytes())

        profile = (out_dir.parent / "color" / "display-p3.icc").read_bytes()
        p3 = gradient(24, 16)
        Image.fromarray(p3, "RGB").save(scratch / "display-p3.png", icc_profile=profile)
        _cjxl(scratch / "display-p3.png", out_dir / "display-p3.jxl")
        (out_dir / "display-p3.rgba").write_bytes(Image.fromarray(p3, "RGB").convert("RGBA").tobytes())

    exif = Image.Exif()
    exif[0x010F] = "WebImageTest"
    xmp = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"/>'
    for name, compress in [("metadata", False), ("metadata-brob", True)]:
        Image.new("RGB", (16, 8), (10, 20, 30)).save(
            out_dir / f"{name}.jxl", lossless=True, exif=exif.tobytes(), xmp=xmp, use_container=True,
            compress_metadata=compress, num_threads=1)

    (out_dir / "hostile-huge-header.jxl").write_bytes(_huge_header())
    generate_progressive(out_dir)


def _huge_header() -> bytes:
    """A bare code stream whose header claims 50000x50000 pixels (2.5 gigapixels), with
    default metadata and nothing after it: decoders must refuse it from the header alone.
    Bits are written least significant first, as JPEG XL's bit reader reads them."""
    fields = [
        (0, 1),  # SizeHeader.small = false
        (2, 2), (49999, 18),  # ysize: selector 2 (Bits(18) + 1)
        (0, 3),  # ratio 0: xsize follows
        (2, 2), (49999, 18),  # xsize, as ysize
        (1, 1),  # ImageMetadata.all_default
    ]
    value = 0
    shift = 0
    for field, width in fields:
        value |= field << shift
        shift += width
    return b"\xff\x0a" + value.to_bytes((shift + 7) // 8 + 8, "little")


def generate_progressive(out_dir: pathlib.Path):
    rng = np.random.default_rng(99)
    picture = gradient(320, 240).astype(int)
    y, x = np.mgrid[0:240, 0:320]
    picture[(x - 100) ** 2 + (y - 80) ** 2 < 50 ** 2] = (230, 40, 40)
    picture[(x > 180) & (x < 290) & (y > 120) & (y < 210)] = (30, 60, 200)
    picture = np.clip(picture + rng.integers(-12, 12, size=picture.shape), 0, 255).astype(np.uint8)
    with tempfile.TemporaryDirectory() as scratch:
        source = pathlib.Path(scratch) / "progressive.png"
        Image.fromarray(picture, "RGB").save(source)
        subprocess.run([shutil.which("cjxl") or "cjxl", "-d", "1", "-e", "7", "--num_threads", "0", str(source),
                        str(out_dir / "progressive.jxl")], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
