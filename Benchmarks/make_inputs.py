#!/usr/bin/env python3
"""Writes the benchmark inputs into Benchmarks/inputs/ (git-ignored), deterministically.

Every image comes from numpy generators with fixed seeds, encoded by Pillow (HEIC through its
pillow-heif plug-in). A manifest (inputs/manifest.json) records the generator version and each
file's size and SHA-256; when every file still matches it, nothing is regenerated. Bump GENERATOR_VERSION after changing
what an image looks like.

Usage: make_inputs.py [--out DIR] [--force]
"""
import argparse
import hashlib
import io
import json
import pathlib
import sys

import numpy as np
from PIL import Image, ImageDraw

GENERATOR_VERSION = 13
HERE = pathlib.Path(__file__).resolve().parent

ANIM_SIZE = (480, 360)
ANIM_FRAMES = 20
ANIM_FRAME_MS = 80
PLAYER_SIZE = (800, 600)
PLAYER_FRAMES = 300
PLAYER_FRAME_MS = 40


def smooth_field(rng, width, height, cells, channels):
    """Random low-resolution blobs upscaled bicubically: large soft shapes, float32 0...255."""
    grid = rng.uniform(0, 255, size=(cells[1], cells[0], channels)).astype(np.uint8)
    mode = "RGB" if channels == 3 else "L"
    small = Image.fromarray(grid if channels == 3 else grid[:, :, 0], mode)
    big = small.resize((width, height), Image.Resampling.BICUBIC)
    return np.asarray(big, dtype=np.float32).reshape(height, width, channels)


def photo_like(seed, width, height, noise_sigma):
    """Gradients + upscaled blobs + Gaussian noise: a photo's statistics, so that entropy
    decoding does realistic work (a flat synthetic image would decode unrealistically fast)."""
    rng = np.random.default_rng(seed)
    y = np.linspace(0, 1, height, dtype=np.float32)[:, None]
    x = np.linspace(0, 1, width, dtype=np.float32)[None, :]
    channels = [200 * x + 30 * y, 60 + 140 * y + 0 * x, 220 - 160 * x * y]
    gradient = np.stack(channels, axis=-1)
    blobs = smooth_field(rng, width, height, (40, 30), 3)
    image = 0.55 * gradient + 0.45 * blobs
    image += rng.normal(0, noise_sigma, size=image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


def make_photo_jpg():
    rgb = photo_like(seed=1, width=4000, height=3000, noise_sigma=12)
    return encode(Image.fromarray(rgb, "RGB"), "JPEG", quality=85)


def make_photo_adobe_jpg():
    """photo.jpg with an Adobe RGB (1998) profile in an APP2 segment after SOI: the same
    pixels to decode, plus a conversion to sRGB (the profile is the colour fixtures' one)."""
    profile = (pathlib.Path(__file__).resolve().parent.parent / "Tests/Fixtures/color/adobe-rgb.icc").read_bytes()
    payload = b"ICC_PROFILE\0\x01\x01" + profile
    segment = b"\xff\xe2" + (len(payload) + 2).to_bytes(2, "big") + payload
    jpeg = make_photo_jpg()
    return jpeg[:2] + segment + jpeg[2:]


def make_cache_jpg():
    """About 100 KB, the size of a typical web photo: what the cache cases store and read."""
    rgb = photo_like(seed=6, width=768, height=576, noise_sigma=8)
    return encode(Image.fromarray(rgb, "RGB"), "JPEG", quality=85)


def make_rgba_png():
    rgb = photo_like(seed=2, width=1024, height=1024, noise_sigma=6)
    rng = np.random.default_rng(3)
    y, x = np.mgrid[0:1024, 0:1024].astype(np.float32)
    radial = 255 - np.hypot(x - 512, y - 512) * (255 / 724)
    alpha = np.clip(0.7 * radial + 0.3 * smooth_field(rng, 1024, 1024, (8, 8), 1)[:, :, 0], 0, 255)
    rgba = np.dstack([rgb, alpha.astype(np.uint8)])
    return encode(Image.fromarray(rgba, "RGBA"), "PNG")


def make_deep_png():
    """A 1024x1024 16-bit RGBA PNG (Pillow cannot write one): the 8-bit photo and disc widened
    with fine noise in the low bytes, zlib level 6, filter Up on every row."""
    import struct
    import zlib
    rgb = photo_like(seed=15, width=1024, height=1024, noise_sigma=6).astype(np.uint16)
    y, x = np.mgrid[0:1024, 0:1024]
    alpha = np.clip((600 - np.hypot(x - 512, y - 512)) * 4, 0, 255).astype(np.uint16)
    rng = np.random.default_rng(16)
    samples = np.dstack([rgb, alpha]).astype(np.int32) * 257 + rng.integers(0, 64, size=(1024, 1024, 4))
    rows = samples.clip(0, 65535).astype(">u2").reshape(1024, -1).view(np.uint8)
    up = rows.astype(np.int16)
    up[1:] = (rows[1:].astype(np.int16) - rows[:-1].astype(np.int16)) % 256
    filtered = np.hstack([np.full((1024, 1), 2, np.uint8), up.astype(np.uint8)])
    filtered[0, 0] = 0

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", 1024, 1024, 16, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(filtered.tobytes(), 6))
            + chunk(b"IEND", b""))


