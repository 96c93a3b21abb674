#!/usr/bin/env python3
"""AVIF at equal SSIM: libavif's encoders and speeds, and our encoder, against Pillow's AVIF.

The peer is Pillow 13 saving AVIF at its defaults (quality 75, speed 6, one thread per core)
through the libavif 1.4 and libaom 3.14 its wheel bundles. On each input, Pillow's file sets the
target: its SSIM against the source (ssim.py, the score quality_table.py uses). For each of our
encoders the script then looks for the coarsest quantizer whose file still reaches that SSIM,
interpolates the bytes at exactly the target between that quantizer and the next one (as
quality_table.py interpolates between qualities), and times encodes at that quantizer.

Timing runs in rounds. In each round every input is encoded once by each side, the two encodes
next to each other and the order alternating from one encode pair to the next, so that load
from other jobs slows both sides alike. Each side encodes in a process of its own (Pillow in one,
each libavif encoder in another): once SVT-AV1 had encoded in a process, Pillow's encodes in that
process took half the time, with the same bytes, so sides that share a process time each other. A side's time on an input is its median over the
rounds; a row's ratios are sums over the inputs, ours / Pillow's (bytes at the target, median
times), and the bytes ratio of each input is printed too. Below 1 is smaller or faster.

    python3 Benchmarks/avif_sweep.py --sweep [--codecs aom,svt,rav1e] [--rounds 3]

every encoder (aom, SVT-AV1, rav1e) at every speed through Debian's libavif, the library our
coder links, driven with ctypes and our coder's settings: 8-bit 4:2:0 from RGBA, full range, one
fixed quantizer (minimum = maximum), one thread per core, a single image. A timed encode
includes the RGB to YUV conversion, as Pillow's does.

    python3 Benchmarks/avif_sweep.py --webimage .build/release/webimage [--rounds 5]

our encoder itself, through `webimage convert in.png out.avif --quality Q` (Q = (63 - quantizer)
/ 63, our coder's mapping). Its encode time is the median wall time of that process less the
median of `webimage convert in.png out.bmp`, which starts the same process, decodes the same PNG
and writes a file, timed in the same rounds; the whole process's time is printed too.

`scripts/bench --avif-sweep` and `scripts/bench --avif` run these.
"""
import argparse
import ctypes
import io
import multiprocessing
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

from ssim import ssim

HERE = pathlib.Path(__file__).resolve().parent
# libavif 0.11 clamps the speed per encoder: aom takes 0-9 (10 is 9), SVT-AV1 0-8 (its presets
# 9-13 are out of reach), rav1e 0-10. Below 4, every encoder here is slower than Pillow.
SPEEDS = {"aom": range(4, 10), "svt": range(4, 9), "rav1e": range(4, 11)}
CODEC_CHOICE = {"aom": 1, "rav1e": 4, "svt": 5}  # avifCodecChoice
WORST_QUANTIZER = 63


# --- inputs ---------------------------------------------------------------------------------

def inputs():
    """Four 1200x900 photo-like RGB images: two from the service benchmark's generator (shapes
    with edges, out-of-focus blur, +-8 luma grain) and two from make_inputs.py's (gradients and
    soft blobs, Gaussian noise of sigma 2 and 4)."""
    sys.path.insert(0, str(HERE))
    import make_inputs
    import service_bench
    images = [(f"shapes-{seed}", service_bench.photo_like(seed)) for seed in (1000, 1001)]
    for seed, sigma in ((7, 2), (9, 4)):
        rgb = make_inputs.photo_like(seed=seed, width=1200, height=900, noise_sigma=sigma)
        images.append((f"soft-{seed}", Image.fromarray(rgb, "RGB")))
    return images


def decode(data):
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


# --- the encoders ---------------------------------------------------------------------------

def pillow_encode(image):
    buffer = io.BytesIO()
    image.save(buffer, "AVIF")
    return buffer.getvalue()


class RWData(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]


