"""Load at a tournament: every table recording at once while the director's page and a display follow live.

    .venv/bin/python benchmarks/load.py [--tables 64] [--seconds 60] [--period 3] [--db both|sqlite|postgresql]
                                        [--server serve|gunicorn] [--workers 4] [--worker-class gthread|sync]
                                        [--no-keep-alive] [--accept-encoding "gzip, deflate"] [--phones 0]
                                        [--hosts 1|2] [--taps plain|htmx] [--rounds 1] [--turns 60]

Seats one round of a tournament (4 players a table; --rounds N: round N, the rounds before it played out) in a
fresh database, starts the app on it in a process of
its own (`referee serve`: granian, 8 threads; or, with --server gunicorn, gunicorn -w --workers, threaded
workers keeping connections open, sharing one throttle store, a redis-server of its own, as the README says to
run several workers; with --hosts 2, two of these standing for two machines, each its own instance folder, behind
Debian's haproxy with docs/haproxy.cfg, on one PostgreSQL database and one redis), and plays it over HTTP as the venue would, each device keeping its connection open
between requests as a browser does (--no-keep-alive: a new connection for every request; with --worker-class
sync, gunicorn's default workers, which close every connection after its answer): at each table one tablet
(its own cookies, unlocked with the table's PIN, the forms' tokens
and entry keys read from its pages) records one legal entry (drawn by referee.sim.policy's Policy from the
engine's legal actions, sent in the fields the table screen's forms send: a trade's two sides in the trade
panel's fields) every --period seconds, starts staggered, then loads the table screen the record redirects to
(which must show the entry counted; --taps htmx: sent as the screen sends a tap once its standby is ready, answered
with the live region, one request a tap), while a second tablet at the table follows it; the director's page and
the room's display follow the tournament, and --phones players' phones the public standings.  Every follower polls its live region every second with the version
of its last answer (204 while nothing changed; the director's page names its last drawing too, and may be answered
with its changed parts alone, which name the version and drawing they bring it to), as htmx does.  Run on SQLite (a temporary file), then on
PostgreSQL (TEST_DATABASE_URL if set, a tournament added and nothing dropped; otherwise a throwaway server from
scripts/test-postgres, stopped at the end; skipped, saying why, if none can be had).

Prints, per database: the machine's load average before and after, entries recorded and entries/s; for each
kind of request (record POST, table screen GET, a second tablet's poll, the room display's poll, the director's
poll) the count, p50, p95 and max latency seen by the client, errors (HTTP 5xx or any unexpected status,
connection errors, an entry the engine holds legal refused), and the server's own CPU time for an answer of that
kind, apart for a poll's 204 (nothing new) and its 200 (each answer's Server-Timing header: the server is started
with REFEREE_SERVER_TIMING=1).  Latencies include the client's own share of this machine.  And the machine's speed:
a fixed pure-Python loop timed in the same run, and the server's CPU time a request as a share of it, so that runs
on different machines can be compared.  And the bytes the venue's Wi-Fi carries: a minute of a table's two tablets,
of the room display and of the director's page, and a tablet's first load of a table screen with its static files,
each as sent (the devices saying they read gzip, as browsers do; --accept-encoding identity: nothing compressed) and
as it would be with no body compressed.  Goal (2-core machine): p95 under 50 ms for every kind, 0 errors.  Figures only: nothing is asserted.
"""
from __future__ import annotations

import argparse
import gzip
import http.client
import zlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager, nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy.exc import OperationalError  # noqa: E402

from referee import create_app  # noqa: E402
from referee.services import rulesets  # noqa: E402
from referee.app.demo import play_table  # noqa: E402
from referee.services import folds, progress, tournaments
from referee.store.db import db  # noqa: E402
from referee.engine import legal_actions, parse_entry, parse_record, replay  # noqa: E402
from referee.sim.policy import Policy  # noqa: E402

