"""APNG fixtures, written chunk by chunk here (Pillow's writer picks its own regions, disposal and
blending), with reference frames composited here in floating point from the APNG specification,
independently of the decoder under test; Pillow's own APNG reader cross-checks the files whose
frames it composites as the specification says (it pastes OVER frames with their alpha as a
mask, which is right only for alpha 0 and 255).

dispose-blend.png    32x24 RGBA, 4 frames, loop 3; frame 0 is the default image (full canvas,
                     SOURCE, NONE); 1: 8x8 at 4,4, alpha 128, OVER, PREVIOUS; 2: 10x6 at 16,10,
                     partly transparent, SOURCE, BACKGROUND; 3: 12x12 at 10,6, alpha 0/255,
                     OVER, NONE. Delays 1/10, 50/1000, 0/0 and 3/0 (a zero denominator means 100).
hidden-default.png   20x16 RGB whose default image is not a frame; 2 frames from fdAT, loop 0,
                     the second 6x5 at 7,3 with PREVIOUS as the first frame's disposal.
palette.png          16x16 palette with tRNS (PLTE and tRNS shared by every frame), 3 frames.
NAME.frames.rgba     every frame of NAME as shown, RGBA, one after another.
"""
import struct
import zlib

import numpy as np
from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def ihdr(width, height, color_type):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0))


def image_data(pixels):
    """Filter type 0 on every row, deflated: the zlib stream of `pixels` (H x W x C uint8)."""
    rows = b"".join(b"\x00" + row.tobytes() for row in pixels)
    return zlib.compress(rows, 9)


def fctl(sequence, frame, delay, dispose, blend):
    height, width = frame["pixels"].shape[:2]
    return chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, width, height, frame["x"], frame["y"],
                                      delay[0], delay[1], dispose, blend))


def write_apng(path, width, height, color_type, frames, loops, default=None, shared=b""):
    """frames: dicts with pixels, x, y, delay, dispose, blend. `default` (pixels) is a default
    image that is not a frame; without it, frame 0's data is the IDAT."""
    out = SIGNATURE + ihdr(width, height, color_type) + shared
    out += chunk(b"acTL", struct.pack(">II", len(frames), loops))
    sequence = 0
    if default is not None:
        out += chunk(b"IDAT", image_data(default))
    for index, frame in enumerate(frames):
        out += fctl(sequence, frame, frame["delay"], frame["dispose"], frame["blend"])
        sequence += 1
        data = image_data(frame["pixels"])
        if index == 0 and default is None:
            half = len(data) // 2  # two IDAT chunks: the stream continues across them
            out += chunk(b"IDAT", data[:half]) + chunk(b"IDAT", data[half:])
        else:
            out += chunk(b"fdAT", struct.pack(">I", sequence) + data)
            sequence += 1
    out += chunk(b"IEND", b"")
    path.write_bytes(out)


def composite(width, height, frames, rgba_of):
    """The frames as shown, by the specification, in float (straight alpha, rounded at the end of
    each frame's blend as an 8-bit canvas would be)."""
    canvas = np.zeros((height, width, 4), np.float64)
    shown = []
    for index, frame in enumerate(frames):
        src = rgba_of(frame["pixels"]).astype(np.float64)
        h, w = src.shape[:2]
        y, x = frame["y"], frame["x"]
        before = canvas[y:y + h, x:x + w].copy()
        if frame["blend"] == 0:
            canvas[y:y + h, x:x + w] = src
        else:
            sa = src[..., 3:4] / 255
            da = before[..., 3:4] / 255
            out_a = sa + da * (1 - sa)
            color = np.where(out_a > 0, (src[..., :3] * sa + before[..., :3] * da * (1 - sa)) / np.maximum(out_a, 1e-12), 0)
            canvas[y:y + h, x:x + w, :3] = color
            canvas[y:y + h, x:x + w, 3:4] = out_a * 255
        canvas = np.floor(canvas + 0.5)
        shown.append(canvas.astype(np.uint8).copy())
        dispose = frame["dispose"]
        if dispose == 2 and index == 0:
            dispose = 1
        if dispose == 1:
            canvas[y:y + h, x:x + w] = 0
        elif dispose == 2:
            canvas[y:y + h, x:x + w] = before
    return shown


def rgba(pixels):
    if pixels.shape[2] == 4:
        return pixels
    alpha = np.full(pixels.shape[:2] + (1,), 255, np.uint8)
    return np.concatenate([pixels, alpha], axis=2)