class EncoderHead(ctypes.Structure):
    """The first fields of libavif 0.11's avifEncoder, the ones our coder sets."""
    _fields_ = [
        ("codecChoice", ctypes.c_int), ("maxThreads", ctypes.c_int), ("speed", ctypes.c_int),
        ("keyframeInterval", ctypes.c_int), ("timescale", ctypes.c_uint64),
        ("minQuantizer", ctypes.c_int), ("maxQuantizer", ctypes.c_int),
        ("minQuantizerAlpha", ctypes.c_int), ("maxQuantizerAlpha", ctypes.c_int),
    ]


class RGBImage(ctypes.Structure):
    """libavif 0.11's avifRGBImage."""
    _fields_ = [
        ("width", ctypes.c_uint32), ("height", ctypes.c_uint32), ("depth", ctypes.c_uint32),
        ("format", ctypes.c_int), ("chromaUpsampling", ctypes.c_int), ("chromaDownsampling", ctypes.c_int),
        ("avoidLibYUV", ctypes.c_int), ("ignoreAlpha", ctypes.c_int), ("alphaPremultiplied", ctypes.c_int),
        ("isFloat", ctypes.c_int), ("pixels", ctypes.c_void_p), ("rowBytes", ctypes.c_uint32),
    ]


class LibAVIF:
    """Debian's libavif through ctypes, called as AVIFCoder+Encoding.swift calls it."""
    YUV420 = 3
    RGBA = 1
    ADD_IMAGE_FLAG_SINGLE = 2

    def __init__(self):
        os.environ.setdefault("SVT_LOG", "1")  # SVT-AV1 prints its banner and warnings otherwise
        lib = ctypes.CDLL("libavif.so.15")
        lib.avifVersion.restype = ctypes.c_char_p
        lib.avifCodecVersions.argtypes = [ctypes.c_char_p]
        lib.avifImageCreate.restype = ctypes.c_void_p
        lib.avifImageCreate.argtypes = [ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_int]
        lib.avifImageDestroy.argtypes = [ctypes.c_void_p]
        lib.avifRGBImageSetDefaults.argtypes = [ctypes.POINTER(RGBImage), ctypes.c_void_p]
        lib.avifImageRGBToYUV.argtypes = [ctypes.c_void_p, ctypes.POINTER(RGBImage)]
        lib.avifEncoderCreate.restype = ctypes.POINTER(EncoderHead)
        lib.avifEncoderDestroy.argtypes = [ctypes.POINTER(EncoderHead)]
        lib.avifEncoderAddImage.argtypes = [ctypes.POINTER(EncoderHead), ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint32]
        lib.avifEncoderFinish.argtypes = [ctypes.POINTER(EncoderHead), ctypes.POINTER(RWData)]
        lib.avifRWDataFree.argtypes = [ctypes.POINTER(RWData)]
        lib.avifResultToString.restype = ctypes.c_char_p
        self.lib = lib

    def versions(self):
        codecs = ctypes.create_string_buffer(256)
        self.lib.avifCodecVersions(codecs)
        return f"libavif {self.lib.avifVersion().decode()} ({codecs.value.decode()})"

    def encode(self, rgba, codec, speed, quantizer, threads):
        lib = self.lib
        height, width, _ = rgba.shape
        image = lib.avifImageCreate(width, height, 8, self.YUV420)
        encoder = lib.avifEncoderCreate()
        output = RWData()
        try:
            rgb = RGBImage()
            lib.avifRGBImageSetDefaults(ctypes.byref(rgb), image)
            rgb.depth, rgb.format, rgb.ignoreAlpha = 8, self.RGBA, 1
            rgb.pixels, rgb.rowBytes = rgba.ctypes.data, width * 4
            self.check(lib.avifImageRGBToYUV(image, ctypes.byref(rgb)))
            settings = encoder.contents
            settings.codecChoice = CODEC_CHOICE[codec]
            settings.maxThreads = threads
            settings.speed = speed
            settings.timescale = 1000
            settings.minQuantizer = settings.maxQuantizer = quantizer
            settings.minQuantizerAlpha = settings.maxQuantizerAlpha = quantizer
            self.check(lib.avifEncoderAddImage(encoder, image, 1, self.ADD_IMAGE_FLAG_SINGLE))
            self.check(lib.avifEncoderFinish(encoder, ctypes.byref(output)))
            return ctypes.string_at(output.data, output.size)
        finally:
            lib.avifRWDataFree(ctypes.byref(output))
            lib.avifEncoderDestroy(encoder)
            lib.avifImageDestroy(image)

    def check(self, result):
        if result != 0:
            raise RuntimeError(f"libavif: {self.lib.avifResultToString(result).decode()}")