SECRET = "load-benchmark-secret"
DIRECTOR_PIN = "424242"
HX = {"HX-Request": "true"}
ACCEPT_ENCODING = "gzip, deflate"  # what each device says it can read (--accept-encoding; a browser: gzip and more)
KINDS = ("record POST", "table GET", "table poll", "room display poll", "director poll", "standings poll")
GOAL_MS = 50.0
GTHREAD = ("--threads", "2", "--keep-alive", "5")  # gunicorn's threads a worker, and seconds a connection is kept
# open for its next request (a device polling every second keeps its own): as the README runs it


class Client:
    """A browser without a browser: its own cookies, and its own connection kept open from one request to the next
    (HTTP/1.1 keep-alive, as a browser polling every second keeps one), made anew when the server has closed it;
    every request timed.  ``keep_alive=False``: a new connection for each request."""

    def __init__(self, base: str, keep_alive: bool = True, encodings: str = ACCEPT_ENCODING):
        parts = urllib.parse.urlsplit(base)
        self.host, self.port, self.keep_alive, self.encodings = parts.hostname, parts.port, keep_alive, encodings
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None
        self.server_ms: float | None = None  # the server's CPU time for the last answer (its Server-Timing header)
        self.moved_to: tuple[str | None, str | None] = (None, None)  # (see open)
        self.location: str | None = None  # (see open)
        # the last answer's bytes: as they came over the network (status line, headers, body as sent), and as
        # they would have come with the body not compressed
        self.wire = self.plain = 0

    def open(self, path: str, data: dict | None = None, headers: dict | None = None) -> tuple[int, str, float]:
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        sent = dict(headers or {})
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if not self.keep_alive:
            sent["Connection"] = "close"
        sent["Accept-Encoding"] = self.encodings
        start = time.perf_counter()
        while True:
            reused = self.connection is not None
            connection = self.connection or http.client.HTTPConnection(self.host, self.port, timeout=30)
            self.connection = None
            try:
                connection.request("POST" if body is not None else "GET", path, body, sent)
                response = connection.getresponse()
                raw = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                connection.close()
                if reused:  # the server had closed the kept connection (its keep-alive time was up): a new one
                    continue
                raise
            break
        body = decoded(raw, response.headers.get("Content-Encoding"))
        text = body.decode(errors="replace")  # an icon is not text: only its size is counted
        head = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + 2 + sum(
            len(k) + len(v) + 4 for k, v in response.headers.items())
        self.wire, self.plain = head + len(raw), head + len(body)
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].strip().partition("=")
            if value and "expires=thu, 01 jan 1970" not in cookie.lower():
                self.cookies[name] = value
            else:
                self.cookies.pop(name, None)
        timing = re.search(r"app;dur=([0-9.]+)", response.headers.get("Server-Timing") or "")
        self.server_ms = float(timing.group(1)) if timing else None
        # an answer of changes: the version they bring its live region to, and the drawing they make of it
        self.moved_to = response.headers.get("Live-Version"), response.headers.get("Live-Drawing")
        self.location = response.headers.get("Location")  # where a redirect sends the device on to
        if self.keep_alive and not response.will_close:
            self.connection = connection
        else:
            connection.close()
        return response.status, text, (time.perf_counter() - start) * 1000


def decoded(raw: bytes, encoding: str | None) -> bytes:
    """An answer's body as the app wrote it, from the bytes as sent (``Content-Encoding``)."""
    if encoding in (None, "", "identity"):
        return raw
    if encoding == "gzip":
        return gzip.decompress(raw)
    if encoding == "deflate":
        return zlib.decompress(raw)
    raise ValueError(f"an answer in an encoding not asked for: {encoding}")


def token(page: str) -> str:
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)


def entry_key(page: str) -> str:
    """The key the screen's entry forms carry (made when it was drawn)."""
    return re.search(r'name="entry_key" value="([^"]+)"', page).group(1)


def form_fields(entry: dict) -> dict:
    """The fields a table screen's form sends for ``entry``: the entry's JSON, and a trade's two sides in the trade
    panel's fields (cash, deeds and cards on each side), which is where the app reads them from."""
    entry = dict(entry)
    fields: dict = {}
    if entry.get("type") == "trade":
        for side in ("give", "take"):
            offer = entry.pop(side, None) or {}
            if offer.get("cash"):
                fields[f"{side}-cash"] = str(offer["cash"])
            for part in ("deeds", "cards"):
                if offer.get(part):
                    fields[f"{side}-{part}"] = [str(x) for x in offer[part]]
    fields["entry"] = json.dumps(entry, ensure_ascii=False)
    return fields


