#!/usr/bin/env python3
"""Writes the fuzz-jpeg seeds in Fuzz/corpus/jpeg: JPEGs whose EXIF data embeds a thumbnail
(IFD1's JPEGInterchangeFormat and its length), so the fuzzer starts from inputs that reach the
embedded-thumbnail decode. Needs Pillow."""
import io
import os
import struct

from PIL import Image


def jpeg(size, colour):
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG", quality=80)
    return out.getvalue()


def with_thumbnail(main, thumbnail, orientation, big_endian):
    order = ">" if big_endian else "<"
    tiff = (b"MM" if big_endian else b"II") + struct.pack(order + "HI", 42, 8)
    # IFD0 at 8: the orientation, then IFD1 at 26: where the thumbnail is; its bytes at 56.
    tiff += struct.pack(order + "H", 1) + struct.pack(order + "HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff += struct.pack(order + "I", 26)
    tiff += struct.pack(order + "H", 2)
    tiff += struct.pack(order + "HHII", 0x0201, 4, 1, 56)
    tiff += struct.pack(order + "HHII", 0x0202, 4, 1, len(thumbnail))
    tiff += struct.pack(order + "I", 0) + thumbnail
    payload = b"Exif\0\0" + tiff
    segment = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return main[:2] + segment + main[2:]


def main():
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jpeg")
    os.makedirs(folder, exist_ok=True)
    seeds = {
        "exif-thumbnail-mm.jpg": with_thumbnail(jpeg((64, 48), (200, 30, 30)), jpeg((32, 24), (30, 30, 200)), 1, True),
        "exif-thumbnail-ii-rotated.jpg": with_thumbnail(
            jpeg((48, 64), (30, 200, 30)), jpeg((24, 32), (200, 200, 30)), 6, False),
    }
    for name, data in seeds.items():
        with open(os.path.join(folder, name), "wb") as file:
            file.write(data)


if __name__ == "__main__":
    main()
