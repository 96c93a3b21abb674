#!/usr/bin/env python3
"""Benchmarks `webimage serve` against thumbor 7.8 on loopback and prints one table.

Both services resize the same 1200x900 JPEGs, served by a local nginx, to fit 300x200 as JPEG
quality 80:

    ours     /_/rs:fit:300:200/q:80/plain/http://127.0.0.1:PORT/img-N.jpg@jpg
    thumbor  /unsafe/fit-in/300x200/filters:quality(80):format(jpeg)/127.0.0.1:PORT/img-N.jpg

thumbor runs its Pillow engine in two processes with file result storage; ours runs with a disk
cache. Both start with empty cache directories. The cases:

    cold  every URL once, 8 concurrent keep-alive clients: wall time and images/s
    warm  the same URLs again under wrk (8 connections, 2 threads): requests/s; then nginx
          serving our answers' bytes as static files under the same wrk load, for the ratio
          of a warm hit to a file server
    floor our server's CPU per cold image against libjpeg-turbo's decode alone at the scale
          the fit allows (Pillow's draft() + load() over the same files, in this process)
    rss   ours only: peak RSS (VmHWM) after 10,000 distinct requests (200 sources x 50 widths),
          against the result memory cache's limit (256 MiB) + 128 MiB; thumbor's summed VmHWM
          after its cold and warm runs is shown for context

Before timing, one URL on each side must come back as a JPEG that fits 300x200 (a note says so
when the two sizes differ), so that the times compare the same work. Targets are reported, not
gated; the exit status is 1 only when a side fails to run (an error, a non-2xx, a bad image).

Usage: service_bench.py --webimage PATH [--thumbor PATH] [--workers N] [--warm-seconds S]
                        [--images N] [--widths N] [--clients N] [--only ours|thumbor]
Every process it starts (nginx, the two services, wrk) is stopped when it exits, however it exits.
Standard library and Pillow only; scripts/bootstrap --service-bench installs the rest.
"""
import argparse
import concurrent.futures
import ctypes
import hashlib
import http.client
import io
import json
import os
import pathlib
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from PIL import Image, ImageChops, ImageDraw, ImageFilter

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
GENERATOR_VERSION = 1
IMAGE_SIZE = (1200, 900)
BOX = (300, 200)
QUALITY = 80
# The service's default result memory cache (ServiceConfiguration.memoryCacheBytes), and the
# head room allowed on top of it for everything else the process holds.
MEMORY_CACHE_BYTES = 256 << 20
RSS_HEADROOM_BYTES = 128 << 20
DEFAULT_THUMBOR = pathlib.Path(
    os.environ.get("WEBIMAGE_THUMBOR_VENV", pathlib.Path.home() / ".cache/webimage-bench/thumbor-7.8.0")
) / "bin/thumbor"


def log(message):
    print(f"service-bench: {message}", file=sys.stderr, flush=True)


class SideFailed(Exception):
    """A side could not run a case; the table shows the message and the exit status is 1."""


# --- inputs ---------------------------------------------------------------------------------

def photo_like(seed):
    """A 1200x900 photo's statistics from a seeded generator: soft colour fields, a lighting
    gradient, a few blurred shapes and fine luma grain, so that decoding and resampling do
    realistic work (a flat synthetic image decodes unrealistically fast)."""
    rng = random.Random(seed)
    width, height = IMAGE_SIZE
    # Large soft colour areas: a tiny random image upscaled bicubically.
    cells = (rng.randint(4, 9), rng.randint(3, 7))
    image = Image.frombytes("RGB", cells, rng.randbytes(cells[0] * cells[1] * 3))
    image = image.resize(IMAGE_SIZE, Image.Resampling.BICUBIC)
    # Uneven light: a 3x3 grey image upscaled, darkening some of the scene smoothly.
    light = Image.frombytes("L", (3, 3), rng.randbytes(9)).resize(IMAGE_SIZE, Image.Resampling.BICUBIC)
    image = Image.composite(image, ImageChops.multiply(image, Image.new("RGB", IMAGE_SIZE, (90, 90, 110))), light)
    # Objects: ellipses with edges, blurred a little so they look out of the focal plane.
    shapes = Image.new("RGB", IMAGE_SIZE)
    mask = Image.new("L", IMAGE_SIZE)
    draw_shapes, draw_mask = ImageDraw.Draw(shapes), ImageDraw.Draw(mask)
    for _ in range(rng.randint(6, 14)):
        x, y = rng.randrange(-100, width), rng.randrange(-100, height)
        w, h = rng.randint(60, 420), rng.randint(60, 420)
        colour = tuple(rng.randrange(256) for _ in range(3))
        draw_shapes.ellipse((x, y, x + w, y + h), fill=colour)
        draw_mask.ellipse((x, y, x + w, y + h), fill=rng.randint(120, 230))
    shapes = shapes.filter(ImageFilter.GaussianBlur(rng.uniform(1, 4)))
    image = Image.composite(shapes, image, mask.filter(ImageFilter.GaussianBlur(2)))
    # Grain: uniform luma noise of +-8, what a camera sensor leaves in every block.
    grain = Image.frombytes("L", IMAGE_SIZE, rng.randbytes(width * height)).point(lambda v: v >> 4)
    return ImageChops.add(image, Image.merge("RGB", (grain, grain, grain)), 1.0, -8)


