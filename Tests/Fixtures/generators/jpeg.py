"""JPEG fixtures for JPEGCoder's tests. Deterministic: fixed sizes, colours and noise seed.

Colours that tests check are solid blocks aligned to 16-pixel MCUs, so that their centres
decode to the block colour within a small tolerance whatever the chroma subsampling.
"""
import io
import pathlib

import numpy as np
from PIL import Image, ImageOps

# Upright quadrant colours: top-left, top-right, bottom-left, bottom-right.
QUADRANTS = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
# Gray levels by quadrant for gray.jpg.
GRAY_LEVELS = [0, 85, 170, 255]
# CMYK inks by quadrant: red, green, white, "rich black" (C=0 M=Y=K=255).
CMYK_INKS = [(0, 255, 255, 0), (255, 0, 255, 0), (0, 0, 0, 0), (0, 255, 255, 255)]

# How exif_transpose undoes each orientation; the stored image is the inverse applied to upright.
TRANSPOSE = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
INVERSE = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,
}


def quadrants(width, height, colours, channels=3, noise=0, seed=0):
    """A width×height array whose four quadrants are `colours`, plus optional seeded noise."""
    shape = (height, width, channels) if channels > 1 else (height, width)
    a = np.zeros(shape, dtype=np.float64)
    h2, w2 = height // 2, width // 2
    for index, colour in enumerate(colours):
        ys = slice(0, h2) if index < 2 else slice(h2, height)
        xs = slice(0, w2) if index % 2 == 0 else slice(w2, width)
        a[ys, xs] = colour
    if noise:
        rng = np.random.default_rng(seed)
        a += rng.normal(0, noise, a.shape)
    return np.clip(a.round(), 0, 255).astype(np.uint8)


def centre_colours(image):
    """The colours at the centres of the four quadrants (for checking the generator)."""
    w, h = image.size
    points = [(w // 4, h // 4), (3 * w // 4, h // 4), (w // 4, 3 * h // 4), (3 * w // 4, 3 * h // 4)]
    return [image.getpixel(p) for p in points]


def close(a, b, tolerance=12):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def strip_app14(data):
    """Removes the Adobe APP14 segment, so that libjpeg reads the inks as not inverted."""
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker == 0xEE:
            return data[:i] + data[i + 2 + length:]
        if marker == 0xDA:
            break
        i += 2 + length
    raise ValueError("no APP14 segment")


def generate(out_dir: pathlib.Path):
    upright = Image.fromarray(quadrants(64, 32, QUADRANTS))

    # Baseline RGB, solid blocks, quality 95.
    upright.resize((64, 48), Image.Resampling.NEAREST).save(out_dir / "baseline.jpg", quality=95)

    # Progressive, with texture so that the scans carry data (incremental tests cut it up).
    progressive = Image.fromarray(quadrants(320, 240, QUADRANTS, noise=10, seed=1))
    progressive.save(out_dir / "progressive.jpg", quality=90, progressive=True)

    # Grayscale.
    Image.fromarray(quadrants(64, 48, GRAY_LEVELS, channels=1), "L").save(out_dir / "gray.jpg", quality=95)

    # CMYK as Pillow (and Photoshop) write it: inverted inks plus an Adobe APP14 marker.
    cmyk = Image.fromarray(quadrants(64, 48, CMYK_INKS, channels=4), "CMYK")
    buffer = io.BytesIO()
    cmyk.save(buffer, "JPEG", quality=95)
    (out_dir / "cmyk_adobe.jpg").write_bytes(buffer.getvalue())
    # The same bytes without APP14: a reader must take the stored values as plain inks.
    (out_dir / "cmyk_no_adobe.jpg").write_bytes(strip_app14(buffer.getvalue()))

    # The eight EXIF orientations: stored pre-transformed, tagged so that they show `upright`.
    for orientation in range(1, 9):
        stored = upright if orientation == 1 else upright.transpose(INVERSE[orientation])
        exif = Image.Exif()
        exif[0x0112] = orientation
        path = out_dir / f"orientation_{orientation}.jpg"
        stored.save(path, quality=95, exif=exif.tobytes())
        check = ImageOps.exif_transpose(Image.open(path))
        assert check.size == upright.size, (orientation, check.size)
        assert all(close(a, b) for a, b in zip(centre_colours(check), QUADRANTS)), orientation

    # 800×600 for DCT scaling: quadrants plus a soft gradient, baseline 4:2:0.
    y, x = np.mgrid[0:600, 0:800]
    photo = quadrants(800, 600, QUADRANTS).astype(np.float64)
    photo *= (0.75 + 0.25 * (x / 799.0))[..., None]
    Image.fromarray(photo.round().astype(np.uint8)).save(out_dir / "photo_800x600.jpg", quality=85)

    # 4:4:4 with a restart marker after every MCU row.
    upright.resize((64, 48), Image.Resampling.NEAREST).save(
        out_dir / "restart_444.jpg", quality=95, subsampling=0, restart_marker_rows=1)
