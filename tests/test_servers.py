"""Live on every device, on the servers the README names: the app behind ``referee serve`` (granian) and behind
gunicorn with two worker processes.  A second tablet's poll is answered 204 while nothing changed and with the new
live region once the first tablet records, whichever worker answers; the forms' tokens and the PIN unlock hold
across workers (one secret key, one database)."""
import http.client
import json
import os
import re
import signal
import time

import pytest

from server_support import Tablet, gunicorn, referee_serve, token

from referee.app.serving import RequestOnly

HX = {"HX-Request": "true"}


def version(page: str) -> str:
    return re.search(r'data-version="([^"]+)"', page).group(1)


@pytest.fixture(params=["referee serve", "gunicorn"])
def server(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'served.sqlite'}"
    env = {"DATABASE_URL": url, "SECRET_KEY": "served-secret"}
    started = referee_serve(tmp_path, env) if request.param == "referee serve" else gunicorn(tmp_path, env, workers=2)
    try:
        started.wait_for_port()
        yield started.base
    finally:
        started.stop()


def test_a_second_tablet_follows_the_first_live_on_referee_serve_and_gunicorn(server):
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


def test_a_national_finals_devices_each_keep_a_connection_open_and_every_one_is_answered(server):
    """64 tables with two devices each, the director's page and the room's display: some 130 devices, each keeping
    its connection open between its polls as a browser does.  Every one is answered, the last as the first (a
    server that answers only so many connections at once, as waitress's 100 did, left the 101st device waiting)."""
    port = int(server.rsplit(":", 1)[1])
    devices = [http.client.HTTPConnection("127.0.0.1", port, timeout=20) for _ in range(140)]
    try:
        for _ in range(2):  # a poll each, then another on the connection kept open
            for device in devices:
                device.request("GET", "/ping")
                answer = device.getresponse()
                assert answer.status == 200 and answer.read() == b'{"ok":true}\n'
                assert not answer.will_close
    finally:
        for device in devices:
            device.close()


def test_no_request_reads_the_servers_own_environment(tmp_path):
    """``referee serve`` (granian) starts each request's environ from a copy of the process's environment: none of
    it reaches the app.  A variable named like a header (HTTP_ACCEPT_LANGUAGE) is not read as one the device sent,
    and a header the device does send is its own."""
    started = referee_serve(tmp_path, {"DATABASE_URL": f"sqlite:///{tmp_path / 'env.sqlite'}", "SECRET_KEY": "kept-out",
                                       "HTTP_ACCEPT_LANGUAGE": "ja"})
    try:
        started.wait_for_port()
        device = Tablet(started.base)
        assert '<html lang="en">' in device.get("/")[1]  # the machine's variable read as no header
        assert '<html lang="ja">' in device.get("/", headers={"Accept-Language": "ja"})[1]  # one sent, read
    finally:
        started.stop()


def test_a_request_keeps_its_own_variables_and_loses_the_copied_ones():
    """What granian hands the app (the process's environment, the request's variables set over it) is the request's
    alone once :class:`RequestOnly` has read it: the copied variables go, the request's stay."""
    seen = {}

    def app(environ, start_response):
        seen.update(environ)
        return [b""]

    process = {"SECRET_KEY": "s3cret", "DATABASE_URL": "postgresql://u:pw@db/x", "PATH": "/usr/bin"}
    request = {"REQUEST_METHOD": "GET", "PATH_INFO": "/", "HTTP_ACCEPT_LANGUAGE": "de", "wsgi.url_scheme": "http"}
    RequestOnly(app, process)(process | request, lambda *a: None)
    assert seen == request


def test_a_server_worker_that_dies_is_started_again_and_the_record_is_whole(tmp_path):
    """``referee serve``'s worker killed under the tables (out of memory, a stray kill): it is started again, the
    next request is answered and the game recorded before is there, entry for entry."""
    started = referee_serve(tmp_path, {"DATABASE_URL": f"sqlite:///{tmp_path / 'respawn.sqlite'}",
                                       "SECRET_KEY": "respawn"})
    try:
        started.wait_for_port()
        referee_tablet = Tablet(started.base)
        status, home = referee_tablet.get("/")
        assert referee_tablet.post("/games", {"csrf_token": token(home), "title": "Kept", "ruleset": "jma-2006",
                                              "players": "Aki\nBen", "seating": "fixed", "pin": "246802"})[0] == 302
        status, table = referee_tablet.get("/games/1")
        assert referee_tablet.post("/games/1/record", {"csrf_token": token(table), "seq": "0", "dice": "1,2",
                                                       "entry": json.dumps({"type": "roll", "player": "Aki"})})[0] == 303
        workers = [int(pid) for pid in
                   open(f"/proc/{started.proc.pid}/task/{started.proc.pid}/children").read().split()]
        assert len(workers) == 1
        os.kill(workers[0], signal.SIGKILL)
        deadline = time.monotonic() + 30
        while True:  # answered again once the new worker has started
            try:
                status, page = Tablet(started.base).get("/games/1/record.jsonl")
                break
            except OSError:
                assert time.monotonic() < deadline, "no worker answered within 30 s"
                time.sleep(0.2)
        assert status == 200 and [json.loads(line)["type"] for line in page.splitlines()[1:]] == ["roll"]
        renewed = open(f"/proc/{started.proc.pid}/task/{started.proc.pid}/children").read().split()
        assert len(renewed) == 1 and int(renewed[0]) != workers[0]
    finally:
        started.stop()