def make_inputs(folder, count):
    """img-0.jpg ... img-(count-1).jpg and verify.jpg (a source no timed case touches, so the
    check before timing leaves both caches cold for the timed URLs). Skipped when a manifest
    from the same generator, count and Pillow says they are there."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / "manifest.json"
    names = [f"img-{i}.jpg" for i in range(count)] + ["verify.jpg"]
    stamp = {"generator": GENERATOR_VERSION, "count": count, "pillow": Image.__version__}
    try:
        manifest = json.loads(manifest_path.read_text())
        if manifest.get("stamp") == stamp and all(
                (folder / name).stat().st_size == size for name, size in manifest["sizes"].items()):
            return manifest
    except (OSError, ValueError, KeyError):
        pass
    log(f"writing {count + 1} {IMAGE_SIZE[0]}x{IMAGE_SIZE[1]} JPEGs (quality 90) into {folder}")
    sizes, digest = {}, hashlib.sha256()
    for seed, name in enumerate(names, start=1000):
        buffer = io.BytesIO()
        photo_like(seed).save(buffer, "JPEG", quality=90)
        data = buffer.getvalue()
        (folder / name).write_bytes(data)
        sizes[name] = len(data)
        digest.update(data)
    manifest = {"stamp": stamp, "sizes": sizes, "sha256": digest.hexdigest()}
    manifest_path.write_text(json.dumps(manifest, indent=1))
    return manifest


# --- freed inodes ---------------------------------------------------------------------------
# On ext4, files created within 30 s (5.5 min while the inode table block is dirty) of thousands
# being deleted make the kernel skip every recently freed inode: measured here as about a sixth
# of our side's CPU samples in recently_deleted and its block lookups, right after a previous
# run had deleted its caches. Both sides create cache files, so a run that starts within 331 s of such a
# deletion waits, as scripts/bench does for its disk cases, and with the same stamp file.

def filesystem_type(path):
    run = subprocess.run(["stat", "-f", "-c", "%T", str(path)], capture_output=True, text=True)
    return run.stdout.strip()


def deletion_stamp(scratch_root):
    return pathlib.Path(scratch_root) / "webimage-bench-trash.deleted"


def wait_for_freed_inodes(scratch_root):
    stamp = deletion_stamp(scratch_root)
    if filesystem_type(scratch_root) == "tmpfs" or not stamp.exists():
        return
    wait = 331 - (time.time() - stamp.stat().st_mtime)
    if wait > 0:
        log(f"waiting {wait:.0f} s: cache files were deleted less than 331 s ago (ext4 recently_deleted)")
        time.sleep(wait)


def delete_scratch(scratch):
    # A run that stopped early leaves a few files, not thousands: no stamp, no wait next time.
    files = sum(len(names) for _, _, names in os.walk(scratch))
    shutil.rmtree(scratch, ignore_errors=True)
    if files >= 1000 and filesystem_type(scratch.parent) != "tmpfs":
        os.sync()
        deletion_stamp(scratch.parent).touch()


# --- processes ------------------------------------------------------------------------------
# scripts/fleet imports free_port, Processes, wait_for_http, tail and SideFailed from here;
# scripts/fleet-scale also group_cpu_seconds.

def free_port():
    """A port nobody listens on now (the kernel's choice). Another process could take it before
    ours binds it; on this machine nothing else binds loopback ports in the meantime."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def die_with_parent():
    """Runs in each child before exec: the kernel sends it SIGTERM if this driver dies, even by
    SIGKILL, when no finally block can run."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Processes:
    """Every process the driver starts, each in a process group of its own (thumbor forks its
    workers into it), so that stopping one stops everything it started."""

    def __init__(self):
        self.started = []

    def start(self, name, argv, log_path, env=None):
        log_file = open(log_path, "wb")
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT, env=env,
            start_new_session=True, preexec_fn=die_with_parent)
        log_file.close()
        self.started.append((name, process))
        return process

    def stop(self, process, grace=10):
        self.started = [(name, p) for name, p in self.started if p is not process]
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        # The group may outlive its leader (thumbor's forked workers): SIGKILL whatever is left.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if process.poll() is None:
            process.wait()

    def stop_all(self):
        for _, process in reversed(self.started):
            self.stop(process)


def group_members(pgid):
    """Pids in process group pgid (the leader and whatever it forked)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = pathlib.Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # Fields after the command name, which is in parentheses and may hold spaces.
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[2]) == pgid:
            members.append(int(entry))
    return members


