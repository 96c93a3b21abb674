"""Shared by the generators (not one itself: generate.py skips names starting with `_`)."""
import pathlib

from PIL import Image, ImageOps


def write_rgba(path: pathlib.Path, transpose=False):
    """Writes Pillow's decode of `path` as raw RGBA next to it (`name.rgba`), turned upright by
    its EXIF orientation when `transpose`: the reference pixels the coder tests compare with."""
    with Image.open(path) as image:
        image.load()
        if transpose:
            image = ImageOps.exif_transpose(image)
        path.with_suffix(".rgba").write_bytes(image.convert("RGBA").tobytes())