def webimage_convert(webimage, source, out, quantizer=None):
    """Runs `webimage convert`; returns its wall time in seconds."""
    command = [webimage, "convert", str(source), str(out)]
    if quantizer is not None:
        command += ["--quality", f"{(WORST_QUANTIZER - quantizer) / WORST_QUANTIZER:.4f}"]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


class Side:
    """One side's encoder in a worker process of its own: `encode` returns the time the worker
    measured around the encode alone, and the file."""
    context = multiprocessing.get_context("spawn")

    def __init__(self, sources):
        self.sources = sources
        self.pool = self.context.Pool(1, initializer=worker_start, initargs=([str(p) for p in sources],))

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.pool.close()
        self.pool.join()

    def encode(self, encoder, index, speed=None, quantizer=None):
        return self.pool.apply(worker_encode, ((encoder, index, speed, quantizer),))


WORKER = {}


def worker_start(sources):
    WORKER["images"] = [Image.open(path).convert("RGB") for path in sources]
    WORKER["rgbas"] = [np.ascontiguousarray(np.asarray(image.convert("RGBA"))) for image in WORKER["images"]]
    WORKER["threads"] = len(os.sched_getaffinity(0))


def worker_encode(job):
    encoder, index, speed, quantizer = job
    if encoder == "pillow":
        image = WORKER["images"][index]
        start = time.perf_counter()
        data = pillow_encode(image)
    else:
        libavif = WORKER.setdefault("libavif", LibAVIF())
        rgba = WORKER["rgbas"][index]
        start = time.perf_counter()
        data = libavif.encode(rgba, encoder, speed, quantizer, WORKER["threads"])
    return time.perf_counter() - start, data


def write_sources(images, folder):
    """Each input as a PNG in `folder`, for the workers and for `webimage convert`."""
    sources = []
    for name, image in images:
        sources.append(pathlib.Path(folder) / f"{name}.png")
        image.save(sources[-1])
    return sources


# --- equal SSIM -----------------------------------------------------------------------------

def match(encode, reference, target, guess):
    """The coarsest quantizer whose file reaches SSIM `target`, walking from `guess` (SSIM falls
    as the quantizer grows), and the points {quantizer: (ssim, bytes)} it scored; None when even
    quantizer 0 falls short."""
    points = {}

    def score(quantizer):
        if quantizer not in points:
            data = encode(quantizer)
            points[quantizer] = (ssim(reference, decode(data)), len(data))
        return points[quantizer][0]

    quantizer = guess
    if score(quantizer) >= target:
        while quantizer < WORST_QUANTIZER and score(quantizer + 1) >= target:
            quantizer += 1
    else:
        while quantizer > 0 and score(quantizer) < target:
            quantizer -= 1
        if score(quantizer) < target:
            return None, points
    return quantizer, points


def bytes_at(points, quantizer, target):
    """Bytes at SSIM `target`, interpolated between `quantizer` and the next one."""
    s0, b0 = points[quantizer]
    if quantizer + 1 not in points:
        return b0
    s1, b1 = points[quantizer + 1]
    if s0 <= s1:
        return b0
    return b1 + (b0 - b1) * (target - s1) / (s0 - s1)


# --- timing ---------------------------------------------------------------------------------

def alternate(rounds, pairs):
    """Runs every (ours, peer) pair of timed bodies `rounds` times, the order alternating from
    one run of a pair to the next; returns each side's times, per pair."""
    times = [([], []) for _ in pairs]
    turn = 0
    for _ in range(rounds):
        for (ours, peer), (our_times, peer_times) in zip(pairs, times):
            if turn % 2 == 0:
                our_times.append(ours())
                peer_times.append(peer())
            else:
                peer_times.append(peer())
                our_times.append(ours())
            turn += 1
    return times


def cpu_jiffies():
    fields = [int(v) for v in pathlib.Path("/proc/stat").read_text().splitlines()[0].split()[1:9]]
    return fields[7], sum(fields)