def group_cpu_seconds(pgid):
    """User + system CPU time of the processes in group pgid, all threads: where the time of a
    case went, beside its wall time."""
    ticks = 0
    for pid in group_members(pgid):
        try:
            stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def status_kib(pid, field):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise SideFailed(f"no {field} in /proc/{pid}/status")


def wait_for_http(process, port, path, log_path, timeout=60):
    """Polls GET path until it answers 200; fails early when the process exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SideFailed(f"exited with status {process.returncode}: {tail(log_path)}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", path)
            if connection.getresponse().status == 200:
                connection.close()
                return
            connection.close()
        except OSError:
            pass
        time.sleep(0.1)
    raise SideFailed(f"no answer on port {port} after {timeout} s: {tail(log_path)}")


def tail(path, limit=400):
    try:
        return pathlib.Path(path).read_text(errors="replace").strip()[-limit:]
    except OSError:
        return ""


# --- the three servers ----------------------------------------------------------------------

def start_nginx(processes, scratch, inputs, name="nginx"):
    """A static file server of the inputs with a configuration of its own, in the foreground
    (daemon off) so that it is our child and stops with the driver."""
    prefix = scratch / name
    prefix.mkdir()
    port = free_port()
    config = prefix / "nginx.conf"
    config.write_text(f"""\
daemon off;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    types {{ image/jpeg jpg; }}
    server {{
        listen 127.0.0.1:{port};
        root {inputs};
        location = /health {{ return 200 "OK"; }}
    }}
}}
""")
    # -e: the error log before the configuration is read (else /var/log/nginx/error.log).
    process = processes.start("nginx", ["nginx", "-p", str(prefix), "-e", str(prefix / "error.log"),
                                        "-c", str(config)], prefix / "stdout.log")
    wait_for_http(process, port, "/health", prefix / "error.log")
    # Its workers run as nobody when the master is root: check that they can read the inputs.
    wait_for_http(process, port, "/verify.jpg", prefix / "error.log", timeout=5)
    return port


def start_thumbor(processes, scratch, thumbor):
    folder = scratch / "thumbor"
    folder.mkdir()
    port = free_port()
    config = folder / "thumbor.conf"
    # Empty result and source storage folders: the cold case starts from nothing.
    config.write_text(f"""\
ENGINE = 'thumbor.engines.pil'
ALLOW_UNSAFE_URL = True
RESULT_STORAGE = 'thumbor.result_storages.file_storage'
RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = '{folder}/result-storage'
RESULT_STORAGE_STORES_UNSAFE = True
FILE_STORAGE_ROOT_PATH = '{folder}/storage'
QUALITY = {QUALITY}
""")
    log_path = folder / "thumbor.log"
    process = processes.start("thumbor", [str(thumbor), "--ip=127.0.0.1", f"--port={port}",
                                          f"--conf={config}", "--processes=2", "--log-level=warning"],
                              log_path)
    wait_for_http(process, port, "/healthcheck", log_path)
    return process, port, log_path


def start_ours(processes, scratch, webimage, workers):
    folder = scratch / "webimage"
    folder.mkdir()
    argv = [str(webimage), "serve", "--host", "127.0.0.1", "--port", "0",
            "--cache-dir", str(folder / "cache"), "--allow-loopback-sources"]
    if workers:
        argv += ["--workers", str(workers)]
    # WEBIMAGE_* variables of the caller's shell would change the service's settings.
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEBIMAGE_")}
    log_path = folder / "serve.log"
    process = processes.start("webimage", argv, log_path, env=env)
    # --port 0: the service prints the port it got. Its request log goes to the same file
    # (never to a pipe nobody drains), so the line is read from there.
    deadline, port = time.monotonic() + 60, None
    while port is None and time.monotonic() < deadline:
        if process.poll() is not None:
            raise SideFailed(f"exited with status {process.returncode}: {tail(log_path)}")
        for line in log_path.read_text(errors="replace").splitlines():
            if line.startswith("webimage serve: listening on http://"):
                port = int(line.rsplit(":", 1)[1])
        time.sleep(0.05)
    if port is None:
        raise SideFailed(f"printed no listening line in 60 s: {tail(log_path)}")
    wait_for_http(process, port, "/health", log_path)
    return process, port, log_path


# --- clients --------------------------------------------------------------------------------

def url_for(side, origin_port, name, width=BOX[0], height=BOX[1]):
    source = f"127.0.0.1:{origin_port}/{name}"
    if side == "ours":
        return f"/_/rs:fit:{width}:{height}/q:{QUALITY}/plain/http://{source}@jpg"
    return f"/unsafe/fit-in/{width}x{height}/filters:quality({QUALITY}):format(jpeg)/{source}"


def fetch_all(port, paths, clients):
    """GETs every path once with `clients` threads, each on its own keep-alive connection.
    Returns (wall seconds, bytes received); any status but 200, or a body that is not a JPEG,
    fails the side."""
    pending = iter(paths)
    lock = threading.Lock()
    stop = threading.Event()  # set on a failure or an interrupt: the other clients stop too
    failures, received = [], [0]

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            while True:
                with lock:
                    path = next(pending, None)
                if path is None or stop.is_set():
                    return
                for attempt in (1, 2):
                    try:
                        connection.request("GET", path)
                        response = connection.getresponse()
                        body = response.read()
                        break
                    except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                        # A server may close an idle keep-alive connection: reconnect once.
                        connection.close()
                        if attempt == 2:
                            raise
                if response.status != 200 or not body.startswith(b"\xff\xd8"):
                    with lock:
                        failures.append(f"{response.status} for {path}: {body[:120]!r}")
                    stop.set()
                    return
                with lock:
                    received[0] += len(body)
        except Exception as error:  # noqa: BLE001 - any client failure fails the side
            with lock:
                failures.append(f"{type(error).__name__}: {error}")
            stop.set()
        finally:
            connection.close()

    start = time.perf_counter()
    pool = concurrent.futures.ThreadPoolExecutor(clients)
    try:
        for future in [pool.submit(client) for _ in range(clients)]:
            future.result()
    except BaseException:
        stop.set()  # Ctrl-C or SIGTERM: do not wait for the whole list before cleaning up
        raise
    finally:
        pool.shutdown(wait=True)
    elapsed = time.perf_counter() - start
    if failures:
        raise SideFailed(f"{len(failures)} failed request(s), first: {failures[0]}")
    return elapsed, received[0]


def check_image(port, path):
    """One GET; the answer must be a JPEG fitting BOX and touching one of its sides."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    if response.status != 200:
        raise SideFailed(f"check: status {response.status} for {path}: {body[:200]!r}")
    try:
        image = Image.open(io.BytesIO(body))
        image.load()
    except Exception as error:  # noqa: BLE001
        raise SideFailed(f"check: not an image ({error}) for {path}") from None
    width, height = image.size
    if image.format != "JPEG" or width > BOX[0] or height > BOX[1] or (width != BOX[0] and height != BOX[1]):
        raise SideFailed(f"check: {image.format} {width}x{height} does not fit {BOX[0]}x{BOX[1]} ({path})")
    return {"format": image.format, "size": f"{width}x{height}", "bytes": len(body),
            "content_type": response.getheader("Content-Type")}


