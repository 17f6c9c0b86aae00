"""A live poll of a page that has not changed, by a device that may see it, is answered 204 before Flask makes a
request of it (referee/web/polls.py: the server's time for the commonest answer of all, every device asking every
second); every other poll goes to the views and is answered as before: the page that changed, the PIN screen of a
locked tablet, a cookie rewritten, the 503 notice of a database that does not answer, https, a Host refused."""
import re
import time

import flask
import pytest
from sqlalchemy import text

from conftest import seated_first_table
from test_database_failures import database_gone
from test_live_table import HX, live_version
from test_table_words import record, roll

from referee import create_app
from referee.services import stamps
from referee.store.db import db
from referee.web.access import tokens_in

DIRECTOR_PIN = "135791"


@pytest.fixture
def requests_made(app):
    """The requests Flask made (its request_started signal), by path."""
    made: list[str] = []

    def started(sender, **extra):
        made.append(flask.request.path)

    flask.request_started.connect(started, app)
    yield made
    flask.request_started.disconnect(started, app)


def unlocked(app, path: str, pin: str):
    device = app.test_client()
    assert device.post(path, data={"pin": pin}).status_code == 302
    return device


def version_of(client, path: str, region: str) -> str:
    """The version a page's live region was drawn at: its data-version, else the ``v`` its poll sends."""
    tag = re.search(rf'<div id="{region}"[^>]*>', client.get(path).get_data(as_text=True)).group(0)
    return (re.search(r'data-version="([^"]+)"', tag) or re.search(r'[?&](?:amp;)?v=([^"&]+)', tag)).group(1)


def test_an_unchanged_poll_of_each_live_page_is_answered_204_without_a_request_of_flask(app, requests_made):
    tid, game_id, first, pin = seated_first_table(app, DIRECTOR_PIN)
    tablet = unlocked(app, f"/games/{game_id}/unlock", pin)
    director = unlocked(app, f"/tournaments/{tid}/unlock", DIRECTOR_PIN)
    anyone = app.test_client()
    polls = [(tablet, f"/games/{game_id}", version_of(tablet, f"/games/{game_id}", "tablelive"), True),
             (anyone, f"/games/{game_id}/display", version_of(anyone, f"/games/{game_id}/display", "displaylive"),
              False),
             (director, f"/tournaments/{tid}/live", version_of(director, f"/tournaments/{tid}", "live-rounds"), True),
             (anyone, f"/tournaments/{tid}/display", version_of(anyone, f"/tournaments/{tid}/display", "display-live"),
              False),
             (anyone, f"/tournaments/{tid}/standings",
              version_of(anyone, f"/tournaments/{tid}/standings", "standings-live"), False)]
    requests_made.clear()
    for device, path, version, cookie_read in polls:
        answer = device.get(f"{path}?v={version}", headers=HX)
        assert answer.status_code == 204 and answer.data == b"", path
        assert ("Cookie" in answer.headers.get("Vary", "")) is cookie_read, path
        assert "Set-Cookie" not in answer.headers and "Content-Security-Policy" not in answer.headers
    assert requests_made == []  # every one answered before Flask's request
    record(tablet, game_id, roll(first, 1, 3))  # the table changed: each of its pages is drawn again by its view
    requests_made.clear()
    changed = tablet.get(f"{polls[0][1]}?v={polls[0][2]}", headers=HX)
    assert changed.status_code == 200 and '<div id="tablelive"' in changed.get_data(as_text=True)
    assert anyone.get(f"{polls[1][1]}?v={polls[1][2]}", headers=HX).status_code == 200
    assert requests_made == [f"/games/{game_id}", f"/games/{game_id}/display"]


def test_a_changed_poll_reads_the_tables_version_once_before_flask_and_the_view_compares_that(app, requests_made,
                                                                                             monkeypatch):
    tid, game_id, first, pin = seated_first_table(app, DIRECTOR_PIN)
    tablet = unlocked(app, f"/games/{game_id}/unlock", pin)
    version = live_version(tablet.get(f"/games/{game_id}").get_data(as_text=True))
    record(tablet, game_id, roll(first, 1, 3))
    read_by_the_view = []
    reading = stamps.poll_version
    monkeypatch.setattr(stamps, "poll_version", lambda *args: read_by_the_view.append(args) or reading(*args))
    changed = tablet.get(f"/games/{game_id}?v={version}", headers=HX)
    assert changed.status_code == 200 and requests_made[-1] == f"/games/{game_id}"
    assert '<div id="tablelive"' in changed.get_data(as_text=True) and read_by_the_view == []