def make_photo_png():
    """A 1 MP RGB photo, lossless: what the encode cases start from, the same pixels on both sides."""
    rgb = photo_like(seed=7, width=1152, height=864, noise_sigma=6)
    return encode(Image.fromarray(rgb, "RGB"), "PNG")


def make_still_webp():
    rgb = photo_like(seed=4, width=2000, height=1500, noise_sigma=8)
    return encode(Image.fromarray(rgb, "RGB"), "WEBP", quality=80)


def make_still_avif():
    """1600x1200 at Pillow's AVIF quality 60, speed 6 (libavif's default), 4:2:0."""
    rgb = photo_like(seed=9, width=1600, height=1200, noise_sigma=8)
    return encode(Image.fromarray(rgb, "RGB"), "AVIF", quality=60, speed=6, subsampling="4:2:0")


def make_still_heic():
    """1600x1200 at pillow-heif's quality 60 (x265, its default preset slow), 4:2:0."""
    import pillow_heif
    pillow_heif.register_heif_opener()
    rgb = photo_like(seed=13, width=1600, height=1200, noise_sigma=8)
    return encode(Image.fromarray(rgb, "RGB"), "HEIF", quality=60, chroma=420)


def make_still_jxl():
    """1600x1200 lossy JPEG XL from pillow-jxl-plugin: quality 80 (distance 1.9), effort 7."""
    import pillow_jxl  # noqa: F401  (registers the plug-in)
    rgb = photo_like(seed=10, width=1600, height=1200, noise_sigma=8)
    return encode(Image.fromarray(rgb, "RGB"), "JXL", quality=80, effort=7, num_threads=1)


def make_still_tiff():
    """2000x1500 RGB, LZW with horizontal prediction, as cameras and scanners write them."""
    rgb = photo_like(seed=11, width=2000, height=1500, noise_sigma=8)
    return encode(Image.fromarray(rgb, "RGB"), "TIFF", compression="tiff_lzw", tiffinfo={317: 2})


def make_still_bmp():
    """2000x1500 24-bit BMP, bottom-up, as Pillow writes RGB."""
    rgb = photo_like(seed=12, width=2000, height=1500, noise_sigma=8)
    return encode(Image.fromarray(rgb, "RGB"), "BMP")


def make_icon_ico():
    """A Windows icon set: 32-bit bitmap entries of 16, 24, 32, 48, 64, 128 and 256 pixels
    (Pillow scales each from the 256x256 RGBA picture), a soft disc on a transparent ground."""
    rgb = photo_like(seed=14, width=256, height=256, noise_sigma=4)
    y, x = np.mgrid[0:256, 0:256]
    alpha = np.clip((120 - np.hypot(x - 127.5, y - 127.5)) * 8, 0, 255).astype(np.uint8)
    rgba = np.dstack([rgb, alpha])
    return encode(Image.fromarray(rgba, "RGBA"), "ICO", bitmap_format="bmp")


