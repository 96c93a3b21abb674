"""Pictures several generators encode alike, and the bit packing their formats share (not a
generator itself: generate.py skips names starting with `_`). Each picture is a fresh numpy
array, so a caller may draw on it."""
import numpy as np


def gradient(w, h):
    """Red across, green down, blue along the diagonal: smooth RGB ramps, h x w x 3."""
    y, x = np.mgrid[0:h, 0:w]
    return np.stack([x * 255 // (w - 1), y * 255 // (h - 1), (x + y) * 255 // (w + h - 2)], axis=-1).astype(np.uint8)


def photo(w, h, seed, spread):
    """`gradient` with seeded noise of up to ±`spread` levels: detail that lossy coders must keep."""
    noise = np.random.default_rng(seed).integers(-spread, spread, size=(h, w, 3))
    return np.clip(gradient(w, h).astype(int) + noise, 0, 255).astype(np.uint8)


def quadrants():
    """64x48 RGB: red, green / blue, white."""
    a = np.zeros((48, 64, 3), np.uint8)
    a[0:24, 0:32] = (255, 0, 0)
    a[0:24, 32:64] = (0, 255, 0)
    a[24:48, 0:32] = (0, 0, 255)
    a[24:48, 32:64] = (255, 255, 255)
    return a


def transparency():
    """32x32 RGBA: opaque red and blue blocks over half-visible green and invisible pixels that
    still carry RGB (alpha 255, 128, 0)."""
    rgba = np.zeros((32, 32, 4), np.uint8)
    rgba[0:16, 0:16] = (255, 0, 0, 255)
    rgba[0:16, 16:32] = (0, 0, 255, 255)
    rgba[16:32, 0:16] = (0, 200, 0, 128)
    rgba[16:32, 16:32] = (10, 200, 30, 0)
    return rgba


def rotated():
    """48x32 RGB as stored for an orientation test: grey, a red block in the stored top-left
    corner and a blue one bottom-right, so that any turn or mirror shows."""
    stored = np.zeros((32, 48, 3), np.uint8)
    stored[:, :] = (40, 40, 40)
    stored[0:8, 0:12] = (255, 0, 0)
    stored[24:32, 36:48] = (0, 0, 255)
    return stored


def pack_bits(values, bits):
    """Values of `bits` bits (1, 2, 4 or 8) packed most significant first, the last byte padded
    with zero bits: a row of low-depth PNG samples or of bitmap palette indices and masks."""
    out, acc, filled = bytearray(), 0, 0
    for value in values:
        acc = (acc << bits) | int(value)
        filled += bits
        if filled == 8:
            out.append(acc)
            acc, filled = 0, 0
    if filled:
        out.append(acc << (8 - filled))
    return bytes(out)