def live_version(page: str, region: str) -> str:
    """The version a live region was drawn at: its data-version, else the ``v`` its poll sends."""
    tag = re.search(rf'<div id="{region}"[^>]*>', page).group(0)
    found = re.search(r'data-version="([^"]+)"', tag) or re.search(r'[?&](?:amp;)?v=([^"&]+)', tag)
    return found.group(1)


def live_drawing(page: str, region: str) -> str | None:
    """The drawing a live region's answer was (the director's page: its next poll names it), if it says."""
    found = re.search(r'data-drawn="([^"]+)"', re.search(rf'<div id="{region}"[^>]*>', page).group(0))
    return found.group(1) if found else None


def page_seq(page: str) -> int | None:
    found = re.search(r'name="seq" value="(\d+)"', page)
    return int(found.group(1)) if found else None


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {k: [] for k in KINDS}
        self.errors: dict[str, int] = {k: 0 for k in KINDS}
        self.changed: dict[str, int] = {k: 0 for k in KINDS}  # polls answered 200 (something new)
        # the server's CPU ms for each answer of a kind, by whether it was a 204 (a poll: nothing new)
        self.server: dict[tuple[str, bool], list[float]] = {(k, unchanged): [] for k in KINDS for unchanged in (0, 1)}
        self.notes: list[str] = []
        self.bytes: dict[str, list[int]] = {k: [0, 0] for k in KINDS}  # [as sent, the bodies not compressed]
        self.first_load = (0, 0)  # a tablet's first table screen with its static files: (as sent, not compressed)
        self.entries = 0
        self.cpu = (0.0, 0.0)  # CPU seconds used while measuring: (the server and its workers, this client)

    def error(self, kind: str, note: str) -> None:
        with self.lock:
            self.errors[kind] += 1
            if len(self.notes) < 10:
                self.notes.append(f"{kind}: {note}")

    def request(self, kind: str, client: Client, path: str, ok: tuple[int, ...], data=None, headers=None):
        """The request timed into ``kind``: (status, body), or (None, "") on a connection error."""
        try:
            status, text, ms = client.open(path, data, headers)
        except OSError as exc:
            self.error(kind, f"{path}: {exc}")
            return None, ""
        with self.lock:
            self.times[kind].append(ms)
            self.bytes[kind][0] += client.wire
            self.bytes[kind][1] += client.plain
            if client.server_ms is not None:
                self.server[kind, status == 204].append(client.server_ms)
        if status not in ok:
            self.error(kind, f"{path}: HTTP {status}")
        return status, text


def mean(values: list[float]) -> str:
    """The mean of ``values`` in ms, for the table ("-" for none)."""
    return f"{sum(values) / len(values):.2f}" if values else "-"


def reference_loop() -> float:
    """Milliseconds for a fixed pure-Python loop (the best of five), a figure of this machine's speed at the code the
    server runs, measured in the same run as the load: machines are compared by the server's time a request as a
    share of it."""
    best = float("inf")
    for _ in range(5):
        began = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - began)
    return best * 1000



def kb(count: float) -> str:
    return f"{count / 1000:.1f} kB"


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def sleep_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.monotonic()))