def make_logo_svg():
    """A 1000x1000 drawing as illustration programs export one: a gradient background, 400
    closed cubic curves filled with 16 linear and radial gradients or flat colours, stroked,
    half of them translucent, in groups with rotations and opacity. Rasterised at its own size."""
    rng = np.random.default_rng(13)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">', "<defs>"]
    for i in range(8):
        a, b = (f"rgb({c[0]},{c[1]},{c[2]})" for c in rng.integers(0, 256, size=(2, 3)))
        parts.append(f'<linearGradient id="l{i}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{a}"/>'
                     f'<stop offset="1" stop-color="{b}" stop-opacity="0.7"/></linearGradient>')
        parts.append(f'<radialGradient id="r{i}" cx="0.4" cy="0.4" r="0.6"><stop offset="0" stop-color="{b}"/>'
                     f'<stop offset="1" stop-color="{a}" stop-opacity="0.2"/></radialGradient>')
    parts.append('</defs><rect width="1000" height="1000" fill="url(#l0)"/>')
    for group in range(8):
        angle = rng.uniform(-30, 30)
        parts.append(f'<g transform="rotate({angle:.1f} 500 500)" opacity="{rng.uniform(0.7, 1):.2f}">')
        for i in range(50):
            x, y = rng.uniform(50, 950, size=2)
            points = rng.uniform(-120, 120, size=(7, 2)) + (x, y)
            d = f"M{x:.1f} {y:.1f} " + " ".join(
                f"C{p[0][0]:.1f} {p[0][1]:.1f} {p[1][0]:.1f} {p[1][1]:.1f} {p[2][0]:.1f} {p[2][1]:.1f}"
                for p in (points[0:3], points[3:6])) + " Z"
            kind = (group * 50 + i) % 3
            fill = (f"url(#l{i % 8})", f"url(#r{i % 8})")[kind] if kind < 2 else \
                "#%02x%02x%02x" % tuple(rng.integers(0, 256, size=3))
            opacity = "0.6" if i % 2 else "1"
            parts.append(f'<path d="{d}" fill="{fill}" fill-opacity="{opacity}" stroke="#202020" '
                         f'stroke-width="{rng.uniform(0.5, 4):.1f}" stroke-linejoin="round"/>')
        parts.append("</g>")
    parts.append("</svg>\n")
    return "\n".join(parts).encode()


def animation_frames():
    """20 palette frames: a static banded background, moving discs and a flickering noisy
    patch, so each frame changes only in part (GIF sub-frames, disposal and compositing)."""
    width, height = ANIM_SIZE
    rng = np.random.default_rng(5)
    ramp = np.linspace(0, 1, 240, dtype=np.float32)
    hues = np.stack([128 + 127 * np.sin(6.3 * ramp), 128 + 127 * np.sin(6.3 * ramp + 2.1),
                     128 + 127 * np.sin(6.3 * ramp + 4.2)], axis=-1)
    grey = np.repeat(np.linspace(0, 255, 16, dtype=np.float32)[:, None], 3, axis=1)
    palette = np.concatenate([grey, hues]).astype(np.uint8)
    field = smooth_field(rng, width, height, (6, 5), 1)[:, :, 0]
    bands = np.clip(field * (30 / 256), 0, 29).astype(np.uint8)  # flat bands, as in drawn art
    background = 16 + bands * 8
    frames = []
    for i in range(ANIM_FRAMES):
        frame = Image.fromarray(background.copy(), "P")
        frame.putpalette(palette.tobytes())
        draw = ImageDraw.Draw(frame)
        for disc in range(5):
            cx = (40 + disc * 90 + i * 14) % (width + 60) - 30
            cy = 60 + disc * 55 + int(30 * np.sin((i + disc) * 0.6))
            draw.ellipse([cx - 28, cy - 28, cx + 28, cy + 28], fill=2 + disc * 3)
        patch = rng.integers(0, 16, size=(60, 80), dtype=np.uint8)
        frame.paste(Image.fromarray(patch, "P"), (380, 280))
        frames.append(frame)
    return frames


