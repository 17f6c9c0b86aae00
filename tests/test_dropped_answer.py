"""A tap whose answer never came back: on a real server (`referee serve`), the tablet's connection
is closed right after the form is sent, before any answer is read; the same form is then sent again, as a browser
or the referee does.  One entry is recorded, and the retry is told it was recorded, once."""
import json
import re
import socket
import time
import urllib.parse

import pytest

from server_support import Tablet, referee_serve, token

ROLL = {"type": "roll", "player": "Aki"}


@pytest.fixture
def served(tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite'}", "SECRET_KEY": "served-secret"}
    started = referee_serve(tmp_path, env)
    try:
        started.wait_for_port()
        yield started.base
    finally:
        started.stop()


def entries(tablet: Tablet) -> list[dict]:
    status, text = tablet.get("/games/1/record.jsonl")
    assert status == 200
    return [json.loads(line) for line in text.splitlines()[1:]]


def send_and_hang_up(base: str, tablet: Tablet, path: str, form: dict) -> None:
    """Send the form as the tablet would, then close the connection at once, without reading a byte of the answer
    (a plain close: a reset could take the request's own bytes with it before the server read them, where a
    dropped network leaves them sent)."""
    body = urllib.parse.urlencode(form).encode()
    cookies = "; ".join(f"{k}={v}" for k, v in tablet.cookies.items())
    port = urllib.parse.urlsplit(base).port
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookies}\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
        raw.sendall(head + body)
        raw.shutdown(socket.SHUT_RDWR)


def test_a_tap_whose_answer_was_dropped_is_recorded_once_and_its_retry_is_told_so(served):
    tablet = Tablet(served)
    _, home = tablet.get("/")
    assert tablet.post("/games", {"csrf_token": token(home), "title": "Dropped", "ruleset": "jma-2006",
                                  "players": "Aki\nBen", "seating": "fixed", "pin": "246802"})[0] == 302
    status, table = tablet.get("/games/1")
    assert status == 200
    key = re.search(r'name="entry_key" value="([^"]+)"', table).group(1)
    form = {"csrf_token": token(table), "seq": "0", "entry_key": key, "dice": "1,3", "entry": json.dumps(ROLL)}
    send_and_hang_up(served, tablet, "/games/1/record", form)
    deadline = time.monotonic() + 60  # the server goes on with the request it was sent: its entry is kept
    while not entries(tablet) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [e["type"] for e in entries(tablet)] == ["roll"]
    status, _ = tablet.post("/games/1/record", form)  # the same form, sent again
    assert status == 303
    status, page = tablet.get("/games/1")
    assert ("Recorded (once): this tap was sent again after its answer was lost. It was recorded when it first "
            "came, as below, and nothing more now.") in page
    assert "nothing was recorded" not in page and "1 · Aki rolls 1+3" in page
    hx = tablet.request("POST", "/games/1/record", form, {"HX-Request": "true"})  # and again, as htmx sends it
    assert hx.status == 200 and "Recorded (once)" in hx.text and '<div id="tablelive"' in hx.text
    assert entries(tablet) == [{"seq": 1, **ROLL, "dice": [1, 3]}]
