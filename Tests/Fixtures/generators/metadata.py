"""Metadata fixtures: EXIF, ICC and XMP written by Pillow, an independent writer.

srgb.icc          the sRGB profile littlecms makes (the ICC block every fixture below carries)
metadata.xmp      the XMP packet every fixture below carries
photo.jpg         48x32 q90, EXIF (orientation 6, Make "WebImageTests"), ICC in one APP2, XMP
large_icc.jpg     16x16 q90 whose 150,000-byte profile spans three APP2 segments (its bytes:
                  srgb.icc's first 128, then (i * 7) & 0xFF for i from 0; tests rebuild it)
photo.png         48x32 RGB with iCCP (deflated by Pillow), eXIf (orientation 6) and an XMP iTXt
photo.webp        48x32 lossy q90 with ICCP, EXIF (orientation 6) and XMP chunks
camera.jpg        32x24 q90 with a camera's EXIF (IFD0, Exif and GPS IFDs), an XMP packet with
                  attributes, Seq, Bag and Alt, and an APP13 Photoshop 3.0 segment holding
                  IPTC-IIM (resource 0x0404) and a 240 dpi ResolutionInfo (resource 0x03ED)
"""

import struct

import numpy as np
from PIL import ExifTags, Image, ImageCms, IptcImagePlugin, PngImagePlugin
from PIL.TiffImagePlugin import IFDRational

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

    _camera(out)

    # Pillow reads back what it wrote (a check on the generator, not on our code).
    for name in ("photo.jpg", "photo.png", "photo.webp"):
        with Image.open(out / name) as im:
            assert im.info.get("icc_profile") == icc, name
            assert im.getexif().get(0x0112) == 6, name
    with Image.open(out / "large_icc.jpg") as im:
        assert im.info.get("icc_profile") == bytes(large)


CAMERA_XMP = (
    b'<?xpacket begin="\xef\xbb\xbf" id="W5M0MpCehiHzreSzNTczkc9d"?>'
    b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    b'<rdf:Description rdf:about="" xmlns:aux="http://ns.adobe.com/exif/1.0/aux/"'
    b' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"'
    b' aux:Lens="16.0-35.0 mm f/4.0" aux:SerialNumber="12345678" photoshop:DateCreated="2016-09-11T18:44:50.003">'
    b"<dc:creator><rdf:Seq><rdf:li>Peter B. Parker</rdf:li></rdf:Seq></dc:creator>"
    b"<dc:subject><rdf:Bag><rdf:li>spider-man</rdf:li><rdf:li>menace</rdf:li></rdf:Bag></dc:subject>"
    b'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Spider-Man &amp; friends</rdf:li></rdf:Alt></dc:title>'
    b"<dc:format>image/jpeg</dc:format></rdf:Description></rdf:RDF></x:xmpmeta>"
    b'<?xpacket end="w"?>'
)


def _iptc_dataset(record, number, value):
    return bytes([0x1C, record, number]) + struct.pack(">H", len(value)) + value


def _photoshop_resource(resource_id, data):
    padding = b"\0" if len(data) % 2 else b""
    return b"8BIM" + struct.pack(">H", resource_id) + b"\0\0" + struct.pack(">I", len(data)) + data + padding


def _camera(out):
    exif = Image.Exif()
    exif[0x010F] = "NIKON CORPORATION"
    exif[0x0110] = "NIKON D810"
    exif[0x0112] = 1
    exif[0x011A] = IFDRational(300, 1)
    exif[0x0128] = 2
    exif[0x0132] = "2016:09:11 22:15:03"
    sub = exif.get_ifd(ExifTags.IFD.Exif)
    sub[0x829A] = IFDRational(1, 250)  # ExposureTime
    sub[0x829D] = IFDRational(16, 1)  # FNumber
    sub[0x8827] = 200  # ISOSpeedRatings
    sub[0x9003] = "2016:09:11 18:44:50"  # DateTimeOriginal
    sub[0x9202] = IFDRational(8, 1)  # ApertureValue
    sub[0x9209] = 0x10  # Flash: did not fire, compulsory mode
    sub[0x920A] = IFDRational(50, 1)  # FocalLength
    sub[0xA001] = 1  # ColorSpace
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[0x0001] = "N"
    gps[0x0002] = (IFDRational(52, 1), IFDRational(22, 1), IFDRational(1234, 100))
    gps[0x0006] = IFDRational(1234, 10)  # GPSAltitude

    iim = _iptc_dataset(2, 0, b"\0\x04") + _iptc_dataset(2, 5, b"Spider-Man")
    iim += _iptc_dataset(2, 120, b"Spider-Man swings on the web") + _iptc_dataset(2, 116, b"Daily Bugle")
    for keyword in (b"spider-man", b"menace", b"offender"):
        iim += _iptc_dataset(2, 25, keyword)
    resolution = struct.pack(">IHHIHH", 240 << 16, 1, 1, 240 << 16, 1, 1)
    app13 = b"Photoshop 3.0\0" + _photoshop_resource(0x03ED, resolution) + _photoshop_resource(0x0404, iim)

    path = out / "camera.jpg"
    _photo(32, 24).save(path, quality=90, exif=exif, xmp=CAMERA_XMP)
    jpeg = path.read_bytes()
    path.write_bytes(jpeg[:2] + b"\xff\xed" + struct.pack(">H", len(app13) + 2) + app13 + jpeg[2:])

    with Image.open(path) as im:
        read = im.getexif()
        assert read[0x0110] == "NIKON D810"
        assert read.get_ifd(ExifTags.IFD.Exif)[0x829A] == IFDRational(1, 250)
        assert read.get_ifd(ExifTags.IFD.GPSInfo)[0x0001] == "N"
        iptc = IptcImagePlugin.getiptcinfo(im)
        assert iptc[(2, 5)] == b"Spider-Man"
        assert iptc[(2, 25)] == [b"spider-man", b"menace", b"offender"]
        assert im.info["photoshop"][0x03ED]["XResolution"] == 240.0