# wrk: each thread walks the URL list from its own offset, one URL per request, in a loop.
# Requests are formatted once, in init. done() prints wrk's own counters as one JSON line;
# errors.status counts answers with a status above 399.
WRK_SCRIPT = """\
local paths_file = "%s"
local count = 0

function setup(thread)
  thread:set("thread_index", count)
  count = count + 1
end

function init(args)
  prepared = {}
  for line in io.lines(paths_file) do
    prepared[#prepared + 1] = wrk.format("GET", line)
  end
  position = math.floor(thread_index * #prepared / 2)
end

function request()
  position = position %% #prepared + 1
  return prepared[position]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%%d,"duration_us":%%d,"bytes":%%d,"status_errors":%%d,' ..
    '"connect":%%d,"read":%%d,"write":%%d,"timeout":%%d,"p50_us":%%d,"p99_us":%%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect, e.read, e.write,
    e.timeout, latency:percentile(50), latency:percentile(99)))
end
"""


def run_wrk(scratch, side, port, paths, seconds, connections=8, threads=2):
    folder = scratch / f"wrk-{side}"
    folder.mkdir()
    (folder / "paths.txt").write_text("\n".join(paths) + "\n")
    script = folder / "walk.lua"
    script.write_text(WRK_SCRIPT % (folder / "paths.txt"))
    argv = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
            "-s", str(script), f"http://127.0.0.1:{port}"]
    try:
        run = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 60,
                             preexec_fn=die_with_parent)
    except subprocess.TimeoutExpired:
        raise SideFailed("wrk did not finish") from None
    (folder / "wrk.txt").write_text(run.stdout + run.stderr)
    lines = [line for line in run.stdout.splitlines() if line.startswith("WRK_RESULT ")]
    if run.returncode != 0 or not lines:
        raise SideFailed(f"wrk exited {run.returncode}: {(run.stdout + run.stderr).strip()[-300:]}")
    result = json.loads(lines[-1].split(" ", 1)[1])
    socket_errors = sum(result[k] for k in ("connect", "read", "write", "timeout"))
    if result["status_errors"] or socket_errors:
        raise SideFailed(f"wrk saw {result['status_errors']} non-2xx/3xx answers and {socket_errors} socket "
                         f"errors in {result['requests']} requests (see {folder / 'wrk.txt'})")
    if result["requests"] == 0:
        raise SideFailed("wrk completed no request")
    result["requests_per_s"] = result["requests"] / (result["duration_us"] / 1e6)
    return result


# --- floors ---------------------------------------------------------------------------------

