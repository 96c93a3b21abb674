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
thumbnail.heic    256x192 gradient with a 64x48 thumbnail item, by `heif-enc -q 90 -t 64`
                  (libheif-examples; see _heif_enc.py); no reference pixels
"""
import pathlib

import numpy as np
import pillow_heif
from PIL import Image

from _pictures import gradient, photo, quadrants, rotated, transparency
from _heif_enc import write_with_thumbnail
from _pillow_reference import write_rgba

pillow_heif.register_heif_opener()
FIXTURES = pathlib.Path(__file__).resolve().parent.parent


def generate(out_dir: pathlib.Path):
    a = quadrants()
    Image.fromarray(a, "RGB").save(out_dir / "still.heic", quality=90, chroma=444)
    write_rgba(out_dir / "still.heic")

    rgba = transparency()
    Image.fromarray(rgba, "RGBA").save(out_dir / "alpha.heic", quality=100, chroma=444)
    write_rgba(out_dir / "alpha.heic")

    Image.fromarray(photo(192, 128, seed=4321, spread=8), "RGB").save(
        out_dir / "photo.heic", quality=70, chroma=420)
    write_rgba(out_dir / "photo.heic")

    deep = gradient(64, 48).astype(np.uint16) * 257  # 16-bit samples; saved as 10-bit
    heif = pillow_heif.from_bytes(mode="RGB;16", size=(64, 48), data=deep.tobytes())
    heif.save(out_dir / "depth10.heic", quality=90, chroma=444)
    assert pillow_heif.open_heif(out_dir / "depth10.heic").info["bit_depth"] == 10
    write_rgba(out_dir / "depth10.heic")

    stored = rotated()
    exif = Image.Exif()
    exif[0x0112] = 5  # pillow-heif turns it into irot + imir
    Image.fromarray(stored, "RGB").save(out_dir / "rotated.heic", quality=95, chroma=444, exif=exif.tobytes())
    data = (out_dir / "rotated.heic").read_bytes()
    assert b"irot" in data and b"imir" in data
    write_rgba(out_dir / "rotated.heic")

    exif = Image.Exif()
    exif[0x010F] = "WebImageTests"
    Image.fromarray(gradient(48, 32), "RGB").save(
        out_dir / "metadata.heic", quality=90, chroma=420, exif=exif.tobytes(),
        icc_profile=(FIXTURES / "metadata" / "srgb.icc").read_bytes(),
        xmp=(FIXTURES / "metadata" / "metadata.xmp").read_bytes())
    write_with_thumbnail(out_dir / "thumbnail.heic", avif=False)