def test_a_poll_only_the_views_may_answer_goes_to_them_and_is_answered_as_before(app, requests_made):
    tid, game_id, first, pin = seated_first_table(app, DIRECTOR_PIN)
    tablet = unlocked(app, f"/games/{game_id}/unlock", pin)
    version = live_version(tablet.get(f"/games/{game_id}").get_data(as_text=True))
    # a stranger's device, and one whose cookie was not signed by the app: the PIN screen
    stranger = app.test_client()
    stranger.set_cookie("session", tablet.get_cookie("session").value[:-4] + "AAAA")
    for device in (app.test_client(), stranger):
        r = device.get(f"/games/{game_id}?v={version}", headers=HX)
        assert r.status_code == 403 and r.headers["HX-Redirect"] == f"/games/{game_id}/unlock"
    # the table asked at its start (at=0): not a poll
    assert tablet.get(f"/games/{game_id}?v={version}&at=0", headers=HX).status_code == 200
    # the director's device at a table: its view answers (the director may referee every table of the tournament)
    director = unlocked(app, f"/tournaments/{tid}/unlock", DIRECTOR_PIN)
    requests_made.clear()
    assert director.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204
    assert requests_made == [f"/games/{game_id}"]
    # a cookie that names an ended grant beside a live one: the view answers, and drops the ended one from it
    other = unlocked(app, f"/games/{game_id}/unlock", pin)
    locked = unlocked(app, f"/games/{game_id}/unlock", pin)
    locked_tokens = locked.get_cookie("session")
    assert locked.post("/lock").status_code in (302, 303)
    serializer = app.session_interface.get_signing_serializer(app)
    both = serializer.loads(other.get_cookie("session").value)
    both["grants"] = tokens_in(serializer.loads(locked_tokens.value)) + both["grants"]
    other.set_cookie("session", serializer.dumps(both))
    requests_made.clear()
    r = other.get(f"/games/{game_id}?v={version}", headers=HX)
    assert r.status_code == 204 and requests_made == [f"/games/{game_id}"]
    assert "session=" in r.headers.get("Set-Cookie", "")  # the ended grant let go
    requests_made.clear()
    assert other.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204 and requests_made == []
    # the tablet locked by the director: told so on its PIN screen, as before
    assert director.post(f"/tournaments/{tid}/tables/{game_id}/lock").status_code in (302, 303)
    r = tablet.get(f"/games/{game_id}?v={version}", headers=HX)
    assert r.status_code == 403 and r.headers["HX-Redirect"] == f"/games/{game_id}/unlock"
    assert "this tablet is locked" in tablet.get(f"/games/{game_id}/unlock").get_data(as_text=True)


def test_a_poll_when_the_database_does_not_answer_gets_the_views_notice(app, requests_made):
    tid, game_id, first, pin = seated_first_table(app, DIRECTOR_PIN)
    tablet = unlocked(app, f"/games/{game_id}/unlock", pin)
    version = live_version(tablet.get(f"/games/{game_id}").get_data(as_text=True))
    requests_made.clear()
    with database_gone(app):
        r = tablet.get(f"/games/{game_id}?v={version}", headers=HX)
    assert r.status_code == 503 and r.headers.get("HX-Retarget") == "#notice" and "Retry-After" in r.headers
    assert "nothing was recorded" in r.get_data(as_text=True).lower() and requests_made == [f"/games/{game_id}"]
    assert tablet.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204  # back, as it was


def test_a_poll_of_an_app_served_over_https_only_is_answered_as_the_views_answer_it(database):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": database, "SESSION_COOKIE_SECURE": True})
    tid, game_id, first, pin = seated_first_table(app, DIRECTOR_PIN)
    anyone = app.test_client()
    page = anyone.get(f"/games/{game_id}/display", base_url="https://localhost")
    version = live_version(page.get_data(as_text=True))
    unchanged = anyone.get(f"/games/{game_id}/display?v={version}", headers=HX, base_url="https://localhost")
    # every https answer of the app says to come back over https only (Flask-Talisman's HSTS), a poll's 204 too
    assert unchanged.status_code == 204
    assert unchanged.headers["Strict-Transport-Security"] == page.headers["Strict-Transport-Security"]
    clear = anyone.get(f"/games/{game_id}/display?v={version}", headers=HX)
    assert clear.status_code in (301, 302) and clear.headers["Location"].startswith("https://")


def test_a_poll_naming_a_host_the_app_does_not_serve_is_refused_as_the_views_refuse_it(database):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": database, "TRUSTED_HOSTS": ["referee.local"]})
    tid, game_id, first, pin = seated_first_table(app, DIRECTOR_PIN)
    anyone = app.test_client()
    version = version_of(anyone, f"http://referee.local/tournaments/{tid}/display", "display-live")
    assert anyone.get(f"http://referee.local/tournaments/{tid}/display?v={version}", headers=HX).status_code == 204
    assert anyone.get(f"http://elsewhere.example/tournaments/{tid}/display?v={version}",
                      headers=HX).status_code == 400
    assert anyone.get(f"/tournaments/{tid}/display?v={version}", headers={**HX, "Host": "x" * 300}).status_code == 400