def ramp(width, height, channels, seed):
    y, x = np.mgrid[0:height, 0:width]
    a = np.zeros((height, width, channels), np.uint8)
    a[..., 0] = (x * 255 // max(width - 1, 1) + seed * 40) % 256
    a[..., 1] = (y * 255 // max(height - 1, 1) + seed * 70) % 256
    a[..., 2] = (x * y * 7 + seed * 90) % 256
    if channels == 4:
        a[..., 3] = 255
    return a


def write_frames(path, shown):
    path.with_name(path.stem + ".frames.rgba").write_bytes(b"".join(frame.tobytes() for frame in shown))


def pillow_frames(path):
    frames = []
    with Image.open(path) as image:
        for index in range(image.n_frames):
            image.seek(index)
            frames.append(np.asarray(image.convert("RGBA")))
    return frames


def same_visible(a, b):
    """Equal alpha everywhere and equal colour where visible (Pillow clears a palette image to
    entry 0, whose colour under alpha 0 is not black)."""
    visible = a[..., 3] > 0
    return (a[..., 3] == b[..., 3]).all() and (a[visible] == b[visible]).all()


def generate(out):
    # dispose-blend.png
    base = ramp(32, 24, 4, 0)
    base[:4, :, 3] = 0  # a transparent band along the top
    translucent = ramp(8, 8, 4, 1)
    translucent[..., 3] = 128
    holed = ramp(10, 6, 4, 2)
    holed[2:4, 3:7] = 0
    binary = ramp(12, 12, 4, 3)
    binary[::2, ::3, 3] = 0
    frames = [
        dict(pixels=base, x=0, y=0, delay=(1, 10), dispose=0, blend=0),
        dict(pixels=translucent, x=4, y=4, delay=(50, 1000), dispose=2, blend=1),
        dict(pixels=holed, x=16, y=10, delay=(0, 0), dispose=1, blend=0),
        dict(pixels=binary, x=10, y=6, delay=(3, 0), dispose=0, blend=1),
    ]
    path = out / "dispose-blend.png"
    write_apng(path, 32, 24, 6, frames, loops=3)
    write_frames(path, composite(32, 24, frames, rgba))

    # hidden-default.png
    frames = [
        dict(pixels=ramp(20, 16, 3, 4), x=0, y=0, delay=(2, 25), dispose=2, blend=0),
        dict(pixels=ramp(6, 5, 3, 5), x=7, y=3, delay=(1, 1), dispose=0, blend=1),
    ]
    path = out / "hidden-default.png"
    write_apng(path, 20, 16, 2, frames, loops=0, default=np.zeros((16, 20, 3), np.uint8))
    shown = composite(20, 16, frames, rgba)
    write_frames(path, shown)
    # Pillow counts the default image as its frame 0, and for the first frame's PREVIOUS restores
    # that image where the specification says to clear: only the first frame is comparable.
    assert (shown[0] == pillow_frames(path)[1]).all(), "Pillow disagrees"

    # palette.png: entries i -> (i*16, 255-i*16, i*8), entry 0 transparent, entry 1 alpha 255 (opaque)
    palette = bytes(v for i in range(16) for v in (i * 16, 255 - i * 16, i * 8))
    alphas = bytes([0] + [255] * 15)
    shared = chunk(b"PLTE", palette) + chunk(b"tRNS", alphas)
    y, x = np.mgrid[0:16, 0:16]
    indices = [((x + y + k * 5) % 16).astype(np.uint8)[..., None] for k in range(3)]
    frames = [
        dict(pixels=indices[0], x=0, y=0, delay=(1, 20), dispose=0, blend=0),
        dict(pixels=indices[1][:8, :8], x=4, y=4, delay=(1, 20), dispose=1, blend=1),
        dict(pixels=indices[2][:5, :9], x=7, y=11, delay=(1, 20), dispose=0, blend=0),
    ]
    lookup = np.array([[palette[i * 3], palette[i * 3 + 1], palette[i * 3 + 2], alphas[i]] for i in range(16)], np.uint8)
    path = out / "palette.png"
    write_apng(path, 16, 16, 3, frames, loops=1, shared=shared)
    shown = composite(16, 16, frames, lambda p: lookup[p[..., 0]])
    write_frames(path, shown)
    assert all(same_visible(a, b) for a, b in zip(shown, pillow_frames(path))), "Pillow disagrees"
