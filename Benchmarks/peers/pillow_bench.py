#!/usr/bin/env python3
"""Pillow's side of the benchmark cases: the same inputs, decoded from bytes in memory.

Prints one JSON line per case in the format webimage-bench prints (median_ms, min_ms,
samples_ms, output = WxHxFRAMES), so scripts/bench reads both sides the same way.

Usage: pillow_bench.py [--case NAME]... [--filter S] [--runs N] [--warmup N] [--inputs DIR] [--list]
Exit status: 0 if every selected case ran, 1 if one failed, 2 for a usage error.
"""
import io
import os
import sys
import time

import PIL
from PIL import Image, ImageFilter

import peer_cli

CASES = {}


def case(name, input_name):
    """Registers `setup(data) -> body` under `name`; `body()` returns (checksum, list of RGBA images)."""
    def register(setup):
        CASES[name] = (input_name, setup)
        return setup
    return register


def still(convert):
    """A body that opens the bytes and returns the one RGBA image `convert(image)` makes."""
    def setup(data):
        return lambda: [convert(Image.open(io.BytesIO(data)))]
    return setup


@case("jpeg-decode", "photo.jpg")
def jpeg_decode(data):
    return still(lambda im: im.convert("RGBA"))(data)


def jpeg_thumbnail(size):
    """draft() picks libjpeg's DCT scale (1/8 here), as our decoder does; resize only if the
    DCT size is not already the target (then with Lanczos, as our resampler)."""
    def convert(im):
        im.draft("RGB", size)
        im = im.convert("RGBA")
        if im.size != size:
            im = im.resize(size, Image.Resampling.LANCZOS)
        return im
    return still(convert)


@case("jpeg-thumb", "photo.jpg")
def jpeg_thumb(data):
    return jpeg_thumbnail((500, 375))(data)


@case("jpeg-thumb-resample", "photo.jpg")
def jpeg_thumb_resample(data):
    return jpeg_thumbnail((400, 300))(data)


@case("thumb-path", "photo.jpg")
def thumb_path(data):
    """The whole thumbnail path, as jpeg-thumb-resample (our side returns RGBA too)."""
    return jpeg_thumbnail((400, 300))(data)


def opaque_bitmap(data):
    """The photo decoded once, untimed, as RGB: our side sees an opaque bitmap and skips the
    premultiply, as Pillow does for RGB (it premultiplies RGBA around a resize)."""
    im = Image.open(io.BytesIO(data)).convert("RGB")
    im.load()
    return im


@case("resize-lanczos", "photo.jpg")
def resize_lanczos(data):
    im = opaque_bitmap(data)
    return lambda: [im.resize((400, 300), Image.Resampling.LANCZOS)]


@case("resize-lanczos-1core", "photo.jpg")
def resize_lanczos_1core(data):
    return resize_lanczos(data)


@case("blur", "rgba.png")
def blur(data):
    im = Image.open(io.BytesIO(data)).convert("RGBA")
    im.load()
    return lambda: [im.filter(ImageFilter.GaussianBlur(10))]


@case("blur-1core", "rgba.png")
def blur_1core(data):
    return blur(data)


@case("png-decode", "rgba.png")
def png_decode(data):
    return still(lambda im: im.convert("RGBA"))(data)


def every_frame(data):
    """Seeks every frame (Pillow composites GIF and WebP frames onto the canvas) to RGBA."""
    def body():
        im = Image.open(io.BytesIO(data))
        frames = []
        for index in range(im.n_frames):
            im.seek(index)
            frames.append(im.convert("RGBA"))
        return frames
    return body


@case("gif-decode", "anim.gif")
def gif_decode(data):
    return every_frame(data)


@case("webp-decode", "still.webp")
def webp_decode(data):
    return still(lambda im: im.convert("RGBA"))(data)


@case("webp-anim-decode", "anim.webp")
def webp_anim_decode(data):
    return every_frame(data)


@case("apng-decode", "anim.png")
def apng_decode(data):
    return every_frame(data)


