#!/usr/bin/env python3
"""Bytes at equal quality: our encoders against Pillow's and libvips', for JPEG and WebP.

Each encoder writes the same 1 MP RGB photo at a sweep of quality settings: by default the
benchmark's photo generator (make_inputs.py) at 1152x864 with light noise (sigma 2), since heavy
pixel noise, which every lossy encoder smooths away, would dominate the score. Every file is decoded again (by Pillow) and compared with the source by SSIM
(Wang et al. 2004: an 11-tap Gaussian window, sigma 1.5, averaged over R, G and B, so lost colour
counts too). For a few SSIM targets the script interpolates each encoder's bytes and prints
ours / theirs: below 1, our file is smaller at the same fidelity.

Ours runs through the command line (`webimage convert --quality Q/100`), so pass the binary:

    python3 Benchmarks/quality_table.py --webimage .build/release/webimage

Usage: quality_table.py --webimage PATH [--input FILE] [--targets 0.93,0.94]
(`scripts/bench --quality-table` builds the release binary and runs this.)
"""
import argparse
import io
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import pyvips
from PIL import Image

from ssim import ssim

HERE = pathlib.Path(__file__).resolve().parent
QUALITIES = list(range(20, 100, 5))


def ours(webimage, source_path, fmt, quality):
    with tempfile.TemporaryDirectory() as folder:
        out = pathlib.Path(folder) / f"out.{fmt}"
        subprocess.run(
            [webimage, "convert", str(source_path), str(out), "--quality", f"{quality / 100:.2f}"],
            check=True, capture_output=True)
        return out.read_bytes()


def pillow(source, fmt, quality):
    buffer = io.BytesIO()
    source.save(buffer, {"jpeg": "JPEG", "webp": "WEBP"}[fmt], quality=quality)
    return buffer.getvalue()


def vips(source_path, fmt, quality):
    image = pyvips.Image.new_from_file(str(source_path), access="sequential")
    return image.write_to_buffer(f".{fmt}", Q=quality)


def at_target(points, target):
    """Bytes at SSIM `target`, interpolated between the sweep's points (None if out of range)."""
    points = sorted(points)
    for (s0, b0), (s1, b1) in zip(points, points[1:]):
        if s0 <= target <= s1 and s1 > s0:
            return b0 + (b1 - b0) * (target - s0) / (s1 - s0)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--webimage", required=True)
    parser.add_argument("--input", type=pathlib.Path, help="an RGB image (default: generated)")
    parser.add_argument("--targets", default="0.93,0.94")
    args = parser.parse_args()
    targets = [float(t) for t in args.targets.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        if args.input is None:
            sys.path.insert(0, str(HERE))
            import make_inputs
            args.input = pathlib.Path(folder) / "photo-light-noise.png"
            rgb = make_inputs.photo_like(seed=7, width=1152, height=864, noise_sigma=2)
            Image.fromarray(rgb, "RGB").save(args.input)
        return table(args, targets)


def table(args, targets):
    source = Image.open(args.input).convert("RGB")
    reference = np.asarray(source)
    encoders = {
        "ours": lambda fmt, q: ours(args.webimage, args.input, fmt, q),
        "Pillow": lambda fmt, q: pillow(source, fmt, q),
        "libvips": lambda fmt, q: vips(args.input, fmt, q),
    }
    print(f"input: {args.input.name} {source.width}x{source.height}; SSIM over R, G, B; qualities {QUALITIES[0]}-{QUALITIES[-1]}")
    print("| format | SSIM | ours bytes | Pillow bytes | libvips bytes | ours / Pillow | ours / libvips |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for fmt in ("jpeg", "webp"):
        sweeps = {}
        for name, encode in encoders.items():
            points = []
            for quality in QUALITIES:
                data = encode(fmt, quality)
                decoded = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
                points.append((ssim(reference, decoded), len(data)))
            sweeps[name] = points
        low = max(min(points)[0] for points in sweeps.values())
        high = min(max(points)[0] for points in sweeps.values())
        print(f"| {fmt} | sweep covers SSIM {low:.3f}-{high:.3f} |  |  |  |  |  |")
        for target in targets:
            sizes = {name: at_target(points, target) for name, points in sweeps.items()}
            if any(size is None for size in sizes.values()):
                print(f"| {fmt} | {target:.2f} | out of the sweep's range |  |  |  |  |")
                continue
            print(f"| {fmt} | {target:.2f} | {sizes['ours']:.0f} | {sizes['Pillow']:.0f} | {sizes['libvips']:.0f} "
                  f"| {sizes['ours'] / sizes['Pillow']:.2f} | {sizes['ours'] / sizes['libvips']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