def test_a_poll_by_a_device_with_a_session_but_no_unlock_or_of_a_game_that_is_not_there_goes_to_the_views(
        app, requests_made):
    """The table's version and the device's grants are read in one statement: a device whose session names no
    grant is sent to the PIN screen, and a poll of a game that does not exist goes to the views, which answer it as
    they did (its PIN screen: the device holds no grant for it)."""
    tid, game_id, first, pin = seated_first_table(app, DIRECTOR_PIN)
    tablet = unlocked(app, f"/games/{game_id}/unlock", pin)
    version = live_version(tablet.get(f"/games/{game_id}").get_data(as_text=True))
    visitor = app.test_client()  # a session signed by the app that names no grant
    visitor.set_cookie("session", app.session_interface.get_signing_serializer(app).dumps({"seen": 1}))
    r = visitor.get(f"/games/{game_id}?v={version}", headers=HX)
    assert r.status_code == 403 and r.headers["HX-Redirect"] == f"/games/{game_id}/unlock"
    requests_made.clear()
    r = tablet.get(f"/games/999999?v={version}", headers=HX)
    assert r.status_code == 403 and requests_made == ["/games/999999"]
    requests_made.clear()
    assert tablet.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204 and requests_made == []


def test_a_tablet_unlocked_at_several_tables_keeps_its_grants_in_the_order_given_and_each_poll_is_answered_early(
        app, requests_made):
    """A device's live grants are read oldest first (as they were given) by the views and by the unchanged poll alike,
    the order its cookie keeps them in (a new one last, the oldest let go past the most a cookie holds): a tablet
    unlocked at one table, then at more (a floor referee's), has each table's unchanged poll answered before Flask's
    request at once, its cookie never rewritten for the order alone."""
    games = []
    for n in range(4):
        tid, game_id, first, pin = seated_first_table(app, DIRECTOR_PIN)
        games.append((game_id, pin))
    tablet = app.test_client()
    for game_id, pin in games:
        assert tablet.post(f"/games/{game_id}/unlock", data={"pin": pin}).status_code == 302
    serializer = app.session_interface.get_signing_serializer(app)
    given = tokens_in(serializer.loads(tablet.get_cookie("session").value))
    assert len(given) == len(games)
    versions = {game_id: live_version(tablet.get(f"/games/{game_id}").get_data(as_text=True)) for game_id, _ in games}
    assert tokens_in(serializer.loads(tablet.get_cookie("session").value)) == given  # not rewritten
    requests_made.clear()
    for game_id, _ in games:
        assert tablet.get(f"/games/{game_id}?v={versions[game_id]}", headers=HX).status_code == 204
    assert requests_made == []


def test_a_poll_whose_pooled_connection_the_database_server_closed_is_answered_and_the_next_is_answered_early(
        app, requests_made, database):
    """On a database server the views' connections are pinged before use, and a poll answered before Flask's request
    reads through an engine of its own that is not (one statement: the ping was a second round trip on two in three of
    a room's requests).  When the server has closed the poll's pooled connection (restarted, timed out), the poll is
    answered by the views, as it would have been, and the dead connection let go: the next poll is answered early."""
    if not database.startswith("postgresql"):
        pytest.skip("SQLite has no server to close a connection (and no ping: one engine)")
    tid, game_id, first, pin = seated_first_table(app, DIRECTOR_PIN)
    tablet = unlocked(app, f"/games/{game_id}/unlock", pin)
    version = live_version(tablet.get(f"/games/{game_id}").get_data(as_text=True))
    requests_made.clear()
    assert tablet.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204 and requests_made == []
    with app.app_context():
        polls_engine = stamps.poll_engine()
        assert polls_engine is not db.engine and not polls_engine.pool._pre_ping  # noqa: SLF001 - the pool's setting
        with polls_engine.connect() as polled:  # the poll's pooled connection (the one the next poll takes)
            pid = polled.execute(text("SELECT pg_backend_pid()")).scalar()
        with db.engine.connect() as other:  # closed by the server
            other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            for _ in range(100):  # (it ends a moment later)
                if not other.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"),
                                     {"pid": pid}).scalar():
                    break
                time.sleep(0.05)
    requests_made.clear()
    assert tablet.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204  # by the views
    assert requests_made == [f"/games/{game_id}"]
    requests_made.clear()
    assert tablet.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204 and requests_made == []