class Machine:
    """The load average and the CPU steal over a run, printed under its table."""

    def __enter__(self):
        self.load_before = os.getloadavg()
        self.steal_start, self.total_start = cpu_jiffies()
        return self

    def __exit__(self, *_):
        steal, total = cpu_jiffies()
        steal_percent = 100 * (steal - self.steal_start) / max(1, total - self.total_start)
        before = " ".join(f"{v:.2f}" for v in self.load_before)
        after = " ".join(f"{v:.2f}" for v in os.getloadavg())
        print(f"\nload average before: {before}; after: {after}; CPU steal during the run: {steal_percent:.0f}%")


# --- the two modes --------------------------------------------------------------------------

def pillow_targets(pillow, images):
    """Pillow's file of every input: (reference pixels, SSIM, bytes)."""
    targets = []
    for index, (name, image) in enumerate(images):
        reference = np.asarray(image)
        data = pillow.encode("pillow", index)[1]
        targets.append((reference, ssim(reference, decode(data)), len(data)))
        print(f"{name}: Pillow {len(data)} bytes, SSIM {targets[-1][1]:.4f}", file=sys.stderr)
    return targets


def sweep(args, images):
    from PIL import features
    print(f"{len(images)} inputs 1200x900; ours: {LibAVIF().versions()}, {len(os.sched_getaffinity(0))} threads; "
          f"Pillow {Image.__version__}: libavif {features.version('avif')} (quality 75, speed 6); "
          f"{args.rounds} rounds")
    rows = []
    with tempfile.TemporaryDirectory() as folder, Side(write_sources(images, folder)) as pillow:
        targets = pillow_targets(pillow, images)
        for codec in args.codecs:
            with Side(pillow.sources) as side:
                guesses = [24] * len(images)
                for speed in SPEEDS[codec]:
                    rows.append(sweep_row(args, side, pillow, targets, codec, speed, guesses))
    print("| encoder | speed | quantizers | bytes / Pillow | per input | time / Pillow | ours ms | Pillow ms |")
    print("|---|--:|---|--:|---|--:|--:|--:|")
    for codec, speed, quantizers, ratios, ms in rows:
        if quantizers is None:
            print(f"| {codec} | {speed} | Pillow's SSIM out of reach |  |  |  |  |  |")
            continue
        print(f"| {codec} | {speed} | {', '.join(map(str, quantizers))} | {ratios[0]:.2f} "
              f"| {', '.join(f'{r:.2f}' for r in ratios[1])} | {ms[0] / ms[1]:.2f} | {ms[0]:.0f} | {ms[1]:.0f} |")
    return 0


def sweep_row(args, side, pillow, targets, codec, speed, guesses):
    """One encoder at one speed: its quantizers at Pillow's SSIM, bytes and times."""
    found = []
    for index, (reference, target, _) in enumerate(targets):
        encode = lambda q, index=index: side.encode(codec, index, speed, q)[1]
        quantizer, points = match(encode, reference, target, guesses[index])
        if quantizer is None:
            print(f"{codec} speed {speed}: cannot reach Pillow's SSIM", file=sys.stderr)
            return codec, speed, None, None, None
        guesses[index] = quantizer
        found.append((quantizer, bytes_at(points, quantizer, target)))
    pairs = [
        (lambda index=index, q=q: side.encode(codec, index, speed, q)[0],
         lambda index=index: pillow.encode("pillow", index)[0])
        for index, (q, _) in enumerate(found)]
    times = alternate(args.rounds, pairs)
    ours_ms = sum(statistics.median(t[0]) for t in times) * 1000
    pillow_ms = sum(statistics.median(t[1]) for t in times) * 1000
    bytes_ratio = sum(b for _, b in found) / sum(t[2] for t in targets)
    per_input = [b / t[2] for (_, b), t in zip(found, targets)]
    print(f"{codec} speed {speed}: bytes {bytes_ratio:.2f}, time {ours_ms / pillow_ms:.2f}", file=sys.stderr)
    return codec, speed, [q for q, _ in found], (bytes_ratio, per_input), (ours_ms, pillow_ms)