def decode_floor_cpu_s(inputs, names, rounds=5):
    """CPU seconds per image that libjpeg-turbo needs to decode each source at the scale the fit
    to BOX allows (Pillow's draft() picks the DCT scale, as our decoder does), in this process:
    the floor of a cold request's CPU. The median of `rounds` passes over every file."""
    blobs = [(inputs / name).read_bytes() for name in names]
    passes = []
    for _ in range(rounds):
        start = time.process_time()
        for blob in blobs:
            image = Image.open(io.BytesIO(blob))
            image.draft("RGB", BOX)
            image.load()
        passes.append((time.process_time() - start) / len(blobs))
    return statistics.median(passes), image.size


def save_results(port, paths, folder):
    """GETs each path once and writes its body to folder/img-N.jpg (and verify.jpg): the bytes
    nginx serves as static files in the warm comparison."""
    folder.mkdir(parents=True)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        for index, path in enumerate(paths):
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                raise SideFailed(f"saving results: status {response.status} for {path}")
            (folder / f"img-{index}.jpg").write_bytes(body)
            if index == 0:
                (folder / "verify.jpg").write_bytes(body)
    finally:
        connection.close()


# --- the run --------------------------------------------------------------------------------

def versions(thumbor):
    def output(argv):
        try:
            run = subprocess.run(argv, capture_output=True, text=True, timeout=60)
            return (run.stdout + run.stderr).strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "?"
    thumbor_python = pathlib.Path(thumbor).parent / "python"
    return {
        # "Thumbor v7.8.0 (30-May-2026)", "nginx version: nginx/1.22.1", "wrk debian/4.1.0-3+b2 [epoll] ..."
        "thumbor": output([str(thumbor), "--version"]).removeprefix("Thumbor v"),
        "thumbor's Pillow": output([str(thumbor_python), "-c", "import PIL; print(PIL.__version__)"]),
        "Pillow (inputs, checks)": Image.__version__,
        "nginx": output(["nginx", "-v"]).removeprefix("nginx version: nginx/"),
        "wrk": output(["wrk", "-v"]).split(" [")[0].removeprefix("wrk "),
    }


def cpu_jiffies():
    fields = pathlib.Path("/proc/stat").read_text().splitlines()[0].split()[1:9]
    values = [int(v) for v in fields]
    return values[7], sum(values)


