"""Live on every device, on the servers the README names: the app behind waitress (``referee serve``) and behind
gunicorn with two worker processes.  A second tablet's poll is answered 204 while nothing changed and with the new
live region once the first tablet records, whichever worker answers; the forms' tokens and the PIN unlock hold
across workers (one secret key, one database)."""
import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from referee import create_app

BIN = Path(sys.executable).parent
HX = {"HX-Request": "true"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Tablet:
    """A browser without a browser: its own cookies, the forms' tokens read from the pages."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
                                                  NoRedirect())

    def get(self, path: str, headers: dict | None = None) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path, headers=headers or {}))

    def post(self, path: str, data: dict) -> tuple[int, str]:
        body = urllib.parse.urlencode(data).encode()
        return self._open(urllib.request.Request(self.base + path, data=body, method="POST"))

    def _open(self, request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def token(page: str) -> str:
    field = re.search(r'<input[^>]*name="csrf_token"[^>]*>', page).group(0)
    return re.search(r'value="([^"]+)"', field).group(1)


def version(page: str) -> str:
    return re.search(r'data-version="([^"]+)"', page).group(1)


@pytest.fixture(params=["waitress", "gunicorn"])
def server(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'served.sqlite'}"
    create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "x"})  # the schema, before two workers start
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "served-secret"}
    if request.param == "waitress":
        cmd = [str(BIN / "referee"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    else:
        cmd = [str(BIN / "gunicorn"), "-w", "2", "-b", f"127.0.0.1:{port}", "referee:create_app()"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail(f"{request.param} did not start")
    yield base
    proc.terminate()
    proc.wait(timeout=10)


def test_a_second_tablet_follows_the_first_live_on_waitress_and_gunicorn(server):
    first = Tablet(server)
    status, home = first.get("/")
    status, _ = first.post("/games", {"csrf_token": token(home), "title": "Served", "ruleset": "jma-2006",
                                      "players": "Aki\nBen", "seating": "fixed", "pin": "246802"})
    assert status == 302
    second = Tablet(server)
    status, unlock = second.get("/games/1/unlock")
    assert second.post("/games/1/unlock", {"csrf_token": token(unlock), "pin": "246802"})[0] == 302
    status, page = second.get("/games/1")
    assert status == 200 and "waiting for Aki to roll" in page
    seen = version(page)
    for _ in range(4):  # whichever worker answers, nothing changed
        assert second.get(f"/games/1?v={seen}", HX)[0] == 204
    status, table = first.get("/games/1")
    status, _ = first.post("/games/1/record", {"csrf_token": token(table), "seq": "0", "dice": "1,2",
                                               "entry": json.dumps({"type": "roll", "player": "Aki"})})
    assert status == 303
    for _ in range(4):  # every worker sees the entry
        status, live = second.get(f"/games/1?v={seen}", HX)
        assert status == 200 and '<div id="tablelive"' in live and "<html" not in live
        assert "Buy Baltic Avenue for $60" in live
    assert second.get(f"/games/1?v={version(live)}", HX)[0] == 204
    spectator = Tablet(server)
    status, display = spectator.get("/games/1/display")
    assert status == 200 and spectator.get(f"/games/1/display?v={version(display)}", HX)[0] == 204
