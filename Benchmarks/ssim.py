"""SSIM as the benchmarks score fidelity (quality_table.py, avif_sweep.py).

Wang et al. 2004: an 11-tap Gaussian window (sigma 1.5), 'valid' filtering, the usual constants
for 8-bit samples, the index averaged over the picture and then over R, G and B, so that lost
colour counts too.
"""
import numpy as np


def gaussian_kernel(size=11, sigma=1.5):
    offsets = np.arange(size) - size // 2
    kernel = np.exp(-(offsets**2) / (2 * sigma**2))
    return kernel / kernel.sum()


def blur(channel, kernel):
    """Separable 'valid' Gaussian filtering, one shifted sum per tap and axis."""
    taps = len(kernel)
    height, width = channel.shape
    rows = sum(kernel[k] * channel[:, k:width - taps + 1 + k] for k in range(taps))
    return sum(kernel[k] * rows[k:height - taps + 1 + k, :] for k in range(taps))


def ssim(a, b):
    """Mean SSIM of two uint8 RGB arrays, averaged over the channels."""
    kernel = gaussian_kernel()
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    scores = []
    for channel in range(3):
        x = a[:, :, channel].astype(np.float64)
        y = b[:, :, channel].astype(np.float64)
        mx, my = blur(x, kernel), blur(y, kernel)
        sxx = blur(x * x, kernel) - mx * mx
        syy = blur(y * y, kernel) - my * my
        sxy = blur(x * y, kernel) - mx * my
        index = ((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx * mx + my * my + c1) * (sxx + syy + c2))
        scores.append(index.mean())
    return float(np.mean(scores))
