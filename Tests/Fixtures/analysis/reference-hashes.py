#!/usr/bin/env python3
"""Writes reference-hashes.json: other projects' hashes of the PNGs in this folder, for the
analysis tests to compare the library's with.

- "phash": Python imagehash's perceptual hash (imagehash.phash with its defaults: hash size 8,
  high-frequency factor 4), 16 hex digits, of the pictures in PHASH_PICTURES. The others are
  made of horizontal and vertical parts: most of their 8x8 low frequencies are zero, so the
  bits of those that equal the median are rounding noise (they change between scipy runs).
- "blurhash_4x3": the blurhash package's BlurHash with 4x3 components, of the opaque pictures of
  at most 64 pixels a side (the library shrinks larger ones first, the package does not).
- "thumbhash": thumbhash-python's ThumbHash of the raw RGBA of the pictures that fit 100x100
  (larger ones the library shrinks first), uppercase hex as imgproxy prints it.

Run once after Tests/Fixtures/generate.py makes the pictures
(pip install imagehash blurhash thumbhash-python). Made with imagehash 4.3.2, blurhash 1.1.5,
thumbhash-python 1.0.1, Pillow 13.0.0, numpy 2.4.6 and scipy 1.17.1.
"""
import json
import pathlib

import blurhash
import imagehash
import numpy as np
from PIL import Image
from thumbhash.encode import rgba_to_thumbhash

HERE = pathlib.Path(__file__).resolve().parent
PHASH_PICTURES = {"landscape.png", "portrait.png", "rings.png", "shapes.png"}


def main():
    result = {"phash": {}, "blurhash_4x3": {}, "thumbhash": {}}
    for path in sorted(HERE.glob("*.png")):
        image = Image.open(path)
        opaque = image.mode == "RGB"
        if path.name in PHASH_PICTURES:
            result["phash"][path.name] = str(imagehash.phash(image))
        if opaque and max(image.size) <= 64:
            pixels = np.asarray(image.convert("RGB")).astype(float)
            result["blurhash_4x3"][path.name] = blurhash.encode(pixels, components_x=4, components_y=3)
        if max(image.size) <= 100:
            rgba = list(image.convert("RGBA").tobytes())
            result["thumbhash"][path.name] = bytes(rgba_to_thumbhash(*image.size, rgba)).hex().upper()
    (HERE / "reference-hashes.json").write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