def run(args):
    inputs = HERE / "inputs" / "service"
    manifest = make_inputs(inputs, args.images)
    names = [f"img-{i}.jpg" for i in range(args.images)]
    sides = ["thumbor", "ours"] if args.only is None else [args.only]
    results = {side: {} for side in sides}
    info = {"versions": versions(args.thumbor), "inputs_sha256": manifest["sha256"],
            "input_bytes_mean": sum(manifest["sizes"][n] for n in names) / len(names)}
    processes = Processes()
    # The caches, logs and nginx prefix; WEBIMAGE_BENCH_TMPDIR as for the other cases (a tmpfs
    # such as /dev/shm takes the filesystem out of the comparison).
    scratch_root = pathlib.Path(os.environ.get("WEBIMAGE_BENCH_TMPDIR") or tempfile.gettempdir())
    wait_for_freed_inodes(scratch_root)
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="webimage-service-bench-", dir=scratch_root))
    servers = {}
    try:
        try:
            origin = start_nginx(processes, scratch, inputs)
        except SideFailed as error:
            # Without the origin neither side can run.
            for side in sides:
                results[side]["error"] = f"nginx: {error}"
            return results, info
        log(f"nginx serves {len(names)} sources on 127.0.0.1:{origin}")

        live = list(sides)
        # Dirty file data of an earlier job (a build, the inputs just written) is written back
        # later by kernel threads, in the middle of whatever runs then: flush it first.
        os.sync()
        steal_start, total_start = cpu_jiffies()
        info["load_before"] = os.getloadavg()

        def case(side, name, body):
            """Runs one case of one side; a failure marks the side failed, and its later cases
            are skipped."""
            if "error" in results[side]:
                return None
            try:
                cpu_before = group_cpu_seconds(servers[side][0].pid)
                result = body()
                result["server_cpu_s"] = group_cpu_seconds(servers[side][0].pid) - cpu_before
                return result
            except SideFailed as error:
                results[side]["error"] = f"{name}: {error}"
                log(f"{side} failed: {name}: {error}")
                return None

        def start(side, round_index):
            """A new server with empty cache folders, checked with one URL whose source no
            case uses: the check also warms the process up (threads, connections, code), so
            that the cold case times the work of empty caches, not of a new process."""
            try:
                if side == "thumbor":
                    servers[side] = start_thumbor(processes, scratch / f"round-{round_index}", args.thumbor)
                else:
                    servers[side] = start_ours(processes, scratch / f"round-{round_index}", args.webimage,
                                               args.workers)
                check = check_image(servers[side][1], url_for(side, origin, "verify.jpg"))
                results[side]["check"] = check
                log(f"{side} listens on 127.0.0.1:{servers[side][1]}; check: {check}")
            except SideFailed as error:
                results[side]["error"] = str(error)
                log(f"{side} failed: {error}")

        def cold(side):
            port = servers[side][1]
            seconds, received = fetch_all(port, [url_for(side, origin, n) for n in names], args.clients)
            return {"ms": seconds * 1000, "bytes_mean": received / len(names)}

        # cold: every result made once, into empty caches. One run is about a second, so a
        # moment of load on this shared machine moves it a lot: it runs in rounds, each with
        # new servers, the sides' order alternating, and the table shows the median. The
        # servers of the last round stay up for the warm and memory cases.
        rounds = []
        for round_index in range(args.cold_rounds):
            last = round_index == args.cold_rounds - 1
            (scratch / f"round-{round_index}").mkdir()
            for side in (live if round_index % 2 == 0 else list(reversed(live))):
                if "error" in results[side]:
                    continue
                start(side, round_index)
                run_result = case(side, "cold", lambda side=side: cold(side))
                if run_result:
                    rounds.append((side, run_result))
                    log(f"{side} cold, round {round_index + 1}: {run_result['ms']:.0f} ms, "
                        f"server CPU {run_result['server_cpu_s']:.2f} s")
                if not last and side in servers:
                    processes.stop(servers.pop(side)[0])
        for side in live:
            mine = [r for s, r in rounds if s == side]
            if mine and "error" not in results[side]:
                ms = sorted(r["ms"] for r in mine)
                median = statistics.median(ms)
                results[side]["cold"] = {
                    "ms": median, "images_per_s": len(names) / (median / 1000), "rounds_ms": ms,
                    "bytes_mean": mine[0]["bytes_mean"],
                    "server_cpu_s": sum(r["server_cpu_s"] for r in mine) / len(mine)}
        checked = [results[s]["check"]["size"] for s in sides if "check" in results[s]]
        if len(set(checked)) > 1:
            info["note"] = f"the two sides made different sizes for the same URL: {checked}"

        # warm: the same URLs again, from each side's result cache. Ours goes first here so
        # that the two cases' orders differ (drift of the machine hits both sides).
        for side in reversed(live):
            warm = case(side, "warm", lambda side=side: run_wrk(
                scratch, side, servers[side][1], [url_for(side, origin, n) for n in names], args.warm_seconds))
            if warm:
                results[side]["warm"] = warm
                log(f"{side} warm: {warm}")

        # nginx serving our warm answers' bytes as static files, under the same wrk load: the
        # ceiling a result cache on this machine can be measured against.
        if "ours" in servers and "warm" in results["ours"]:
            try:
                folder = scratch / "results"
                save_results(servers["ours"][1], [url_for("ours", origin, n) for n in names], folder)
                # nginx's workers run as nobody: they must get through mkdtemp's 0700 folder.
                scratch.chmod(0o711)
                static_port = start_nginx(processes, scratch, folder, name="nginx-results")
                static = run_wrk(scratch, "nginx", static_port, [f"/img-{i}.jpg" for i in range(len(names))],
                                 args.warm_seconds)
                results["ours"]["nginx_static"] = static
                log(f"nginx static results: {static}")
            except SideFailed as error:
                info["nginx_static_error"] = str(error)

        # The decode floor: what libjpeg-turbo alone spends per cold image, measured here while
        # the servers idle.
        floor_s, floor_size = decode_floor_cpu_s(inputs, names)
        info["decode_floor"] = {"cpu_s": floor_s, "size": f"{floor_size[0]}x{floor_size[1]}"}
        log(f"decode floor: {floor_s * 1000:.2f} ms per image at {floor_size[0]}x{floor_size[1]}")

        # Memory: thumbor's peak so far, for context (its forked workers each have their own).
        if "thumbor" in servers and "error" not in results["thumbor"]:
            members = group_members(servers["thumbor"][0].pid)
            results["thumbor"]["rss"] = {"vmhwm_kib": sum(status_kib(p, "VmHWM") for p in members),
                                         "processes": len(members), "after": "cold + warm"}

        # rss: 10,000 distinct results through ours, every one made and cached. At 6 KB or less
        # each they add up to well under the result memory cache's 256 MiB: the case bounds what
        # distinct work leaves behind (pixel buffers, sources, bookkeeping), not eviction.
        if "ours" in servers and "error" not in results["ours"]:
            widths = [100 + 3 * i for i in range(args.widths)]  # all below 267: distinct sizes

            def rss():
                process, port, _ = servers["ours"]
                paths = [url_for("ours", origin, n, width=w) for w in widths for n in names]
                seconds, received = fetch_all(port, paths, args.clients)
                return {"requests": len(paths), "seconds": seconds, "result_bytes": received,
                        "vmhwm_kib": status_kib(process.pid, "VmHWM"),
                        "vmrss_kib": status_kib(process.pid, "VmRSS"), "after": f"cold + warm + {len(paths)} distinct"}
            log(f"ours: {len(widths) * len(names)} distinct requests for the memory case")
            memory = case("ours", "rss", rss)
            if memory:
                results["ours"]["rss"] = memory
                log(f"ours rss: {memory}")

        steal_end, total_end = cpu_jiffies()
        info["steal_percent"] = 100 * (steal_end - steal_start) / max(1, total_end - total_start)
        info["load_after"] = os.getloadavg()
        # A side that died during the run shows it here rather than as a silent gap.
        for side, (process, _, log_path) in servers.items():
            if process.poll() is not None and "error" not in results[side]:
                results[side]["error"] = f"exited with status {process.returncode}: {tail(log_path)}"
    finally:
        processes.stop_all()
        if args.keep_scratch:
            log(f"kept {scratch}")
        else:
            delete_scratch(scratch)
    return results, info


