#!/usr/bin/env python3
"""Measures whether `webimage serve` stays fair to small requests while huge sources are processed.

One client asks, one request at a time, for cold thumbnails of small sources (400x300 JPEGs,
fit 100x100, a width of its own per request so that every answer is made, not cached):

    alone   with nothing else running: p50 and p99 latency
    loaded  the same kind of requests (other widths) while four clients keep asking for cold
            fits of 24-megapixel sources (6000x4000 JPEGs, a new width each time)

and reports p99 loaded / p99 alone. The service admits sources of 4 megapixels or more in a lane
of their own that holds at most half the workers, so the small requests keep the other half.
Each invocation starts a new server with empty caches; the table shows the median of the
invocations and every invocation's figures.

Usage: fairness_bench.py --webimage PATH [--invocations N] [--requests N] [--large-clients N]
Standard library and Pillow only; nginx serves the sources (scripts/bootstrap --service-bench).
"""
import argparse
import http.client
import io
import json
import os
import pathlib
import random
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time

from PIL import Image, ImageChops

import service_bench as bench

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
GENERATOR_VERSION = 1
SMALL_SIZE = (400, 300)
LARGE_SIZE = (6000, 4000)
SMALL_BOX = 100
LARGE_BOX = 1200
SMALL_SOURCES = 8
LARGE_SOURCES = 4


def log(message):
    print(f"fairness-bench: {message}", file=sys.stderr, flush=True)