def make_anim_gif():
    frames = animation_frames()
    return encode(frames[0], "GIF", save_all=True, append_images=frames[1:],
                  duration=ANIM_FRAME_MS, loop=0)


def make_anim_webp():
    frames = [frame.convert("RGB") for frame in animation_frames()]
    return encode(frames[0], "WEBP", save_all=True, append_images=frames[1:],
                  duration=ANIM_FRAME_MS, loop=0, quality=80)


def make_anim_apng():
    """The same 20 frames as an RGBA APNG, each later frame the changed rectangle blended OVER
    the kept canvas (Pillow's writer crops each frame to what changed)."""
    frames = [frame.convert("RGBA") for frame in animation_frames()]
    return encode(frames[0], "PNG", save_all=True, append_images=frames[1:],
                  duration=ANIM_FRAME_MS, loop=0, disposal=0, blend=1)


def make_player_gif():
    """300 frames of 800x600 (576 MB decoded at once) for the animated player's memory, timing
    and CPU report: the banded background of the small animation, scaled up, with discs moving
    across it, 40 ms a frame."""
    width, height = PLAYER_SIZE
    small = animation_frames()[0]
    background = small.resize((width, height), Image.NEAREST)
    frames = []
    for i in range(PLAYER_FRAMES):
        frame = background.copy()
        draw = ImageDraw.Draw(frame)
        for disc in range(6):
            cx = (60 + disc * 140 + i * 9) % (width + 120) - 60
            cy = 80 + disc * 85 + int(40 * np.sin((i + disc) * 0.2))
            draw.ellipse([cx - 45, cy - 45, cx + 45, cy + 45], fill=2 + disc * 3)
        frames.append(frame)
    return encode(frames[0], "GIF", save_all=True, append_images=frames[1:],
                  duration=PLAYER_FRAME_MS, loop=0)


def encode(image, fmt, **params):
    buffer = io.BytesIO()
    image.save(buffer, fmt, **params)
    return buffer.getvalue()


INPUTS = {
    "photo.jpg": make_photo_jpg,
    "rgba.png": make_rgba_png,
    "anim.gif": make_anim_gif,
    "still.webp": make_still_webp,
    "anim.webp": make_anim_webp,
    "anim.png": make_anim_apng,
    "still.avif": make_still_avif,
    "still.heic": make_still_heic,
    "still.jxl": make_still_jxl,
    "still.tif": make_still_tiff,
    "still.bmp": make_still_bmp,
    "icon.ico": make_icon_ico,
    "deep.png": make_deep_png,
    "logo.svg": make_logo_svg,
    "photo-adobe.jpg": make_photo_adobe_jpg,
    "cache.jpg": make_cache_jpg,
    "photo-1mp.png": make_photo_png,
    "player.gif": make_player_gif,
}


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def up_to_date(out_dir, manifest):
    if manifest.get("generator") != GENERATOR_VERSION:
        return False
    files = manifest.get("files", {})
    for name in INPUTS:
        path = out_dir / name
        entry = files.get(name)
        if not entry or not path.is_file() or path.stat().st_size != entry["size"]:
            return False
        if digest(path) != entry["sha256"]:
            return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=HERE / "inputs")
    parser.add_argument("--force", action="store_true", help="regenerate even if up to date")
    args = parser.parse_args()
    out_dir = args.out
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest_path = out_dir / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, ValueError):
        manifest = {}
    if not args.force and up_to_date(out_dir, manifest):
        print(f"inputs up to date in {out_dir}", file=sys.stderr)
        return
    files = {}
    for name, make in INPUTS.items():
        data = make()
        (out_dir / name).write_bytes(data)
        files[name] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        print(f"wrote {name}: {len(data) / 1024:.0f} KiB", file=sys.stderr)
    import PIL
    manifest = {"generator": GENERATOR_VERSION, "pillow": PIL.__version__, "files": files}
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")


if __name__ == "__main__":
    main()