# --- the table ------------------------------------------------------------------------------

def report(results, info, args):
    def side(name):
        return results.get(name, {})

    def cell(name, case, text):
        result = side(name)
        if case in result:
            return text(result[case])
        if name not in results:
            return "not run"
        return "error" if "error" in result else "—"

    def ratio(case, key):
        ours, peer = side("ours").get(case), side("thumbor").get(case)
        if not ours or not peer:
            return None
        return ours[key] / peer[key]

    cold_ratio = ratio("cold", "ms")
    warm_ratio = ratio("warm", "requests_per_s")
    ours_cold, floor = side("ours").get("cold"), info.get("decode_floor")
    floor_ratio = ours_cold["server_cpu_s"] / args.images / floor["cpu_s"] if ours_cold and floor else None
    ours_warm, static = side("ours").get("warm"), side("ours").get("nginx_static")
    nginx_ratio = ours_warm["requests_per_s"] / static["requests_per_s"] if ours_warm and static else None
    limit_kib = (MEMORY_CACHE_BYTES + RSS_HEADROOM_BYTES) // 1024
    ours_rss = side("ours").get("rss")
    rss_verdict = "—" if not ours_rss else ("pass" if ours_rss["vmhwm_kib"] <= limit_kib else "FAIL")

    def met(value, ok):
        return "" if value is None else (": met" if ok else ": missed")

    rows = [
        (f"cold: {args.images} URLs once, {args.clients} clients, median of {args.cold_rounds} (ms; images/s)",
         cell("ours", "cold", lambda r: f"{r['ms']:.0f} ms; {r['images_per_s']:.1f}/s"),
         cell("thumbor", "cold", lambda r: f"{r['ms']:.0f} ms; {r['images_per_s']:.1f}/s"),
         "—" if cold_ratio is None else f"{cold_ratio:.2f}",
         "≤ 0.5" + met(cold_ratio, cold_ratio is not None and cold_ratio <= 0.5)),
        (f"warm: wrk 8 conns, 2 threads, {args.warm_seconds} s (requests/s)",
         cell("ours", "warm", lambda r: f"{r['requests_per_s']:.0f}"),
         cell("thumbor", "warm", lambda r: f"{r['requests_per_s']:.0f}"),
         "—" if warm_ratio is None else f"{warm_ratio:.1f}×",
         "≥ 5×" + met(warm_ratio, warm_ratio is not None and warm_ratio >= 5)),
        ("cold CPU per image against the decode floor (ms; floor: Pillow draft() + load())",
         cell("ours", "cold", lambda r: f"{r['server_cpu_s'] * 1000 / args.images:.2f}"),
         "floor " + (f"{info['decode_floor']['cpu_s'] * 1000:.2f}" if "decode_floor" in info else "—"),
         "—" if floor_ratio is None else f"{floor_ratio:.2f}",
         "≤ 1.5" + met(floor_ratio, floor_ratio is not None and floor_ratio <= 1.5)),
        ("warm against nginx serving the same result bytes as files (requests/s)",
         cell("ours", "warm", lambda r: f"{r['requests_per_s']:.0f}"),
         "nginx " + cell("ours", "nginx_static", lambda r: f"{r['requests_per_s']:.0f}"),
         "—" if nginx_ratio is None else f"{nginx_ratio:.2f}",
         "≥ 0.5" + met(nginx_ratio, nginx_ratio is not None and nginx_ratio >= 0.5)),
        ("peak RSS, VmHWM (MiB)",
         cell("ours", "rss", lambda r: f"{r['vmhwm_kib'] / 1024:.0f} (after {r['requests']:,} distinct)"),
         cell("thumbor", "rss", lambda r: f"{r['vmhwm_kib'] / 1024:.0f} ({r['processes']} processes summed, "
                                          f"after cold + warm)"),
         "—",
         f"ours ≤ {limit_kib // 1024} (256 cache + 128): {rss_verdict}"),
    ]
    header = ("case", "ours", "thumbor", "ratio", "target")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(5)]

    def line(cells):
        return "| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                   for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    print(line(header))
    print("|" + "|".join("-" * (w + 1) + ("-" if i == 0 else ":") for i, w in enumerate(widths)) + "|")
    for row in rows:
        print(line(row))
    print()
    print("Ratios are ours / thumbor for the cold time (below 1: we are faster) and ours / thumbor for "
          "the warm throughput (above 1: we are faster). Targets are reported, not gated.")
    for name in ("ours", "thumbor"):
        result = side(name)
        if "error" in result:
            print(f"{name}: error: {result['error']}")
        if "check" in result:
            check = result["check"]
            cold = result.get("cold", {})
            mean = f", cold mean {cold['bytes_mean'] / 1024:.1f} KiB per image" if cold else ""
            warm = result.get("warm")
            latency = f", warm p50 {warm['p50_us'] / 1000:.2f} ms / p99 {warm['p99_us'] / 1000:.2f} ms" if warm else ""
            print(f"{name}: check {check['format']} {check['size']} ({check['bytes']} bytes, "
                  f"{check['content_type']}){mean}{latency}")
            # CPU the server used per image or request (all its threads and processes): with
            # the wall time it tells a side that computes more from one that waits more.
            spent = []
            if cold:
                print(f"{name}: cold rounds " + ", ".join(f"{ms:.0f}" for ms in cold["rounds_ms"]) + " ms")
                spent.append(f"cold {cold['server_cpu_s'] * 1000 / args.images:.1f} ms per image")
            if warm:
                spent.append(f"warm {warm['server_cpu_s'] * 1e6 / warm['requests']:.0f} µs per request")
            if spent:
                print(f"{name}: server CPU: " + ", ".join(spent))
    if "rss" in side("ours"):
        r = side("ours")["rss"]
        print(f"ours: memory case {r['requests']:,} requests in {r['seconds']:.1f} s "
              f"({r['requests'] / r['seconds']:.0f}/s), {r['result_bytes'] / 2**20:.0f} MiB of results, "
              f"VmRSS at the end {r['vmrss_kib'] / 1024:.0f} MiB")
    if "note" in info:
        print(f"note: {info['note']}")
    print("versions: " + "; ".join(f"{k} {v}" for k, v in info["versions"].items()))
    print(f"inputs: {args.images} × {IMAGE_SIZE[0]}x{IMAGE_SIZE[1]} JPEG q90, mean "
          f"{info['input_bytes_mean'] / 1024:.0f} KiB, sha256 {info['inputs_sha256'][:12]}")
    if "load_before" in info:
        load = lambda t: " ".join(f"{v:.2f}" for v in t)  # noqa: E731
        print(f"load average before: {load(info['load_before'])}, after: {load(info['load_after'])}; "
              f"CPU steal during the run: {info['steal_percent']:.0f}%")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--webimage", type=pathlib.Path, help="the release build of webimage")
    parser.add_argument("--thumbor", type=pathlib.Path, default=DEFAULT_THUMBOR,
                        help="thumbor 7.8's executable (default: the venv scripts/bootstrap --service-bench makes)")
    parser.add_argument("--workers", type=int, help="ours: --workers (default: the service's, the core count)")
    parser.add_argument("--cold-rounds", type=int, default=3,
                        help="cold runs per side, each with new servers and empty caches (default 3)")
    parser.add_argument("--warm-seconds", type=int, default=10)
    parser.add_argument("--images", type=int, default=200, help="distinct sources (default 200)")
    parser.add_argument("--widths", type=int, default=50, help="widths per source in the memory case (default 50)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients, cold and memory cases")
    parser.add_argument("--only", choices=["ours", "thumbor"], help="run one side (for trying the script)")
    parser.add_argument("--json", type=pathlib.Path, default=ROOT / "bench-out" / "service-results.json",
                        help="where to keep the raw results")
    parser.add_argument("--keep-scratch", action="store_true", help="keep the logs and caches of the run")
    args = parser.parse_args()
    for option in ("cold_rounds", "warm_seconds", "images", "widths", "clients"):
        if getattr(args, option) < 1:
            parser.error(f"--{option.replace('_', '-')} must be 1 or more")
    if args.only != "thumbor":
        if args.webimage is None or not os.access(args.webimage, os.X_OK):
            parser.error(f"--webimage must name the webimage executable (got {args.webimage})")
    if args.only != "ours" and not os.access(args.thumbor, os.X_OK):
        parser.error(f"no thumbor at {args.thumbor} (run scripts/bootstrap --service-bench, or pass --thumbor)")
    for tool in ("nginx", "wrk"):
        if shutil.which(tool) is None:
            parser.error(f"{tool} is not on PATH (run scripts/bootstrap --service-bench)")

    # SIGTERM and SIGHUP end the run through the finally blocks, as Ctrl-C does, so that the
    # servers are stopped.
    def stop(signum, _frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)

    results, info = run(args)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"results": results, "info": info}, indent=1))
    print()
    report(results, info, args)
    return 1 if any("error" in r for r in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
