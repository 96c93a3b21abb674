"""TIFF fixtures, written by Pillow (through its libtiff) and libtiff's tiffcp (Debian
libtiff-tools) for the tiled one. Reference pixels are Pillow's decodes as raw RGBA, except
for 16-bit gray, whose reference is made here by construction (libtiff's RGBA interface keeps
each sample's high byte; Pillow clips instead of scaling).

rgb_lzw.tif, rgb_deflate.tif, rgb_packbits.tif, rgb_none.tif   64x48 seeded noise over gradients
rgb_jpeg.tif       the same, JPEG-in-TIFF at quality 90 (reference: Pillow's decode of it)
rgb_tiled.tif      the LZW file re-tiled 16x16 by tiffcp
palette.tif        64x48 palette (P) image, 16 colours
gray.tif           64x48 8-bit gray
gray16.tif         64x48 16-bit gray ramp; gray16.rgba holds the high bytes
rgba.tif           32x32 RGBA, unassociated alpha 255 / 128 / 0 blocks, deflate
multipage.tif      3 pages of 32x24: red, green, blue
oriented.tif       48x32 stored with Orientation 6; oriented.rgba is upright (32x48)
"""
import pathlib
import shutil
import subprocess

import numpy as np
from PIL import Image

from _pictures import photo, rotated, transparency
from _pillow_reference import write_rgba


def generate(out_dir: pathlib.Path):
    rgb = Image.fromarray(photo(64, 48, seed=99, spread=30), "RGB")
    for name, compression in [("lzw", "tiff_lzw"), ("deflate", "tiff_adobe_deflate"), ("packbits", "packbits"),
                              ("none", None)]:
        path = out_dir / f"rgb_{name}.tif"
        rgb.save(path, "TIFF", compression=compression)
        write_rgba(path)
    rgb.save(out_dir / "rgb_jpeg.tif", "TIFF", compression="jpeg", quality=90)
    write_rgba(out_dir / "rgb_jpeg.tif")

    tiffcp = shutil.which("tiffcp")
    if tiffcp is None:
        raise SystemExit("tiffcp is missing: apt-get install libtiff-tools")
    subprocess.run([tiffcp, "-t", "-w", "16", "-l", "16", "-c", "lzw", str(out_dir / "rgb_lzw.tif"),
                    str(out_dir / "rgb_tiled.tif")], check=True)
    write_rgba(out_dir / "rgb_tiled.tif")

    palette = rgb.quantize(colors=16, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette.save(out_dir / "palette.tif", "TIFF", compression="tiff_lzw")
    write_rgba(out_dir / "palette.tif")

    rgb.convert("L").save(out_dir / "gray.tif", "TIFF", compression="tiff_lzw")
    write_rgba(out_dir / "gray.tif")

    y, x = np.mgrid[0:48, 0:64]
    ramp = ((x * 48 + y) * 65535 // (64 * 48 - 1)).astype(np.uint16)
    Image.frombytes("I;16", (64, 48), ramp.astype("<u2").tobytes()).save(out_dir / "gray16.tif", "TIFF")
    high = (ramp >> 8).astype(np.uint8)
    (out_dir / "gray16.rgba").write_bytes(np.stack([high, high, high, np.full_like(high, 255)], -1).tobytes())

    rgba = transparency()
    Image.fromarray(rgba, "RGBA").save(out_dir / "rgba.tif", "TIFF", compression="tiff_adobe_deflate")
    write_rgba(out_dir / "rgba.tif")

    pages = [Image.new("RGB", (32, 24), colour) for colour in [(255, 0, 0), (0, 255, 0), (0, 0, 255)]]
    pages[0].save(out_dir / "multipage.tif", "TIFF", save_all=True, append_images=pages[1:],
                  compression="tiff_lzw")

    stored = rotated()
    Image.fromarray(stored, "RGB").save(out_dir / "oriented.tif", "TIFF", tiffinfo={274: 6})
    write_rgba(out_dir / "oriented.tif", transpose=True)
