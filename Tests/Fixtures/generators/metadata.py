"""Metadata fixtures: EXIF, ICC and XMP written by Pillow, an independent writer.

srgb.icc          the sRGB profile littlecms makes (the ICC block every fixture below carries)
metadata.xmp      the XMP packet every fixture below carries
photo.jpg         48x32 q90, EXIF (orientation 6, Make "WebImageTests"), ICC in one APP2, XMP
large_icc.jpg     16x16 q90 whose 150,000-byte profile spans three APP2 segments (its bytes:
                  srgb.icc's first 128, then (i * 7) & 0xFF for i from 0; tests rebuild it)
photo.png         48x32 RGB with iCCP (deflated by Pillow), eXIf (orientation 6) and an XMP iTXt
photo.webp        48x32 lossy q90 with ICCP, EXIF (orientation 6) and XMP chunks
"""

import numpy as np
from PIL import Image, ImageCms, PngImagePlugin

XMP = (
    b'<?xpacket begin="\xef\xbb\xbf" id="W5M0MpCehiHzreSzNTczkc9d"?>'
    b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    b'<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">'
    b"<dc:creator>WebImageTests</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>"
    b'<?xpacket end="w"?>'
)


def _photo(w, h):
    y, x = np.mgrid[0:h, 0:w]
    a = np.zeros((h, w, 3), np.uint8)
    a[..., 0] = x * 255 // max(w - 1, 1)
    a[..., 1] = y * 255 // max(h - 1, 1)
    a[..., 2] = 128
    return Image.fromarray(a, "RGB")


def _exif():
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotate 90° clockwise to show
    exif[0x010F] = "WebImageTests"  # Make
    return exif


def generate(out):
    icc = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    # littlecms stamps the creation time (header bytes 24-35); a fixed one keeps this deterministic.
    icc[24:36] = bytes([0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])
    icc = bytes(icc)
    (out / "srgb.icc").write_bytes(icc)
    (out / "metadata.xmp").write_bytes(XMP)
    photo = _photo(48, 32)
    photo.save(out / "photo.jpg", quality=90, exif=_exif(), icc_profile=icc, xmp=XMP)

    large = bytearray(icc[:128]) + bytes((i * 7) & 0xFF for i in range(150_000 - 128))
    _photo(16, 16).save(out / "large_icc.jpg", quality=90, icc_profile=bytes(large))

    info = PngImagePlugin.PngInfo()
    info.add_itxt("XML:com.adobe.xmp", XMP.decode("utf-8"))
    photo.save(out / "photo.png", icc_profile=icc, exif=_exif(), pnginfo=info)

    photo.save(out / "photo.webp", quality=90, icc_profile=icc, exif=_exif(), xmp=XMP)

    # Pillow reads back what it wrote (a check on the generator, not on our code).
    for name in ("photo.jpg", "photo.png", "photo.webp"):
        with Image.open(out / name) as im:
            assert im.info.get("icc_profile") == icc, name
            assert im.getexif().get(0x0112) == 6, name
    with Image.open(out / "large_icc.jpg") as im:
        assert im.info.get("icc_profile") == bytes(large)
