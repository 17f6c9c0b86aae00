"""Real servers for the tests that need one: ``referee serve`` (granian), gunicorn, redis-server, started on free
ports from this tree's code, waited for by polling their port (a loaded machine starts them slowly), and always
stopped; a tablet that talks HTTP from an address of its own choosing (any of 127.0.0.0/8), keeping its cookies
as they were set; a reverse proxy of a few lines in front of them, as an https proxy forwards; and a lossy one, as
a venue's bad Wi-Fi passes a tablet's requests."""
from __future__ import annotations

import http.client
import http.server
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import referee

ROOT = Path(referee.__file__).resolve().parent.parent  # this tree: its code is what the servers run
BIN = Path(sys.executable).parent
START_SECONDS = 180  # a loaded 2-core machine imports the app slowly, once per worker process
HTTP_SECONDS = 60


# A server's port is chosen below the range the system hands out for outgoing connections: a free port from that
# range (``bind(("", 0))``) could be taken by one of the run's many connections (chromium's, the test clients')
# between the moment it is chosen and the server's binding it ("Address already in use": seen once on CI).
PORTS = range(20000, 32000)


def _outgoing_ports() -> range:
    try:
        low, high = (int(n) for n in open("/proc/sys/net/ipv4/ip_local_port_range").read().split())
    except (OSError, ValueError):
        return range(32768, 61000)
    return range(low, high + 1)


def free_port() -> int:
    """A port of 127.0.0.1 that no socket holds now, outside the outgoing connections' range."""
    outgoing = _outgoing_ports()
    rng = random.Random()
    for _ in range(200):
        port = rng.choice(PORTS)
        if port in outgoing:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:  # (a system whose outgoing range covers PORTS: any free port)
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def token(page: str) -> str:
    field_ = re.search(r'<input[^>]*name="csrf_token"[^>]*>', page).group(0)
    return re.search(r'value="([^"]+)"', field_).group(1)


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


@dataclass
class Tablet:
    """A browser without a browser: its own address (``source``, e.g. 127.0.0.7: every 127.* address is this
    machine's), its own cookies, redirects not followed, every Set-Cookie kept as sent."""

    base: str
    source: str = "127.0.0.1"
    headers: dict = field(default_factory=dict)
    cookies: dict = field(default_factory=dict)
    set_cookies: list = field(default_factory=list)
    last: Reply | None = None
    origin: str | None = None  # over https a form is accepted from its own site only: a browser says so (Referer)

    def request(self, method: str, path: str, data: dict | None = None, headers: dict | None = None) -> Reply:
        url = urllib.parse.urlsplit(self.base)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=HTTP_SECONDS, source_address=(self.source, 0))
        sent = {**self.headers, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if self.origin and method == "POST":
            sent.setdefault("Referer", self.origin + path)
        if data is not None:
            body = urllib.parse.urlencode(data).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            reply = Reply(response.status, response.headers, response.read())
        finally:
            conn.close()
        for raw in reply.headers.get_all("Set-Cookie") or []:
            self.set_cookies.append(raw)
            name, _, rest = raw.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        self.last = reply
        return reply

    def get(self, path: str, headers: dict | None = None) -> tuple[int, str]:
        reply = self.request("GET", path, headers=headers)
        return reply.status, reply.text

    def post(self, path: str, data: dict) -> tuple[int, str]:
        reply = self.request("POST", path, data)
        return reply.status, reply.text


class Server:
    """A server process of its own session (so its workers are stopped with it), its output in a log file."""

    def __init__(self, name: str, cmd: list, port: int, log: Path, env: dict | None = None):
        self.name, self.port, self.log = name, port, log
        self.base = f"http://127.0.0.1:{port}"
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                                         stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def fail(self, why: str):
        pytest.fail(f"{self.name} {why}; its output:\n{self.output()[-4000:]}")

    def wait_for_port(self, seconds: float = START_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.fail(f"exited ({self.proc.returncode}) before it listened")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=2).close()
                return
            except OSError:
                time.sleep(0.2)
        self.fail(f"did not listen within {seconds} s")

    def wait_for_output(self, pattern: str, count: int = 1, seconds: float = START_SECONDS) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            text = self.output()
            if len(re.findall(pattern, text)) >= count:
                return text
            if self.proc.poll() is not None:
                self.fail(f"exited ({self.proc.returncode}) before printing {pattern!r} {count} times")
            time.sleep(0.2)
        self.fail(f"did not print {pattern!r} {count} times within {seconds} s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=30)
            except ProcessLookupError:
                pass
        else:  # the server is gone: a worker it left behind is not
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def referee_serve(tmp_path: Path, env: dict) -> Server:
    """``referee serve`` (granian: one worker process, 8 threads) on a free port of 127.0.0.1."""
    port = free_port()
    return Server("referee serve", [sys.executable, "-m", "referee.cli", "serve", "--host", "127.0.0.1", "--port",
                               str(port)], port, tmp_path / f"serve-{port}.log", env)


BOOTED = "referee-test: a worker loaded the app"
GUNICORN_HOOKS = f"""
def post_worker_init(worker):  # printed, not logged: the migrations' logging set-up silences gunicorn's loggers
    print("{BOOTED} (pid", worker.pid, ")", flush=True)
"""


def gunicorn(tmp_path: Path, env: dict, workers: int) -> Server:
    """gunicorn -w N (threaded workers keeping connections open) on a free port of 127.0.0.1, as the README says to
    run it; each worker says once it has
    loaded the app (a config file of one hook)."""
    port = free_port()
    conf = tmp_path / f"gunicorn-{port}.conf.py"
    conf.write_text(GUNICORN_HOOKS)
    cmd = [str(BIN / "gunicorn"), "-c", str(conf), "--chdir", str(ROOT), "--no-control-socket", "-w", str(workers),
           "-k", "gthread", "--threads", "2", "--keep-alive", "5", "-b", f"127.0.0.1:{port}", "--timeout", "300",
           "--log-level", "info", "referee:create_app()"]
    return Server("gunicorn", cmd, port, tmp_path / f"gunicorn-{port}.log", env)


def redis_server(tmp_path: Path) -> Server:
    """A redis-server of its own (Debian's package; scripts/setup --tests installs it), nothing kept on disk."""
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed: scripts/setup --tests installs Debian's redis-server")
    port = free_port()
    return Server("redis-server", ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                   "--appendonly", "no", "--dir", str(tmp_path)], port, tmp_path / f"redis-{port}.log")


def haproxy(tmp_path: Path, hosts: list[Server]) -> Server:
    """Debian's haproxy with the repository's configuration (docs/haproxy.cfg, as the README runs it) on a free port
    of 127.0.0.1, in front of ``hosts`` (two)."""
    if shutil.which("haproxy") is None:
        pytest.fail("haproxy is not installed: scripts/setup --tests installs Debian's haproxy")
    port = free_port()
    env = {"REFEREE_PROXY_BIND": f"127.0.0.1:{port}", "REFEREE_HOST_A": f"127.0.0.1:{hosts[0].port}",
           "REFEREE_HOST_B": f"127.0.0.1:{hosts[1].port}"}
    return Server("haproxy", [shutil.which("haproxy"), "-db", "-f", str(ROOT / "docs" / "haproxy.cfg")], port,
                  tmp_path / f"haproxy-{port}.log", env)


# tests/conftest.py: the tests that start any of these are the server tier (scripts/test runs them, --fast does not)
referee_serve.starts_a_server = gunicorn.starts_a_server = redis_server.starts_a_server = haproxy.starts_a_server = True


HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
              "transfer-encoding", "upgrade", "content-length"}


