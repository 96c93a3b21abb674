"""HEIC fixtures, written by pillow-heif (pip install pillow-heif: its own libheif, x265 and
libde265, independent of the system libheif the coder uses). Reference pixels are
pillow-heif's 8-bit decodes, kept as raw RGBA next to each file.

still.heic        64x48 q90 4:4:4: quadrants red / green / blue / white; still.rgba
alpha.heic        32x32 q100 4:4:4 with alpha blocks (255, 128, 0); alpha.rgba
photo.heic        192x128 q70 4:2:0 seeded noise (±8) over gradients; photo.rgba
depth10.heic      64x48 10-bit 4:4:4 gradient (from 16-bit samples); depth10.rgba
rotated.heic      48x32 stored, with irot/imir for EXIF orientation 5 (transpose): shown 32x48;
                  rotated.rgba holds the upright pixels (libheif applies irot/imir when decoding)
metadata.heic     48x32 q90 with metadata/srgb.icc as its ICC profile, an EXIF block (Make
                  "WebImageTests") and metadata/metadata.xmp as its XMP item
"""
import pathlib

import numpy as np
import pillow_heif
from PIL import Image

from _pillow_reference import write_rgba

pillow_heif.register_heif_opener()
FIXTURES = pathlib.Path(__file__).resolve().parent.parent


def _gradient(w, h):
    y, x = np.mgrid[0:h, 0:w]
    return np.stack([x * 255 // (w - 1), y * 255 // (h - 1), (x + y) * 255 // (w + h - 2)], axis=-1).astype(np.uint8)


def generate(out_dir: pathlib.Path):
    a = np.zeros((48, 64, 3), np.uint8)
    a[0:24, 0:32] = (255, 0, 0)
    a[0:24, 32:64] = (0, 255, 0)
    a[24:48, 0:32] = (0, 0, 255)
    a[24:48, 32:64] = (255, 255, 255)
    Image.fromarray(a, "RGB").save(out_dir / "still.heic", quality=90, chroma=444)
    write_rgba(out_dir / "still.heic")

    rgba = np.zeros((32, 32, 4), np.uint8)
    rgba[0:16, 0:16] = (255, 0, 0, 255)
    rgba[0:16, 16:32] = (0, 0, 255, 255)
    rgba[16:32, 0:16] = (0, 200, 0, 128)
    rgba[16:32, 16:32] = (10, 200, 30, 0)
    Image.fromarray(rgba, "RGBA").save(out_dir / "alpha.heic", quality=100, chroma=444)
    write_rgba(out_dir / "alpha.heic")

    rng = np.random.default_rng(4321)
    noise = rng.integers(-8, 8, size=(128, 192, 3))
    photo = np.clip(_gradient(192, 128).astype(int) + noise, 0, 255).astype(np.uint8)
    Image.fromarray(photo, "RGB").save(out_dir / "photo.heic", quality=70, chroma=420)
    write_rgba(out_dir / "photo.heic")

    deep = _gradient(64, 48).astype(np.uint16) * 257  # 16-bit samples; saved as 10-bit
    heif = pillow_heif.from_bytes(mode="RGB;16", size=(64, 48), data=deep.tobytes())
    heif.save(out_dir / "depth10.heic", quality=90, chroma=444)
    assert pillow_heif.open_heif(out_dir / "depth10.heic").info["bit_depth"] == 10
    write_rgba(out_dir / "depth10.heic")

    stored = np.zeros((32, 48, 3), np.uint8)
    stored[:, :] = (40, 40, 40)
    stored[0:8, 0:12] = (255, 0, 0)  # a red block in the stored top-left corner
    stored[24:32, 36:48] = (0, 0, 255)  # and a blue one bottom-right
    exif = Image.Exif()
    exif[0x0112] = 5  # pillow-heif turns it into irot + imir
    Image.fromarray(stored, "RGB").save(out_dir / "rotated.heic", quality=95, chroma=444, exif=exif.tobytes())
    data = (out_dir / "rotated.heic").read_bytes()
    assert b"irot" in data and b"imir" in data
    write_rgba(out_dir / "rotated.heic")

    exif = Image.Exif()
    exif[0x010F] = "WebImageTests"
    Image.fromarray(_gradient(48, 32), "RGB").save(
        out_dir / "metadata.heic", quality=90, chroma=420, exif=exif.tobytes(),
        icc_profile=(FIXTURES / "metadata" / "srgb.icc").read_bytes(),
        xmp=(FIXTURES / "metadata" / "metadata.xmp").read_bytes())
