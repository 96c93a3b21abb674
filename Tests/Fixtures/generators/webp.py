"""WebP fixtures: solid colour blocks whose expected pixels are known by construction.

lossy.webp           64x48 lossy q90, quadrants red / green / blue / white
lossless_alpha.webp  32x32 lossless exact; lossless_alpha.rgba holds its raw RGBA bytes
                     (opaque blocks, alpha 128 block, alpha-0 pixels that carry RGB)
photo.webp           192x128 lossy q85 with seeded noise (large enough for partial decoding)
animated.webp        40x30, 5 lossless solid frames, durations 100/200/50/300/10 ms, loop 2
subframes.webp       48x48, 3 lossless frames with alpha; later frames change one corner only,
                     so libwebp stores them as blended sub-rectangles of the canvas
"""
import pathlib

import numpy as np
from PIL import Image

from _pictures import photo, quadrants, transparency

ANIMATED_COLOURS = [
    (255, 0, 0),
    (0, 255, 0),
    (0, 0, 255),
    (255, 255, 0),
    (0, 255, 255),
]


def _solid(w, h, rgb):
    a = np.zeros((h, w, 3), np.uint8)
    a[:, :] = rgb
    return Image.fromarray(a, "RGB")


def lossless_alpha_pixels():
    a = transparency()
    a[20:24, 20:24] = (250, 5, 120, 0)
    return a


def generate(out_dir: pathlib.Path):
    # Lossy quadrants.
    a = quadrants()
    Image.fromarray(a, "RGB").save(out_dir / "lossy.webp", "WEBP", quality=90, method=4)

    # Lossless with alpha, exact.
    rgba = lossless_alpha_pixels()
    Image.fromarray(rgba, "RGBA").save(
        out_dir / "lossless_alpha.webp", "WEBP", lossless=True, exact=True, quality=100)
    (out_dir / "lossless_alpha.rgba").write_bytes(rgba.tobytes())

    # Noisy photo-like image for incremental decoding.
    Image.fromarray(photo(192, 128, seed=1234, spread=40), "RGB").save(
        out_dir / "photo.webp", "WEBP", quality=85, method=4)

    # Animated solid frames.
    frames = [_solid(40, 30, c) for c in ANIMATED_COLOURS]
    frames[0].save(
        out_dir / "animated.webp", "WEBP", save_all=True, append_images=frames[1:],
        duration=[100, 200, 50, 300, 10], loop=2, lossless=True, quality=100)

    # Sub-rectangle frames with alpha blending.
    canvas = np.zeros((48, 48, 4), np.uint8)
    canvas[0:16, 0:16] = (255, 0, 0, 255)
    f1 = canvas.copy()
    f2 = canvas.copy()
    f2[32:48, 32:48] = (0, 255, 0, 255)
    f3 = f2.copy()
    f3[32:40, 32:40] = (0, 0, 255, 255)
    images = [Image.fromarray(f, "RGBA") for f in (f1, f2, f3)]
    images[0].save(
        out_dir / "subframes.webp", "WEBP", save_all=True, append_images=images[1:],
        duration=[100, 100, 100], loop=0, lossless=True, quality=100)