@case("avif-decode", "still.avif")
def avif_decode(data):
    # One decoder thread, as ours (Pillow's default is every core): a server decodes several
    # images at once, and one thread each keeps the comparison about the decoder, not the cores.
    from PIL import AvifImagePlugin
    AvifImagePlugin.DEFAULT_MAX_THREADS = 1
    return still(lambda im: im.convert("RGBA"))(data)


@case("jxl-decode", "still.jxl")
def jxl_decode(data):
    # pillow-jxl-plugin decodes with jxl-oxide; one thread, as ours.
    import pillow_jxl.JpegXLImagePlugin as plugin
    plugin.DECODE_THREADS = 0  # "0 disables parallelism"
    return still(lambda im: im.convert("RGBA"))(data)


@case("icc-decode-pillow", "photo-adobe.jpg")
def icc_decode_pillow(data):
    """Decode, then ImageCms's relative-colorimetric transform from the embedded profile to
    sRGB (what our decode does by default), as RGBA."""
    from PIL import ImageCms
    srgb = ImageCms.createProfile("sRGB")

    def convert(im):
        source = ImageCms.ImageCmsProfile(io.BytesIO(im.info["icc_profile"]))
        rgb = ImageCms.profileToProfile(im, source, srgb, renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        return rgb.convert("RGBA")
    return still(convert)(data)


@case("heic-decode", "still.heic")
def heic_decode(data):
    # pillow-heif: Pillow's HEIF plug-in, with its own libheif 1.23 and libde265.
    import pillow_heif
    pillow_heif.register_heif_opener()
    return still(lambda im: im.convert("RGBA"))(data)


@case("tiff-decode", "still.tif")
def tiff_decode(data):
    return still(lambda im: im.convert("RGBA"))(data)


@case("bmp-decode", "still.bmp")
def bmp_decode(data):
    return still(lambda im: im.convert("RGBA"))(data)


@case("png16-decode", "deep.png")
def png16_decode(data):
    # Pillow has no 16-bit RGBA mode: it decodes all the samples and keeps 8 bits of each.
    def load(im):
        im.load()
        return im
    return still(load)(data)


@case("ico-decode", "icon.ico")
def ico_decode(data):
    # Pillow opens the largest entry, as ours reads it.
    return still(lambda im: im.convert("RGBA"))(data)


class Encoded:
    """What an encode case returns: the file and the shape of what it holds."""

    def __init__(self, data, size, frames=1):
        self.data, self.size, self.frames = data, size, frames


def encoder(save):
    """A body that encodes the prepared images with `save(images, buffer)` into an Encoded."""
    def setup(images):
        def body():
            buffer = io.BytesIO()
            save(images, buffer)
            return Encoded(buffer.getvalue(), images[0].size, len(images))
        return body
    return setup


def decoded_frames(data, mode):
    im = Image.open(io.BytesIO(data))
    frames = []
    for index in range(getattr(im, "n_frames", 1)):
        im.seek(index)
        frames.append(im.convert(mode))
    return frames


@case("jpeg-encode", "photo.jpg")
def jpeg_encode(data):
    return encoder(lambda images, out: images[0].save(out, "JPEG", quality=80))(decoded_frames(data, "RGB"))


@case("png-encode", "photo-1mp.png")
def png_encode(data):
    # Pillow's defaults: zlib level 6, an adaptive filter per row.
    return encoder(lambda images, out: images[0].save(out, "PNG"))(decoded_frames(data, "RGB"))


@case("webp-encode", "photo-1mp.png")
def webp_encode(data):
    return encoder(lambda images, out: images[0].save(out, "WEBP", quality=80))(decoded_frames(data, "RGB"))


@case("webp-lossless-encode", "photo-1mp.png")
def webp_lossless_encode(data):
    # Our lossless effort is libwebp's quality 75 (method 4, the default for both).
    return encoder(lambda images, out: images[0].save(out, "WEBP", lossless=True, quality=75))(
        decoded_frames(data, "RGB"))


@case("avif-encode", "photo-1mp.png")
def avif_encode(data):
    # Pillow's defaults but quality 63: 4:2:0, speed 6, every core. Its libavif 1.4 encodes stills
    # with libaom's tune=iq, where quality 63 is quantizer 28; ours maps 0.63 to quantizer 23
    # (tune=ssim) and encodes at speed 9. Equal settings do not mean equal fidelity here:
    # `scripts/bench --avif` compares the two at equal SSIM.
    return encoder(lambda images, out: images[0].save(
        out, "AVIF", quality=63, speed=6, subsampling="4:2:0", max_threads=os.cpu_count()))(
        decoded_frames(data, "RGB"))


@case("heic-encode", "photo-1mp.png")
def heic_encode(data):
    # Quality 80 in both libheifs (ours maps 0.8 to it), x265's preset slow (libheif's default,
    # ours for balanced effort), 4:2:0; x265 uses every core on both sides. pillow-heif bundles
    # x265 4.3, Debian 12 has 3.5.
    import pillow_heif
    pillow_heif.register_heif_opener()
    return encoder(lambda images, out: images[0].save(out, "HEIF", quality=80, chroma=420))(
        decoded_frames(data, "RGB"))


@case("jxl-encode", "photo-1mp.png")
def jxl_encode(data):
    # Quality 80 is distance 1.9 in both (the plug-in's libjxl maps it with
    # JxlEncoderDistanceFromQuality, ours with cjxl 0.7's same formula); effort 7 is both
    # defaults; one thread, as ours.
    import pillow_jxl  # noqa: F401  (registers the plug-in)
    return encoder(lambda images, out: images[0].save(out, "JXL", quality=80, effort=7, num_threads=1))(
        decoded_frames(data, "RGB"))


def save_animation(fmt, **params):
    def save(images, out):
        images[0].save(out, fmt, save_all=True, append_images=images[1:], duration=80, loop=0, **params)
    return save


@case("webp-anim-encode", "anim.gif")
def webp_anim_encode(data):
    return encoder(save_animation("WEBP", quality=80))(decoded_frames(data, "RGBA"))


@case("gif-encode", "anim.gif")
def gif_encode(data):
    return encoder(save_animation("GIF"))(decoded_frames(data, "RGBA"))


def digest(frames):
    """Sums the first, middle and last pixel of every frame; describes the shape. An encoded
    file's checksum is the sum of its first and last 16 bytes."""
    if isinstance(frames, Encoded):
        width, height = frames.size
        return sum(frames.data[:16]) + sum(frames.data[-16:]), f"{width}x{height}x{frames.frames}"
    checksum = 0
    for frame in frames:
        width, height = frame.size
        for x, y in ((0, 0), (width // 2, height // 2), (width - 1, height - 1)):
            checksum += sum(frame.getpixel((x, y)))
    width, height = frames[0].size
    return checksum, f"{width}x{height}x{len(frames)}"


def measure(name, inputs, warmup, runs, cases=CASES, tool=f"pillow {PIL.__version__}", digest=digest):
    """Times one case of `cases`; `digest(output)` gives (checksum, "WxHxFRAMES")."""
    input_name, setup = cases[name]
    result = {"case": name, "side": "peer", "tool": tool, "warmup": warmup, "runs": runs}
    try:
        body = setup((inputs / input_name).read_bytes())
        checksum, shape = 0, ""
        for _ in range(warmup):
            part, shape = digest(body())
            checksum += part
        samples = []
        for _ in range(runs):
            start = time.perf_counter_ns()
            frames = body()
            samples.append((time.perf_counter_ns() - start) / 1e6)
            part, shape = digest(frames)
            checksum += part
            if isinstance(frames, Encoded):
                result["bytes"] = len(frames.data)
        ordered = sorted(samples)
        middle = len(ordered) // 2
        median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
        result.update(median_ms=round(median, 3), min_ms=round(ordered[0], 3),
                      samples_ms=[round(s, 3) for s in samples], output=shape, checksum=checksum)
    except Exception as error:  # a failed case is reported, never fatal to the others
        result["error"] = f"{type(error).__name__}: {error}"
    return result


def main(cases=CASES, **measure_options):
    """The command line; `measure_options` (tool, digest) go to measure()."""
    return peer_cli.run(
        __doc__.splitlines()[0], {name: case[0] for name, case in cases.items()},
        lambda name, inputs, warmup, runs: measure(name, inputs, warmup, runs, cases, **measure_options))


if __name__ == "__main__":
    sys.exit(main())
