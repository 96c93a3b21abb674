"""Analysis fixtures: PNG pictures for the image hashes' reference values, which
Tests/Fixtures/analysis/reference-hashes.py computes with other projects' implementations
(Python's imagehash, blurhash and thumbhash-python) and writes to reference-hashes.json.

shapes.png        160x120 gradient with a dark disc, a light bar and a red square
landscape.png     150x100 sky ramp, a sun, a wavy horizon and seeded noise of +-12 levels
portrait.png      90x150 diagonal waves, a light disc and a slight vertical ramp
rings.png         128x128 concentric rings, gray
small_ramps.png   48x32 RGB ramps (small enough that BlurHash and ThumbHash take it unresized)
quadrants.png     64x48 red, green / blue, white
transparency.png  32x32 RGBA blocks: opaque red and blue, half-visible green, invisible
"""
import pathlib

import numpy as np
from PIL import Image, ImageDraw

from _pictures import gradient, quadrants, transparency


def shapes():
    image = Image.fromarray(gradient(160, 120), "RGB")
    draw = ImageDraw.Draw(image)
    draw.ellipse((20, 30, 80, 90), fill=(20, 20, 40))
    draw.rectangle((95, 10, 150, 30), fill=(240, 240, 220))
    draw.rectangle((100, 70, 140, 110), fill=(230, 20, 20))
    return image


def portrait():
    y, x = np.mgrid[0:150, 0:90]
    bands = 60 * np.sin((x + 2 * y) / 11.0)
    blob = np.where(np.hypot(x - 30.0, y - 100.0) < 22, 70, 0)
    gray = np.clip(110 + bands + blob + y * 0.3, 0, 255).astype(np.uint8)
    return Image.fromarray(np.stack([gray, 255 - gray, gray // 2 + 60], axis=-1), "RGB")


def landscape():
    y, x = np.mgrid[0:100, 0:150]
    sky = np.stack([90 + y, 150 + y // 2, np.full_like(y, 235)], axis=-1)
    ground = np.stack([30 + x // 10, 90 - y // 4, np.full_like(y, 40)], axis=-1)
    picture = np.where((y > 60 + 12 * np.sin(x / 17.0))[..., None], ground, sky)
    picture[np.hypot(x - 110.0, y - 25.0) < 12] = (255, 230, 120)
    noise = np.random.default_rng(46).integers(-12, 12, size=picture.shape)
    return Image.fromarray(np.clip(picture + noise, 0, 255).astype(np.uint8), "RGB")


def rings():
    y, x = np.mgrid[0:128, 0:128]
    radius = np.hypot(x - 50.0, y - 70.0)
    gray = (127.5 + 127.5 * np.cos(radius / 9.0)).round().astype(np.uint8)
    return Image.fromarray(gray, "L").convert("RGB")


def generate(out_dir: pathlib.Path):
    shapes().save(out_dir / "shapes.png")
    landscape().save(out_dir / "landscape.png")
    portrait().save(out_dir / "portrait.png")
    rings().save(out_dir / "rings.png")
    Image.fromarray(gradient(48, 32), "RGB").save(out_dir / "small_ramps.png")
    Image.fromarray(quadrants(), "RGB").save(out_dir / "quadrants.png")
    Image.fromarray(transparency(), "RGBA").save(out_dir / "transparency.png")