class ReverseProxy:
    """An https proxy as far as the app can tell: each request is sent on to the server with X-Forwarded-For (the
    address the request came from, after any the request already named), X-Forwarded-Proto: https (this proxy
    stands for the one that ends TLS) and X-Forwarded-Host (the address the device typed); the reply comes back
    as it was, redirects included.  ``source``: the address it connects to the server from."""

    def __init__(self, backend_port: int, source: str = "127.0.0.1"):
        proxy = self

        class Forward(http.server.BaseHTTPRequestHandler):
            def _forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                before = self.headers.get("X-Forwarded-For")
                headers["X-Forwarded-For"] = f"{before}, {self.client_address[0]}" if before else self.client_address[0]
                headers["X-Forwarded-Proto"] = "https"
                headers["X-Forwarded-Host"] = self.headers.get("Host", "")
                conn = http.client.HTTPConnection("127.0.0.1", backend_port, timeout=HTTP_SECONDS,
                                                  source_address=(proxy.source, 0))
                try:
                    conn.request(self.command, self.path, body=body, headers=headers)
                    response = conn.getresponse()
                    content = response.read()
                finally:
                    conn.close()
                self.send_response(response.status)
                for name, value in response.getheaders():
                    if name.lower() not in HOP_BY_HOP:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = do_HEAD = _forward

            def log_message(self, *args):  # quiet
                pass

        self.source = source
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Forward)
        self.port = self.server.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "ReverseProxy":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=30)


class LossyProxy:
    """A venue's bad Wi-Fi between a tablet and the app, at the level of TCP: while ``lossy``, each chunk of every
    answer is held 0.1 to 0.9 s, and one answer in five is cut as it begins (its request reached the app, which
    acted on it: the device never hears what it did).  Off (``lossy = False``), it passes everything as it comes.
    The draws come from ``seed``: the same run meets the same network."""

    CHUNK = 16384

    def __init__(self, backend_port: int, seed: int = 42):
        import random

        self.backend_port = backend_port
        self.lossy = False
        self.cut = 0  # answers cut so far
        self.random = random.Random(seed)
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.open: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)

    def _draw(self) -> tuple[float, bool]:
        with self.lock:
            return self.random.uniform(0.1, 0.9), self.random.random() < 0.2

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.backend_port))
            self.open += [client, server]
            asked = threading.Event()  # a request was passed on since the last answer began
            threading.Thread(target=self._up, args=(client, server, asked), daemon=True).start()
            threading.Thread(target=self._down, args=(server, client, asked), daemon=True).start()

    @staticmethod
    def _close(*sockets: socket.socket) -> None:
        for each in sockets:
            try:
                each.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            each.close()

    def _up(self, client: socket.socket, server: socket.socket, asked: threading.Event) -> None:
        try:
            while data := client.recv(self.CHUNK):
                server.sendall(data)
                asked.set()
        except OSError:
            pass
        self._close(client, server)

    def _down(self, server: socket.socket, client: socket.socket, asked: threading.Event) -> None:
        try:
            while data := server.recv(self.CHUNK):
                if self.lossy:
                    hold, cut = self._draw()
                    if asked.is_set() and cut:  # an answer beginning: lost on the way
                        with self.lock:
                            self.cut += 1
                        break
                    time.sleep(hold)
                asked.clear()
                client.sendall(data)
        except OSError:
            pass
        self._close(client, server)

    def __enter__(self) -> "LossyProxy":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.listener.close()
        self._close(*self.open)