def tablet(stats: Stats, client: Client, game_id: int, game, page: str, seed: int, start: float, stop: float,
           period: float, taps: str) -> None:
    """One table's referee: a legal entry every ``period`` seconds, then the table screen it is sent back to."""
    policy = Policy(random.Random(seed), "random")
    moment = start
    while moment < stop and not game.state.over:
        sleep_until(moment)
        moment = max(moment + period, time.monotonic())
        seq = len(game.entries)
        chosen = policy.choose(game.state, legal_actions(game.state)).to_dict()
        text = json.dumps(chosen, ensure_ascii=False)
        fields = {"csrf_token": token(page), "seq": seq, "entry_key": entry_key(page), **form_fields(chosen)}
        if taps == "htmx":  # the screen's tap with its standby ready: answered with the live region
            status, fresh = stats.request("record POST", client, f"/games/{game_id}/record", (200,), fields, HX)
        else:  # the form as a page sends it: 303 to the table screen, loaded whole
            status, _ = stats.request("record POST", client, f"/games/{game_id}/record", (303,), fields)
            to = client.location if status == 303 and client.location else f"/games/{game_id}"
            status, fresh = stats.request("table GET", client, urllib.parse.urlsplit(to)._replace(
                scheme="", netloc="").geturl(), (200,))  # followed as the browser follows it
        if status == 200:
            page = fresh
        if page_seq(fresh) == seq + 1:
            game.record(parse_entry(json.loads(text)))
            with stats.lock:
                stats.entries += 1
            continue
        flash = re.search(r'class="flash refused"[^>]*>(.*?)(?:<div class="clause">|\n  </div>)', fresh, re.S)
        why = " ".join(re.sub(r"<[^>]+>", " ", flash.group(1)).split()) if flash else f"HTTP {status}"
        stats.error("record POST", f"game {game_id}, entry {seq + 1} {text} not recorded: {why}")
        try:  # carry on from what the server holds
            header, entries = parse_record(client.open(f"/games/{game_id}/record.jsonl")[1].splitlines())
            game = replay(rulesets.for_header(header), header, entries)
        except Exception as exc:  # noqa: BLE001 - a figure to print, not a crash
            stats.error("record POST", f"game {game_id}: could not read the record again ({exc}); table stopped")
            return


def follower(stats: Stats, kind: str, client: Client, path: str, region: str, page: str, start: float,
             stop: float) -> None:
    """A live region polled every second with the version of its last answer."""
    version, drawing = live_version(page, region), live_drawing(page, region)
    moment = start
    while moment < stop:
        sleep_until(moment)
        moment += 1.0
        named = f"{path}?v={version}" + (f"&d={drawing}" if drawing else "")
        status, text = stats.request(kind, client, named, (200, 204), headers=HX)
        if status == 200:  # the whole region, or its parts changed alone (the version and drawing they make said)
            stats.changed[kind] += 1
            if client.moved_to[0]:
                version, drawing = client.moved_to
            else:
                version, drawing = live_version(text, region), live_drawing(text, region)


def guarded(target, stats: Stats, *args) -> None:
    """A simulated device that breaks down is an error counted, not a traceback."""
    try:
        target(stats, *args)
    except Exception as exc:  # noqa: BLE001
        stats.error("record POST" if target is tablet else args[0], f"the device stopped: {exc!r}")


def seat(url: str, tables: int, rounds: int = 1, turns: int = 60) -> tuple[int, list]:
    """A tournament with round ``rounds`` seated (the rounds before it each played out, every table's game to
    ``turns`` turns, where time is called), made in-process before the server starts: (its id, for each table of
    that round (game id, PIN, the game as the engine folds it, still empty))."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET})
    with app.app_context():
        players = [f"Player {n:02d}" for n in range(1, 4 * tables + 1)]
        tid = tournaments.create_tournament("Load benchmark", "jma-placement", "jma-2006", players, DIRECTOR_PIN, [90])
        for number in range(1, rounds + 1):
            progress.seat_round(tid, number)
            if number < rounds:
                for k, t in enumerate(tournaments.round_overview(tid, number)):
                    play_table(t.game_id, random.Random(k), turns)
                db.session.remove()
        seated = [(t.game_id, t.pin, folds.load(t.game_id).game) for t in tournaments.round_overview(tid, rounds)]
        db.session.remove()
        db.engine.dispose()
    return tid, seated


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stopped(proc: subprocess.Popen) -> None:
    """The process and its workers stopped (it leads a session of its own)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@contextmanager
