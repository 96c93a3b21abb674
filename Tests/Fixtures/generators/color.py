"""Colour-management fixtures: images with embedded ICC profiles, and the sRGB pixels Pillow's
ImageCms (its own Little CMS build) makes of them with the relative-colorimetric intent.

The profiles are built with the system's Little CMS (liblcms2.so.2, through ctypes) from their
published primaries, white point and tone curves:
adobe-rgb.icc     Adobe RGB (1998): D65, gamma 563/256
display-p3.icc    Display P3: P3 primaries, D65, the sRGB tone curve
gray-gamma18.icc  grey, D50, gamma 1.8
lab.icc           a Lab profile, which cannot describe RGB pixels

Images (64x48 ramps with saturated corners), each with FILE.rgba (display-p3.png.rgba), the
reference sRGB pixels:
display-p3.png         RGB, iCCP Display P3
adobe-rgb-alpha.png    RGBA (alpha ramps down the rows), iCCP Adobe RGB
adobe-rgb.jpg          q95 4:4:4, APP2 Adobe RGB
display-p3.webp        lossless, ICCP Display P3
adobe-rgb.tif         deflate RGB, ICCProfile tag Adobe RGB
display-p3.avif        q90 4:4:4, colr ICC Display P3
display-p3.heic        q90 4:4:4, colr ICC Display P3 (pillow-heif)
gray-gamma18.jpg       grey q95, APP2 grey gamma 1.8 (reference: Pillow's L -> RGB transform)
srgb.png               iCCP with Little CMS's sRGB: the pixels must come out untouched
broken-profile.png     iCCP holding 600 bytes that are no profile: untouched, no error
lab-profile.png        iCCP holding lab.icc: untouched, profile dropped
FILE.original.rgba     for display-p3.png and adobe-rgb-alpha.png: the pixels as stored
"""
import ctypes
import io
import struct

import numpy as np
from PIL import Image, ImageCms

_lcms = ctypes.CDLL("liblcms2.so.2")
_lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
_lcms.cmsCreateGrayProfile.restype = ctypes.c_void_p
_lcms.cmsCreateLab4Profile.restype = ctypes.c_void_p
_lcms.cmsBuildGamma.restype = ctypes.c_void_p
_lcms.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
_lcms.cmsMLUalloc.restype = ctypes.c_void_p


class _XyY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]


D65 = _XyY(0.3127, 0.3290, 1.0)
D50 = _XyY(0.3457, 0.3585, 1.0)


