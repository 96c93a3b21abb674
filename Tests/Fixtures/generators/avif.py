"""AVIF fixtures, written by Pillow's AVIF plug-in (its own libavif and libaom) and, for
10- and 12-bit pictures, by libavif's `avifenc` (Debian libavif-bin). Reference pixels are
Pillow's decodes (an independent decoder), kept as raw RGBA next to each file.

still.avif        64x48 q90 4:4:4: quadrants red / green / blue / white; still.rgba
alpha.avif        32x32 lossless-ish q100 4:4:4 with alpha blocks (255, 128, 0); alpha.rgba
photo.avif        192x128 q70 4:2:0 seeded noise over gradients; photo.rgba
depth10.avif      64x48 10-bit 4:4:4 gradient (avifenc --depth 10 -q 90); depth10.rgba
depth12.avif      64x48 12-bit, as above; depth12.rgba
animated.avif     40x30, 4 solid frames, 100/200/50/300 ms; animated-N.rgba per frame (libavif
                  stamps a sequence with the time it was written: its bytes change on every
                  run, its pixels do not)
rotated.avif      48x32 stored, with irot/imir for EXIF orientation 5 (transpose): shown 32x48;
                  rotated.rgba holds the upright pixels (Pillow's exif_transpose of its decode)
grid.avif         192x192 4:2:0 stored as a grid of 2 columns x 3 rows of 96x64 tiles, for
                  incremental decoding (rows of tiles decode as they arrive), written by
                  `avifenc --grid 2x3 --yuv 420 --min 20 --max 20 --speed 6 --jobs 1 --ignore-icc`;
                  no reference pixels (the tests compare partial rows with the one-shot decode)
thumbnail.avif    256x192 gradient with a 64x48 thumbnail item, by `heif-enc -A -q 90 -t 64`
                  (libheif-examples; see _heif_enc.py); no reference pixels
"""
import pathlib
import shutil
import subprocess
import tempfile

import numpy as np
from PIL import Image

from _pictures import gradient, photo, quadrants, rotated, transparency
from _heif_enc import write_with_thumbnail
from _pillow_reference import write_rgba

ANIMATED_COLOURS = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
ANIMATED_DURATIONS = [100, 200, 50, 300]


def generate(out_dir: pathlib.Path):
    a = quadrants()
    Image.fromarray(a, "RGB").save(out_dir / "still.avif", quality=90, subsampling="4:4:4", speed=6)
    write_rgba(out_dir / "still.avif")

    rgba = transparency()
    Image.fromarray(rgba, "RGBA").save(out_dir / "alpha.avif", quality=100, subsampling="4:4:4", speed=6)
    write_rgba(out_dir / "alpha.avif")

    Image.fromarray(photo(192, 128, seed=4321, spread=40), "RGB").save(
        out_dir / "photo.avif", quality=70, subsampling="4:2:0", speed=6)
    write_rgba(out_dir / "photo.avif")

    avifenc = shutil.which("avifenc")
    if avifenc is None:
        raise SystemExit("avifenc is missing: apt-get install libavif-bin")
    with tempfile.TemporaryDirectory() as scratch:
        source = pathlib.Path(scratch) / "gradient.png"
        Image.fromarray(gradient(64, 48), "RGB").save(source)
        for depth in (10, 12):
            target = out_dir / f"depth{depth}.avif"
            subprocess.run(
                [avifenc, "--depth", str(depth), "--yuv", "444", "--min", "4", "--max", "4", "--speed", "6",
                 "--jobs", "1", "--ignore-icc", str(source), str(target)],
                check=True, stdout=subprocess.DEVNULL)
            write_rgba(target)

    frames = [Image.new("RGB", (40, 30), colour) for colour in ANIMATED_COLOURS]
    frames[0].save(out_dir / "animated.avif", save_all=True, append_images=frames[1:],
                   duration=ANIMATED_DURATIONS, quality=90, subsampling="4:4:4", speed=6)
    with Image.open(out_dir / "animated.avif") as image:
        for index in range(image.n_frames):
            image.seek(index)
            (out_dir / f"animated-{index}.rgba").write_bytes(image.convert("RGBA").tobytes())

    generate_grid(out_dir, avifenc)

    stored = rotated()
    exif = Image.Exif()
    exif[0x0112] = 5
    Image.fromarray(stored, "RGB").save(out_dir / "rotated.avif", quality=95, subsampling="4:4:4", speed=6,
                                        exif=exif.tobytes())
    write_rgba(out_dir / "rotated.avif", transpose=True)

    write_with_thumbnail(out_dir / "thumbnail.avif", avif=True)


def generate_grid(out_dir: pathlib.Path, avifenc: str):
    rng = np.random.default_rng(7)
    picture = gradient(192, 192).astype(int)
    picture[20:60, 20:60] = (255, 0, 0)
    picture[130:180, 100:170] = (0, 0, 255)
    picture = np.clip(picture + rng.integers(-20, 20, size=picture.shape), 0, 255).astype(np.uint8)
    with tempfile.TemporaryDirectory() as scratch:
        source = pathlib.Path(scratch) / "grid.png"
        Image.fromarray(picture, "RGB").save(source)
        subprocess.run(
            [avifenc, "--grid", "2x3", "--yuv", "420", "--min", "20", "--max", "20", "--speed", "6", "--jobs", "1",
             "--ignore-icc", str(source), str(out_dir / "grid.avif")],
            check=True, stdout=subprocess.DEVNULL)
