#!/usr/bin/env python3
"""libvips' side of the thumbnail case: what `vipsthumbnail` does, timed in-process.

pyvips (cffi, ABI mode against Debian's libvips42) calls vips_thumbnail_buffer, the function
the vipsthumbnail tool runs: shrink-on-load (a JPEG DCT scale), then a Lanczos-3 reduce. The
timed body starts from bytes in memory and ends with the pixels in memory
(`write_to_memory()`, RGB). Process start-up and libvips' initialisation happen before timing.
libvips runs its pipeline on its own thread pool (as many threads as cores, its default).

Same arguments and output as pillow_bench.py (whose measuring code this reuses).
"""
import sys

import pyvips

import pillow_bench

CASES = {}


def case(name, input_name):
    def register(setup):
        CASES[name] = (input_name, setup)
        return setup
    return register


@case("thumb-path-vips", "photo.jpg")
def thumb_path_vips(data):
    def body():
        image = pyvips.Image.thumbnail_buffer(data, 400, height=300)
        return image.width, image.height, image.write_to_memory()
    return body


def digest(output):
    width, height, memory = output
    pixels = bytes(memory)
    checksum = pixels[0] + pixels[len(pixels) // 2] + pixels[-1]
    return checksum, f"{width}x{height}x1"


if __name__ == "__main__":
    major, minor = pyvips.version(0), pyvips.version(1)
    sys.exit(pillow_bench.main(CASES, tool=f"libvips {major}.{minor} (pyvips)", digest=digest))