def _save(profile, description):
    mlu = ctypes.c_void_p(_lcms.cmsMLUalloc(None, 1))
    _lcms.cmsMLUsetASCII(mlu, b"en", b"US", description.encode())
    _lcms.cmsWriteTag(ctypes.c_void_p(profile), 0x64657363, mlu)  # 'desc'
    _lcms.cmsMLUfree(mlu)
    size = ctypes.c_uint32(0)
    _lcms.cmsSaveProfileToMem(ctypes.c_void_p(profile), None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    _lcms.cmsSaveProfileToMem(ctypes.c_void_p(profile), buffer, ctypes.byref(size))
    _lcms.cmsCloseProfile(ctypes.c_void_p(profile))
    return _fixed_date(buffer.raw[: size.value])


def _fixed_date(profile):
    """A fixed creation date (lcms writes the current time): the same bytes on every run."""
    return profile[:24] + struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + profile[36:]


def _rgb_profile(primaries, curve, description):
    triple = (_XyY * 3)(*[_XyY(x, y, 1.0) for x, y in primaries])
    curves = (ctypes.c_void_p * 3)(curve, curve, curve)
    return _save(_lcms.cmsCreateRGBProfile(ctypes.byref(D65), triple, curves), description)


def adobe_rgb():
    gamma = _lcms.cmsBuildGamma(None, ctypes.c_double(563 / 256))
    return _rgb_profile([(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)], gamma, "Adobe RGB (1998) compatible")


def display_p3():
    params = (ctypes.c_double * 5)(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
    srgb_curve = _lcms.cmsBuildParametricToneCurve(None, 4, params)
    return _rgb_profile([(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], srgb_curve, "Display P3 compatible")


def gray_gamma18():
    gamma = _lcms.cmsBuildGamma(None, ctypes.c_double(1.8))
    return _save(_lcms.cmsCreateGrayProfile(ctypes.byref(D50), ctypes.c_void_p(gamma)), "Gray gamma 1.8")


def lab():
    return _save(_lcms.cmsCreateLab4Profile(None), "Lab D50")


def _ramps(w=64, h=48, alpha=False):
    y, x = np.mgrid[0:h, 0:w]
    a = np.zeros((h, w, 4 if alpha else 3), np.uint8)
    a[..., 0] = x * 255 // (w - 1)
    a[..., 1] = y * 255 // (h - 1)
    a[..., 2] = (255 - x * 255 // (w - 1) + y * 97) % 256
    a[:8, :8, :3] = (255, 0, 0)  # saturated corners: where gamuts differ most
    a[:8, -8:, :3] = (0, 255, 0)
    a[-8:, :8, :3] = (0, 0, 255)
    a[-8:, -8:, :3] = (255, 255, 0)
    if alpha:
        a[..., 3] = 255 - y * 255 // (h - 1)
    return Image.fromarray(a, "RGBA" if alpha else "RGB")


def _to_srgb(image, icc):
    source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    target = ImageCms.createProfile("sRGB")
    mode = "RGBA" if image.mode == "RGBA" else "RGB"
    return ImageCms.profileToProfile(
        image, source, target, renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, outputMode=mode
    )


def _write_reference(path, icc):
    with Image.open(path) as image:
        image.load()
        converted = _to_srgb(image, icc) if icc else image
        path.with_name(path.name + ".rgba").write_bytes(converted.convert("RGBA").tobytes())


def generate(out):
    profiles = {
        "adobe-rgb.icc": adobe_rgb(),
        "display-p3.icc": display_p3(),
        "gray-gamma18.icc": gray_gamma18(),
        "lab.icc": lab(),
    }
    for name, data in profiles.items():
        (out / name).write_bytes(data)
    adobe, p3, gray = profiles["adobe-rgb.icc"], profiles["display-p3.icc"], profiles["gray-gamma18.icc"]

    rgb, rgba = _ramps(), _ramps(alpha=True)
    rgb.save(out / "display-p3.png", icc_profile=p3)
    rgba.save(out / "adobe-rgb-alpha.png", icc_profile=adobe)
    rgb.save(out / "adobe-rgb.jpg", quality=95, subsampling=0, icc_profile=adobe)
    rgb.save(out / "display-p3.webp", lossless=True, icc_profile=p3)
    rgb.save(out / "adobe-rgb.tif", compression="tiff_adobe_deflate", icc_profile=adobe)
    rgb.save(out / "display-p3.avif", quality=90, subsampling="4:4:4", icc_profile=p3)
    import pillow_heif  # Pillow's HEIF plug-in (pip install pillow-heif)

    pillow_heif.register_heif_opener()
    rgb.save(out / "display-p3.heic", quality=90, chroma=444, icc_profile=p3)
    rgb.convert("L").save(out / "gray-gamma18.jpg", quality=95, icc_profile=gray)
    for name, icc in [
        ("display-p3.png", p3), ("adobe-rgb-alpha.png", adobe), ("adobe-rgb.jpg", adobe),
        ("display-p3.webp", p3), ("adobe-rgb.tif", adobe), ("display-p3.avif", p3), ("display-p3.heic", p3),
        ("gray-gamma18.jpg", gray),
    ]:
        _write_reference(out / name, icc)
    for name, image in [("display-p3.png", rgb), ("adobe-rgb-alpha.png", rgba)]:
        (out / (name + ".original.rgba")).write_bytes(image.convert("RGBA").tobytes())

    srgb = _fixed_date(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    rgb.save(out / "srgb.png", icc_profile=srgb)
    rgb.save(out / "broken-profile.png", icc_profile=bytes((i * 37 + 11) & 0xFF for i in range(600)))
    rgb.save(out / "lab-profile.png", icc_profile=profiles["lab.icc"])
    for name in ["srgb.png", "broken-profile.png", "lab-profile.png"]:
        _write_reference(out / name, None)