def throttle_store(tmp: Path):
    """A redis-server of its own (nothing kept on disk) for several workers' throttle counts: its URI, stopped on
    the way out; None, saying why, when there is no redis-server."""
    if shutil.which("redis-server") is None:
        print("  no redis-server installed (Debian's redis-server package): the workers count wrong PINs each in "
              "its own memory")
        yield None
        return
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(tmp)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stopped(proc)


@contextmanager
def server(url: str, log: Path, kind: str = "serve", workers: int = 4, store: str | None = None,
           worker_class: str = "gthread", hosts: int = 1):
    """The app on the database at ``url`` in a process of its own (`referee serve`, or gunicorn with ``workers``
    workers counting wrong PINs in ``store``), stopped on the way out: (its address, the sessions of its processes).
    ``hosts=2``: two of them (each its own instance folder, standing for two machines) behind Debian's haproxy with
    the repository's docs/haproxy.cfg, as the README's "Past one machine" runs them: the proxy's address."""
    if hosts == 1:
        with one_host(url, log, kind, workers, store, worker_class) as (base, group):
            yield base, {group}
        return
    with one_host(url, log, kind, workers, store, worker_class, "a") as (base_a, group_a), \
            one_host(url, log.with_suffix(".b.log"), kind, workers, store, worker_class, "b") as (base_b, group_b):
        port = free_port()
        env = {**os.environ, "REFEREE_PROXY_BIND": f"127.0.0.1:{port}",
               "REFEREE_HOST_A": base_a.removeprefix("http://"), "REFEREE_HOST_B": base_b.removeprefix("http://")}
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        proc = subprocess.Popen([haproxy, "-db", "-f", str(ROOT / "docs" / "haproxy.cfg")], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            base = f"http://127.0.0.1:{port}"
            answered(base, proc, log)
            yield base, {group_a, group_b, proc.pid}
        finally:
            stopped(proc)


def answered(base: str, proc: subprocess.Popen, log: Path) -> None:
    """Once ``base`` answers /ping (within 120 s; the process's log told if it exits first)."""
    for _ in range(1200):
        try:
            urllib.request.urlopen(base + "/ping", timeout=1).close()
            return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}") from None
            time.sleep(0.1)
    raise RuntimeError("the server did not answer within 120 s")


@contextmanager
def one_host(url: str, log: Path, kind: str, workers: int, store: str | None, worker_class: str,
             instance: str | None = None):
    """One host of the app (``instance``: a folder of its own beside ``log``)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": SECRET, "PYTHONPATH": str(ROOT),
           "REFEREE_SERVER_TIMING": "1"}  # each answer says its CPU time (referee/app/timing.py)
    if store:
        env["RATELIMIT_STORAGE_URI"] = store
    if instance:
        (log.parent / instance).mkdir(exist_ok=True)
        env.update({"REFEREE_INSTANCE": str(log.parent / instance), "REFEREE_PROXIES": "1"})
    bin_ = Path(sys.executable).parent
    if kind == "gunicorn":
        cmd = [str(bin_ / "gunicorn"), "--chdir", str(ROOT), "--no-control-socket", "-w", str(workers), "-b",
               f"127.0.0.1:{port}", "--timeout", "300", "-k", worker_class, *GTHREAD * (worker_class == "gthread"),
               "referee:create_app()"]
    else:
        cmd = [str(bin_ / "referee"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    with open(log, "w") as err:
        proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        answered(base, proc, log)
        yield base, proc.pid
    finally:
        stopped(proc)


def cpu_seconds(groups: set[int]) -> float:
    """CPU time (user and system) used so far by the processes of the sessions ``groups`` (the servers, their
    workers, the proxy), read from /proc; 0 where there is none."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) in groups:  # its session (each server leads one of its own, its workers in it)
            total += int(fields[11]) + int(fields[12])
    return total / tick


def unlocked(base: str, path: str, pin: str, keep_alive: bool, encodings: str) -> Client:
    """A new device, unlocked with the PIN (the unlock form's token read first)."""
    client = Client(base, keep_alive, encodings)
    status = client.open(path, {"csrf_token": token(client.open(path)[1]), "pin": pin})[0]
    if status != 302:
        raise RuntimeError(f"{path}: the PIN was refused (HTTP {status})")
    return client


