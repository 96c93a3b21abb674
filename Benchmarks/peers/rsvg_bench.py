#!/usr/bin/python3
"""librsvg's side of the SVG cases: the same document parsed and rendered in this process by
librsvg itself, through its GObject binding (Debian's python3-gi, python3-gi-cairo and
gir1.2-rsvg-2.0, which scripts/bootstrap --bench installs), as rsvg-convert renders it: at its
intrinsic size, into a cairo ARGB32 surface.

The peer stops at cairo's premultiplied pixels; our side also converts them to straight RGBA,
so the ratio includes that conversion. It runs under the system's Python, where Debian installs
the binding (scripts/bench calls /usr/bin/python3), and prints one JSON line per case in the
format webimage-bench prints, so scripts/bench reads both sides the same way.

Usage: rsvg_bench.py [--case NAME]... [--filter S] [--runs N] [--warmup N] [--inputs DIR] [--list]
Exit status: 0 if every selected case ran, 1 if one failed, 2 for a usage error.
"""
import math
import sys
import time

import gi

gi.require_version("Rsvg", "2.0")
import cairo  # noqa: E402
from gi.repository import Rsvg  # noqa: E402

import peer_cli  # noqa: E402

CASES = {"svg-rasterise": "logo.svg"}


def rasterise(data):
    """Parses `data` and renders it at its intrinsic size; returns the cairo surface."""
    handle = Rsvg.Handle.new_from_data(data)
    handle.set_dpi(96)
    has_size, width, height = handle.get_intrinsic_size_in_pixels()
    if not has_size:
        raise ValueError("the document has no size in pixels")
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, math.ceil(width), math.ceil(height))
    context = cairo.Context(surface)
    viewport = Rsvg.Rectangle()
    viewport.x, viewport.y, viewport.width, viewport.height = 0, 0, width, height
    if not handle.render_document(context, viewport):
        raise ValueError("librsvg could not render the document")
    surface.flush()
    return surface


def measure(name, inputs, warmup, runs):
    result = {"case": name, "side": "peer", "tool": f"librsvg {Rsvg.MAJOR_VERSION}.{Rsvg.MINOR_VERSION}."
              f"{Rsvg.MICRO_VERSION} (python3-gi)", "warmup": warmup, "runs": runs}
    try:
        data = (inputs / CASES[name]).read_bytes()
        for _ in range(warmup):
            rasterise(data)
        samples = []
        surface = None
        for _ in range(runs):
            start = time.perf_counter_ns()
            surface = rasterise(data)
            samples.append((time.perf_counter_ns() - start) / 1e6)
        ordered = sorted(samples)
        middle = len(ordered) // 2
        median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
        pixels = surface.get_data()
        checksum = sum(pixels[:4]) + sum(pixels[-4:])
        result.update(median_ms=round(median, 3), min_ms=round(ordered[0], 3),
                      samples_ms=[round(s, 3) for s in samples],
                      output=f"{surface.get_width()}x{surface.get_height()}x1", checksum=checksum)
    except Exception as error:  # a failed case is reported, never fatal to the others
        result["error"] = f"{type(error).__name__}: {error}"
    return result


def main():
    return peer_cli.run(__doc__.splitlines()[0], CASES, measure)


if __name__ == "__main__":
    sys.exit(main())