def make_inputs(folder):
    """small-N.jpg (400x300) and large-N.jpg (6000x4000, q90), photo-like, from fixed seeds; a
    24-megapixel source is a 1200x900 photo-like image upscaled with fresh grain, so that its
    decode does a real photo's entropy work. Skipped when the manifest says they are there."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / "manifest.json"
    stamp = {"generator": GENERATOR_VERSION, "pillow": Image.__version__}
    names = [f"small-{i}.jpg" for i in range(SMALL_SOURCES)] + [f"large-{i}.jpg" for i in range(LARGE_SOURCES)]
    try:
        manifest = json.loads(manifest_path.read_text())
        if manifest.get("stamp") == stamp and all((folder / n).stat().st_size == manifest["sizes"][n] for n in names):
            return manifest
    except (OSError, ValueError, KeyError):
        pass
    log(f"writing {SMALL_SOURCES} small and {LARGE_SOURCES} 24-megapixel JPEGs into {folder}")
    sizes = {}
    for index in range(SMALL_SOURCES):
        image = bench.photo_like(5000 + index).resize(SMALL_SIZE, Image.Resampling.LANCZOS)
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=90)
        sizes[f"small-{index}.jpg"] = len(buffer.getvalue())
        (folder / f"small-{index}.jpg").write_bytes(buffer.getvalue())
    for index in range(LARGE_SOURCES):
        rng = random.Random(6000 + index)
        image = bench.photo_like(6000 + index).resize(LARGE_SIZE, Image.Resampling.BICUBIC)
        grain = Image.frombytes("L", LARGE_SIZE, rng.randbytes(LARGE_SIZE[0] * LARGE_SIZE[1])).point(lambda v: v >> 4)
        image = ImageChops.add(image, Image.merge("RGB", (grain, grain, grain)), 1.0, -8)
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=90)
        sizes[f"large-{index}.jpg"] = len(buffer.getvalue())
        (folder / f"large-{index}.jpg").write_bytes(buffer.getvalue())
    # The origin's readiness check (start_nginx) fetches verify.jpg.
    shutil.copyfile(folder / "small-0.jpg", folder / "verify.jpg")
    manifest = {"stamp": stamp, "sizes": sizes}
    manifest_path.write_text(json.dumps(manifest, indent=1))
    return manifest


def fit_path(origin, name, width):
    return f"/_/rs:fit:{width}:{width}/q:80/plain/http://127.0.0.1:{origin}/{name}@jpg"


def get(connection, path):
    """One GET on a keep-alive connection; the body must be a JPEG."""
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    if response.status != 200 or not body.startswith(b"\xff\xd8"):
        raise bench.SideFailed(f"{response.status} for {path}: {body[:120]!r}")


def small_latencies(port, origin, widths):
    """Seconds per request, one request at a time on one connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    latencies = []
    try:
        for index, width in enumerate(widths):
            path = fit_path(origin, f"small-{index % SMALL_SOURCES}.jpg", width)
            start = time.perf_counter()
            get(connection, path)
            latencies.append(time.perf_counter() - start)
    finally:
        connection.close()
    return latencies


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def invocation(args, scratch, inputs, processes, round_index):
    folder = scratch / f"round-{round_index}"
    folder.mkdir()
    origin = bench.start_nginx(processes, folder, inputs)
    server, port, log_path = bench.start_ours(processes, folder, args.webimage, None)
    try:
        # Warm the process up (threads, connections, code) on URLs no timed phase uses.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        get(connection, fit_path(origin, "verify.jpg", SMALL_BOX))
        get(connection, fit_path(origin, "large-0.jpg", LARGE_BOX + 1))
        connection.close()

        # Widths 40..(40+requests) alone, the next ones loaded: every answer is a new result.
        alone = small_latencies(port, origin, [40 + i for i in range(args.requests)])

        stop = threading.Event()
        large_done, failures = [0], []
        lock = threading.Lock()

        def large_client(client):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
            width = LARGE_BOX - 1 - client * 200  # each client its own widths: every answer is made
            try:
                while not stop.is_set():
                    get(connection, fit_path(origin, f"large-{client % LARGE_SOURCES}.jpg", width))
                    width -= 1
                    with lock:
                        large_done[0] += 1
            except Exception as error:  # noqa: BLE001 - reported as the invocation's failure
                failures.append(f"{type(error).__name__}: {error}")
            finally:
                connection.close()

        clients = [threading.Thread(target=large_client, args=(c,), daemon=True) for c in range(args.large_clients)]
        for client in clients:
            client.start()
        time.sleep(args.ramp_seconds)  # every large client has a request in the service
        started = time.perf_counter()
        loaded = small_latencies(port, origin, [40 + args.requests + i for i in range(args.requests)])
        loaded_seconds = time.perf_counter() - started
        stop.set()
        for client in clients:
            client.join()
        if failures:
            raise bench.SideFailed(f"large client: {failures[0]}")
        if server.poll() is not None:
            raise bench.SideFailed(f"exited with status {server.returncode}: {bench.tail(log_path)}")
        return {
            "alone_p50_ms": percentile(alone, 0.5) * 1000, "alone_p99_ms": percentile(alone, 0.99) * 1000,
            "loaded_p50_ms": percentile(loaded, 0.5) * 1000, "loaded_p99_ms": percentile(loaded, 0.99) * 1000,
            "large_done": large_done[0], "loaded_seconds": loaded_seconds,
        }
    finally:
        processes.stop_all()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--webimage", type=pathlib.Path, required=True, help="the release build of webimage")
    parser.add_argument("--invocations", type=int, default=3, help="servers started, each measured once (default 3)")
    parser.add_argument("--requests", type=int, default=300, help="small requests per phase (default 300)")
    parser.add_argument("--large-clients", type=int, default=4, help="clients asking for 24 MP sources (default 4)")
    parser.add_argument("--ramp-seconds", type=float, default=1.0)
    parser.add_argument("--json", type=pathlib.Path, default=ROOT / "bench-out" / "fairness-results.json")
    args = parser.parse_args()
    if args.invocations < 1 or args.requests < 10 or args.large_clients < 1:
        parser.error("--invocations and --large-clients must be 1 or more, --requests 10 or more")
    if not os.access(args.webimage, os.X_OK):
        parser.error(f"--webimage must name the webimage executable (got {args.webimage})")
    if shutil.which("nginx") is None:
        parser.error("nginx is not on PATH (run scripts/bootstrap --service-bench)")

    def stop(signum, _frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)

    inputs = HERE / "inputs" / "fairness"
    make_inputs(inputs)
    processes = bench.Processes()
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="webimage-fairness-bench-"))
    runs = []
    try:
        for index in range(args.invocations):
            run = invocation(args, scratch, inputs, processes, index)
            log(f"invocation {index + 1}: {run}")
            runs.append(run)
    except bench.SideFailed as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        processes.stop_all()
        shutil.rmtree(scratch, ignore_errors=True)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(runs, indent=1))

    def median(key):
        return statistics.median(r[key] for r in runs)
    ratios = [r["loaded_p99_ms"] / r["alone_p99_ms"] for r in runs]
    ratio = statistics.median(ratios)
    print(f"| small cold thumbnails ({args.requests} per phase, one at a time) | p50 ms | p99 ms |")
    print("|---|---:|---:|")
    print(f"| alone | {median('alone_p50_ms'):.1f} | {median('alone_p99_ms'):.1f} |")
    print(f"| while {args.large_clients} clients ask for 24 MP sources | {median('loaded_p50_ms'):.1f} "
          f"| {median('loaded_p99_ms'):.1f} |")
    print()
    verdict = "met" if ratio <= 3 else "missed"
    print(f"p99 loaded / alone: {ratio:.2f} (median of {len(runs)}; each: "
          + ", ".join(f"{r:.2f}" for r in ratios) + f"); target ≤ 3: {verdict}")
    print("24 MP results made during the loaded phases: "
          + ", ".join(f"{r['large_done']} in {r['loaded_seconds']:.1f} s" for r in runs))
    print(f"load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
