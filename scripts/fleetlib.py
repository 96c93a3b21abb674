"""What scripts/fleet and `scripts/soak --fleet` share: the front nginx running deploy/nginx.conf
with loopback addresses, moto_server as the S3 tier, the nodes' S3 arguments, plain HTTP requests.
A module, not a script: both put this folder on sys.path by running from it."""
import collections
import http.client
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Benchmarks"))
from service_bench import free_port, tail, wait_for_http  # noqa: E402

RECIPE = ROOT / "deploy/nginx.conf"
BUCKET = "webimage-fleet"
# The nodes sign S3 requests with these (moto_server checks no signature).
S3_ENVIRONMENT = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}


class Failed(Exception):
    """The fleet (or the soak) could not be set up, or a scenario could not run at all."""


def nginx_main_config(prefix, http_body):
    """A whole nginx configuration of its own, in the foreground (so it is our child), every
    path under prefix; the access log records the upstream addresses and statuses tried."""
    return f"""\
daemon off;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log notice;
events {{ worker_connections 1024; }}
http {{
    log_format fleet '$msec $request_time $status "$upstream_addr" "$upstream_status" $request_uri';
    access_log {prefix}/access.log fleet;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
{http_body}
}}
"""


def start_nginx(processes, prefix, http_body, health_port):
    prefix.mkdir(exist_ok=True)
    (prefix / "nginx.conf").write_text(nginx_main_config(prefix, http_body))
    # -e: the error log before the configuration is read (else /var/log/nginx/error.log).
    process = processes.start(prefix.name, ["nginx", "-p", str(prefix), "-e", str(prefix / "error.log"),
                                            "-c", str(prefix / "nginx.conf")], prefix / "stdout.log")
    wait_for_http(process, health_port, "/health", prefix / "error.log", timeout=20)
    return process


# --- the front: deploy/nginx.conf with loopback addresses ------------------------------------

SERVER_LINE = re.compile(r"^(\s*)server\s+[\w.-]+:\d+(\s[^;]*)?;\s*$", re.MULTILINE)


def front_config(node_ports, listen_port):
    """The recipe with its upstream servers replaced by the nodes (keeping the recipe's
    parameters) and its listen address by a loopback port. Fails if the recipe changed shape,
    so that the test never silently runs something else than what operators copy."""
    recipe = RECIPE.read_text()
    servers = list(SERVER_LINE.finditer(recipe))
    if not servers:
        raise Failed(f"{RECIPE}: no 'server host:port ...;' lines in the upstream block")
    indent, parameters = servers[0].group(1), servers[0].group(2) or ""
    lines = "".join(f"{indent}server 127.0.0.1:{port}{parameters};\n" for port in node_ports)
    recipe = recipe[:servers[0].start()] + lines.rstrip("\n") + recipe[servers[-1].end():]
    recipe, listens = re.subn(r"^(\s*)listen\s+80;", rf"\1listen 127.0.0.1:{listen_port};", recipe, flags=re.MULTILINE)
    if listens != 1:
        raise Failed(f"{RECIPE}: expected one 'listen 80;' line, found {listens}")
    return recipe


# One line of the front's access log; upstreams: [(node address, its status)] in the order tried.
LogEntry = collections.namedtuple("LogEntry", "start end status upstreams uri")


class Front:
    """The front nginx. Its node list changes by rewriting the included recipe and SIGHUP."""

    def __init__(self, processes, scratch, node_ports):
        self.prefix = scratch / "front"
        self.port = free_port()
        self.include = self.prefix / "webimage.conf"
        self.prefix.mkdir()
        self.include.write_text(front_config(node_ports, self.port))
        self.process = None
        self.processes = processes

    def start(self):
        self.process = start_nginx(self.processes, self.prefix, f"    include {self.include};", self.port)

    def set_nodes(self, node_ports):
        """Reloads nginx with another node list and returns once the old worker has exited, so
        that every later request sees the new list."""
        self.include.write_text(front_config(node_ports, self.port))
        old_workers = children(self.process.pid)
        os.kill(self.process.pid, signal.SIGHUP)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            current = children(self.process.pid)
            if current and not (current & old_workers):
                return
            time.sleep(0.05)
        raise Failed(f"nginx did not reload: {tail(self.prefix / 'error.log')}")

    def log_entries(self):
        """The access log, as LogEntry values."""
        entries = []
        for line in (self.prefix / "access.log").read_text().splitlines():
            match = re.match(r'(\S+) (\S+) (\d+) "([^"]*)" "([^"]*)" (\S+)$', line)
            if not match:
                continue
            end, duration = float(match.group(1)), float(match.group(2))
            addresses = [a.strip() for a in match.group(4).split(",")] if match.group(4) != "-" else []
            statuses = [s.strip() for s in match.group(5).split(",")]
            entries.append(LogEntry(end - duration, end, int(match.group(3)),
                                    list(zip(addresses, statuses + ["-"] * len(addresses))), match.group(6)))
        return entries


def children(pid):
    """Pids whose parent is pid (an nginx master's workers)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = pathlib.Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                found.add(int(entry))
    return found


# --- S3 ----------------------------------------------------------------------------------------

def start_s3(processes, scratch):
    port = free_port()
    log_path = scratch / "moto.log"
    process = processes.start("moto", ["moto_server", "-H", "127.0.0.1", "-p", str(port)], log_path)
    wait_for_http(process, port, "/moto-api/", log_path, timeout=30)
    status, body = request(port, "PUT", f"/{BUCKET}")  # moto creates buckets without signatures
    if status != 200:
        raise Failed(f"moto: creating bucket {BUCKET}: {status} {body[:200]!r}")
    return process, port


def s3_object_count(s3_port):
    """Objects in the bucket (every page of the listing), or None when moto did not answer."""
    count, token = 0, ""
    while True:
        status, body = request(s3_port, "GET", f"/{BUCKET}?list-type=2&max-keys=1000{token}")
        if status != 200:
            return None
        count += body.count(b"<Key>")
        match = re.search(rb"<NextContinuationToken>([^<]+)</NextContinuationToken>", body)
        if not match:
            return count
        token = "&continuation-token=" + re.sub(r"[^A-Za-z0-9._~-]", lambda m: "%%%02X" % ord(m.group()),
                                               match.group(1).decode())


def s3_arguments(s3_port, prefix="fleet/"):
    """`webimage serve`'s S3 options for the bucket behind s3_port (moto, or a proxy to it)."""
    return ["--s3-endpoint", f"http://127.0.0.1:{s3_port}", "--s3-bucket", BUCKET,
            "--s3-region", "us-east-1", "--s3-prefix", prefix]




def request(port, method, path, timeout=60):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def check_tools(webimage, s3=True):
    """nginx, moto_server (with s3) and a webimage with the S3 tier (with s3), or Failed."""
    for tool in ["nginx"] + ([] if not s3 else ["moto_server"]):
        if not shutil.which(tool):
            raise Failed(f"{tool} is not on PATH (scripts/bootstrap installs it)")
    if not os.access(webimage, os.X_OK):
        raise Failed(f"{webimage} is not an executable (build it, or pass --webimage PATH)")
    help_text = subprocess.run([str(webimage), "serve", "--help"], capture_output=True, text=True).stdout
    if s3 and "--s3-endpoint" not in help_text:
        raise Failed(f"this webimage has no S3 tier (no --s3-endpoint in `{webimage} serve --help`)")