def ours(args, images):
    print(f"{len(images)} inputs 1200x900; ours: {args.webimage}; Pillow {Image.__version__} "
          f"(quality 75, speed 6); {args.rounds} rounds")
    with tempfile.TemporaryDirectory() as folder, Side(write_sources(images, folder)) as pillow:
        targets = pillow_targets(pillow, images)
        out = pathlib.Path(folder) / "out.avif"
        baseline = pathlib.Path(folder) / "out.bmp"

        def encode(source, quantizer):
            webimage_convert(args.webimage, source, out, quantizer)
            return out.read_bytes()

        found = []
        for source, (reference, target, _) in zip(pillow.sources, targets):
            quantizer, points = match(lambda q, s=source: encode(s, q), reference, target, 24)
            if quantizer is None:
                print("error: our encoder cannot reach Pillow's SSIM", file=sys.stderr)
                return 1
            found.append((quantizer, bytes_at(points, quantizer, target), points[quantizer][1]))
        # Ours: the AVIF conversion and the BMP baseline, back to back.
        pairs = [
            (lambda s=source, q=quantizer: (webimage_convert(args.webimage, s, out, q),
                                            webimage_convert(args.webimage, s, baseline)),
             lambda index=index: pillow.encode("pillow", index)[0])
            for index, (source, (quantizer, _, _)) in enumerate(zip(pillow.sources, found))]
        times = alternate(args.rounds, pairs)
    process_ms = sum(statistics.median(a for a, _ in t[0]) for t in times) * 1000
    baseline_ms = sum(statistics.median(b for _, b in t[0]) for t in times) * 1000
    pillow_ms = sum(statistics.median(t[1]) for t in times) * 1000
    encode_ms = process_ms - baseline_ms
    pillow_bytes = sum(t[2] for t in targets)
    ours_bytes = sum(b for _, b, _ in found)
    timed_bytes = sum(b for _, _, b in found)
    print("| input | Pillow SSIM | Pillow bytes | our quantizer | our bytes at that SSIM | ours / Pillow |")
    print("|---|--:|--:|--:|--:|--:|")
    for (name, _), (_, target, size), (quantizer, at_target, _) in zip(images, targets, found):
        print(f"| {name} | {target:.4f} | {size} | {quantizer} | {at_target:.0f} | {at_target / size:.2f} |")
    print()
    print("| | ours | Pillow | ours / Pillow |")
    print("|---|--:|--:|--:|")
    print(f"| bytes at Pillow's SSIM (sum) | {ours_bytes:.0f} | {pillow_bytes} | {ours_bytes / pillow_bytes:.2f} |")
    print(f"| bytes at the quantizers timed (sum) | {timed_bytes} | {pillow_bytes} | {timed_bytes / pillow_bytes:.2f} |")
    print(f"| encode ms (sum of medians) | {encode_ms:.0f} | {pillow_ms:.0f} | {encode_ms / pillow_ms:.2f} |")
    print(f"| whole `webimage convert` ms | {process_ms:.0f} | {pillow_ms:.0f} | {process_ms / pillow_ms:.2f} |")
    print(f"\nthe BMP baseline (process start, PNG decode, write): {baseline_ms:.0f} ms over the inputs")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--sweep", action="store_true", help="every encoder and speed through libavif")
    mode.add_argument("--webimage", help="our encoder, through this webimage binary")
    parser.add_argument("--codecs", default="aom,svt,rav1e")
    parser.add_argument("--rounds", type=int, default=None, help="timed rounds (3 for --sweep, 5 for --webimage)")
    args = parser.parse_args()
    args.codecs = [c for c in args.codecs.split(",") if c]
    unknown = [c for c in args.codecs if c not in SPEEDS]
    if unknown:
        parser.error(f"unknown encoder {', '.join(unknown)} (aom, svt, rav1e)")
    if args.rounds is None:
        args.rounds = 3 if args.sweep else 5
    if args.rounds < 1:
        parser.error("--rounds needs a number >= 1")
    images = inputs()
    with Machine():
        return sweep(args, images) if args.sweep else ours(args, images)


if __name__ == "__main__":
    sys.exit(main())