def first_load(client: Client, path: str) -> tuple[str, tuple[int, int]]:
    """A device's first load of a screen, as a browser makes it: the page, then each static file it names (the
    stylesheet, the scripts, the icons, the manifest) once (static files are kept a year: ``referee/web/static_files.py``).  (the
    page, (bytes as sent, bytes not compressed))."""
    status, page, _ = client.open(path)
    wire, plain = client.wire, client.plain
    assets = re.findall(r'<(?:link|script)\b[^>]*?(?:href|src)="(/[^"]*)"', page)
    for asset in dict.fromkeys(a.replace("&amp;", "&") for a in assets):
        status, _, _ = client.open(asset)
        if status != 200:
            raise RuntimeError(f"{asset}: HTTP {status}")
        wire, plain = wire + client.wire, plain + client.plain
    return page, (wire, plain)


def run(label: str, url: str, args, log: Path, store: str | None = None) -> None:
    tid, seated = seat(url, args.tables, args.rounds, args.turns)
    stats = Stats()
    with server(url, log, args.server, args.workers, store, args.worker_class, args.hosts) as (base, group):
        tablets, seconds = [], []
        for game_id, pin, game in seated:  # unlocking (a PIN hash each) and the first screens are not timed
            client = unlocked(base, f"/games/{game_id}/unlock", pin, args.keep_alive, args.encodings)
            page, stats.first_load = first_load(client, f"/games/{game_id}")
            tablets.append((client, game_id, game, page))
            other = unlocked(base, f"/games/{game_id}/unlock", pin, args.keep_alive, args.encodings)
            seconds.append((other, game_id, other.open(f"/games/{game_id}")[1]))
        room = Client(base, args.keep_alive, args.encodings)
        room_page = room.open(f"/tournaments/{tid}/display")[1]
        director = unlocked(base, f"/tournaments/{tid}/unlock", DIRECTOR_PIN, args.keep_alive, args.encodings)
        director_page = director.open(f"/tournaments/{tid}")[1]
        start = time.monotonic() + 0.5
        stop = start + args.seconds
        jobs = [(tablet, stats, client, game_id, game, page, k, start + k * args.period / len(tablets), stop,
                 args.period, args.taps) for k, (client, game_id, game, page) in enumerate(tablets)]
        jobs += [(follower, stats, "table poll", other, f"/games/{game_id}", "tablelive", page,
                  start + (k + 0.5) / len(seconds), stop) for k, (other, game_id, page) in enumerate(seconds)]
        jobs.append((follower, stats, "room display poll", room, f"/tournaments/{tid}/display", "display-live",
                     room_page, start + 0.3, stop))
        jobs.append((follower, stats, "director poll", director, f"/tournaments/{tid}/live", "live-rounds",
                     director_page, start + 0.7, stop))
        for k in range(args.phones):  # the players' phones following the public standings
            phone = Client(base, args.keep_alive, args.encodings)
            jobs.append((follower, stats, "standings poll", phone, f"/tournaments/{tid}/standings", "standings-live",
                         phone.open(f"/tournaments/{tid}/standings")[1], start + k / max(1, args.phones), stop))
        load_before = os.getloadavg()
        server_before, client_before = cpu_seconds(group), time.process_time()
        threads = [threading.Thread(target=guarded, args=job, daemon=True) for job in jobs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        stats.cpu = (cpu_seconds(group) - server_before, time.process_time() - client_before)
    report(label, args, stats, args.seconds, log, (load_before, os.getloadavg()))


def report(label: str, args, stats: Stats, elapsed: float, log: Path, loads: tuple) -> None:
    errors = sum(stats.errors.values())
    served = (f"gunicorn -w {args.workers} -k {args.worker_class}"
              + (" " + " ".join(GTHREAD) if args.worker_class == "gthread" else "")
              + (", throttle counts in redis" if args.store else "") if args.server == "gunicorn"
              else "referee serve (granian), 8 threads")
    if args.hosts > 1:
        served = (f"{args.hosts} hosts ({served} each, its own instance folder) behind haproxy (docs/haproxy.cfg), "
                  f"throttle counts in redis")
    served += ", each device's connection kept open" if args.keep_alive else ", a new connection for each request"
    phones = f", {args.phones} phones following the standings" if args.phones else ""
    played = (f" in round {args.rounds} ({args.rounds - 1} played out before it, {args.turns} turns a game)"
              if args.rounds > 1 else "")
    print(f"{label}: {args.tables} tables{played}{phones}, one entry every {args.period:g} s each, {elapsed:.0f} s, "
          f"{served}")
    print(f"  load average (1, 5, 15 min) before {' '.join(f'{x:.2f}' for x in loads[0])}, "
          f"after {' '.join(f'{x:.2f}' for x in loads[1])}")
    print(f"  entries recorded: {stats.entries} ({stats.entries / elapsed:.2f} entries/s), errors: {errors}")
    served_requests = sum(len(v) for v in stats.times.values())
    server_cpu, client_cpu = stats.cpu
    per_request = 1000 * server_cpu / max(1, served_requests)
    print(f"  CPU over the {elapsed:.0f} s: the server {server_cpu:.1f} s ({per_request:.2f} "
          f"ms a request, {served_requests} requests), this client {client_cpu:.1f} s (of {os.cpu_count()} cores)")
    print(f"  the server's CPU a table a minute (its two tablets, and its share of the director's page and the room's "
          f"display): {1000 * server_cpu / args.tables / (elapsed / 60):.0f} ms, for {stats.entries / args.tables / (elapsed / 60):.1f} "
          f"entries a table a minute")
    print(f"  the machine: the reference loop (a fixed pure-Python loop, timed in this run) takes "
          f"{args.reference_ms:.0f} ms; the server's time a request is {per_request / args.reference_ms * 1000:.1f}"
          f" thousandths of it")
    print(f"  {'request':<18}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'errors':>8}"
          f"{'server ms 200':>15}{'204':>7}")
    worst = 0.0
    for kind in KINDS:
        times = stats.times[kind]
        if not times:
            print(f"  {kind:<18}{0:>7}{'-':>9}{'-':>9}{'-':>9}{stats.errors[kind]:>8}")
            continue
        p95 = percentile(times, 95)
        worst = max(worst, p95)
        polled = f"  ({stats.changed[kind]} answered 200, the rest 204)" if kind.endswith("poll") else ""
        print(f"  {kind:<18}{len(times):>7}{percentile(times, 50):>9.1f}{p95:>9.1f}{max(times):>9.1f}"
              f"{stats.errors[kind]:>8}{mean(stats.server[kind, False]):>15}{mean(stats.server[kind, True]):>7}{polled}")
    minutes = elapsed / 60
    table = [sum(stats.bytes[k][i] for k in ("record POST", "table GET", "table poll")) for i in (0, 1)]
    print(f"  bytes received (Accept-Encoding: {args.encodings}; as sent, and in brackets with the bodies not "
          f"compressed), a minute:")
    print(f"    a table's two tablets (the one recording and the one following): "
          f"{kb(table[0] / args.tables / minutes)} ({kb(table[1] / args.tables / minutes)})")
    for kind in ("room display poll", "director poll"):
        print(f"    the {kind.removesuffix(' poll')}: {kb(stats.bytes[kind][0] / minutes)} "
              f"({kb(stats.bytes[kind][1] / minutes)})")
    if args.phones:
        print(f"    a phone following the standings: {kb(stats.bytes['standings poll'][0] / args.phones / minutes)} "
              f"({kb(stats.bytes['standings poll'][1] / args.phones / minutes)})")
    print(f"    a tablet's first table screen with its stylesheet, scripts and manifest (once): "
          f"{kb(stats.first_load[0])} ({kb(stats.first_load[1])})")
    met = worst < GOAL_MS and errors == 0
    print(f"  goal p95 < {GOAL_MS:g} ms on every request and 0 errors: {'met' if met else 'NOT met'} "
          f"(worst p95 {worst:.1f} ms)")
    for note in stats.notes:
        print(f"  error: {note[:300]}")
    warnings = [line for line in log.read_text().splitlines() if "WARNING" in line or "Traceback" in line]
    if warnings:
        print(f"  server log: {len(warnings)} warnings or tracebacks, e.g. {warnings[0][:200]}")


@contextmanager
def postgres():
    """(url, None) for a PostgreSQL database, or (None, why not)."""
    if os.environ.get("TEST_DATABASE_URL"):
        yield os.environ["TEST_DATABASE_URL"], None
        return
    script = ROOT / "scripts" / "test-postgres"
    try:
        done = subprocess.run([str(script)], capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        yield None, str(exc)
        return
    if done.returncode != 0 or not done.stdout.strip():
        yield None, done.stderr.strip() or f"scripts/test-postgres exited {done.returncode}"
        return
    directory, url = done.stdout.strip().splitlines()[-1].split(" ", 1)
    try:
        yield url, None
    finally:
        subprocess.run([str(script), "stop", directory], capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--period", type=float, default=3.0, help="seconds between a table's entries")
    parser.add_argument("--db", choices=("both", "sqlite", "postgresql"), default="both")
    parser.add_argument("--server", choices=("serve", "gunicorn"), default="serve",
                        help="referee serve (granian), or gunicorn with --workers workers and a shared throttle store")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn's workers")
    parser.add_argument("--worker-class", choices=("gthread", "sync"), default="gthread",
                        help="gunicorn's kind of worker: gthread (threads, connections kept open: the README's "
                             "way) or sync (one request at a time, each connection closed after its answer)")
    parser.add_argument("--no-keep-alive", dest="keep_alive", action="store_false",
                        help="a new connection for every request (by default each device keeps its connection "
                             "open, as a browser does)")
    parser.add_argument("--taps", choices=("htmx", "plain"), default="plain",
                        help="how a tablet sends its taps: plain, as a form sends them (the screen's fallback, "
                             "before its standby is ready: 303, then the table screen loaded whole), or htmx, as "
                             "the screen sends them once its standby is ready (offline.js: answered with the live "
                             "region, one request a tap)")
    parser.add_argument("--phones", type=int, default=0,
                        help="players' phones following the public standings, each polling every second")
    parser.add_argument("--accept-encoding", dest="encodings", default=ACCEPT_ENCODING,
                        help="the encodings each device says it reads (identity: none compressed)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="the round in play: the rounds before it played out before the server starts (the "
                             "director's page lists every round's tables)")
    parser.add_argument("--turns", type=int, default=60,
                        help="the turns each game of a round played out before runs to (time called there)")
    parser.add_argument("--hosts", type=int, choices=(1, 2), default=1,
                        help="2: two hosts of the app (two `referee serve`, or two gunicorns, standing for two "
                             "machines) on one PostgreSQL database and one redis, behind haproxy: PostgreSQL only")
    args = parser.parse_args()
    if args.hosts > 1 and args.db != "postgresql":
        parser.error("--hosts 2 runs on one PostgreSQL database: add --db postgresql")
    args.reference_ms = reference_loop()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the servers are stopped on the way out
    shared = args.server == "gunicorn" or args.hosts > 1  # wrong PINs counted in one store
    with tempfile.TemporaryDirectory() as tmp, (throttle_store(Path(tmp)) if shared else nullcontext()) as store:
        args.store = store
        if args.db in ("both", "sqlite"):
            url = f"sqlite:///{Path(tmp) / 'load.sqlite'}"
            run("SQLite", url, args, Path(tmp) / "sqlite.log", store)
        if args.db in ("both", "postgresql"):
            with postgres() as (url, why_not):
                if url is None:
                    print(f"PostgreSQL: skipped, no server: {why_not}")
                else:
                    try:
                        run("PostgreSQL", url, args, Path(tmp) / "postgresql.log", store)
                    except OperationalError as exc:
                        print(f"PostgreSQL: skipped, cannot connect: {str(exc).splitlines()[0]}")


if __name__ == "__main__":
    main()
