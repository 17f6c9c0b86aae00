"""A database that cannot write or cannot be reached (its disk full, locked past its timeout, a server gone): every
request it fails is answered 503 with Retry-After, in the device's language, saying that nothing was recorded, why
and what to do; a part of a screen (htmx's poll, a check) gets the notice its screen shows above itself and keeps the
screen; nothing is recorded, and the next tap once the database is back records at once.  Pinned with a commit made
to fail (everywhere) and, where this machine lets a test mount one, on a real small file system filled up."""
import errno
import html
import json
import logging
import os
import re
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path

import psycopg.errors
import pytest
import sqlalchemy
from sqlalchemy import event

from referee import create_app
from referee.store.db import db
from referee.services import entry_keys, stamps, storage

from conftest import new_game

ROLL = {"type": "roll", "player": "Aki"}
WORDS = {  # what each language says: nothing was recorded; the disk is full; the database cannot be reached
    "en": ("Nothing was recorded.", "The database could not write: the disk that holds it is full.",
           "The app cannot reach its database."),
    "ja": ("何も記録されていません。", "データベースに書き込めませんでした：データベースのあるディスクがいっぱいです。",
           "アプリがデータベースに接続できません。"),
}
GONE = "connection to server at \"db.venue\" (10.0.0.5), port 5432 failed: Connection refused"


def text_of(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def entries(client, game_id: int) -> int:
    return len(client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()) - 1


def tap(client, game_id: int, key: str, **headers):
    """The table screen's roll form, as the browser sends it (its screen's key with it)."""
    return client.post(f"/games/{game_id}/record", headers=headers,
                       data={"seq": 0, "entry": json.dumps(ROLL), "dice": "1,2", "entry_key": key})


@contextmanager
def _refused(app, when: str, refuse):
    """The app's database engines' event ``when`` answered by ``refuse`` (which raises) while the block runs: its
    own, and on a database server the one its live polls read through (``stamps.poll_engine``)."""
    with app.app_context():
        engines = {db.engine, stamps.poll_engine()}
    for engine in engines:
        event.listen(engine, when, refuse)
    try:
        yield
    finally:
        for engine in engines:
            event.remove(engine, when, refuse)


def commits_fail(app, cause: Exception):
    """Every commit of the app's database refused as the driver refuses it (the transaction is left uncommitted)."""
    def refuse(conn):
        raise sqlalchemy.exc.OperationalError("COMMIT", {}, cause)

    return _refused(app, "commit", refuse)


def database_gone(app):
    """Every statement refused as it is when the PostgreSQL server cannot be reached."""
    def refuse(conn, cursor, statement, parameters, context, executemany):
        raise sqlalchemy.exc.OperationalError(statement, parameters, Exception(GONE))

    return _refused(app, "before_cursor_execute", refuse)


def says_nothing_of_the_machine(response, *private: str) -> None:
    """No path, SQL, driver's message or trace on a page a device reads."""
    page = response.get_data(as_text=True)
    for word in ("Traceback", "COMMIT", "INSERT", "SELECT", "sqlite", "OperationalError", "5432", *private):
        assert word not in page, word


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_tap_whose_commit_fails_for_a_full_disk_is_a_503_page_saying_so_and_the_next_tap_records(
        app, client, caplog, tmp_path, lang):
    game_id = new_game(client)
    if lang != "en":
        client.get(f"/lang/{lang}")
    key = entry_keys.new_key()
    with caplog.at_level(logging.ERROR), commits_fail(app, sqlite3.OperationalError("database or disk is full")):
        r = tap(client, game_id, key)
    assert r.status_code == 503 and 0 < int(r.headers["Retry-After"]) <= 30
    nothing, full, _ = WORDS[lang]
    words = text_of(r)
    assert nothing in words and full in words
    assert f'href="/games/{game_id}"' in r.get_data(as_text=True)  # the way back to the table screen
    says_nothing_of_the_machine(r, str(tmp_path), "disk is full")
    assert "database or disk is full" in caplog.text and "Traceback" in caplog.text  # the stack trace is logged
    assert entries(client, game_id) == 0  # nothing was recorded
    r = tap(client, game_id, key)  # the same form, tapped again once the database writes: recorded at once
    assert r.status_code == 303 and entries(client, game_id) == 1
    recorded = json.loads(client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()[1])
    assert (recorded["type"], recorded["player"], recorded["dice"]) == ("roll", "Aki", [1, 2])


def test_the_english_page_says_what_to_do_and_offers_no_lock_button(app, client):
    game_id = new_game(client)
    with commits_fail(app, sqlite3.OperationalError("database is locked")):
        r = tap(client, game_id, entry_keys.new_key())
    words = text_of(r)
    assert r.status_code == 503
    assert "The database stayed busy with other devices' requests for too long." in words
    assert "What was recorded before is unchanged. Tap again in a moment; if it happens again, tell the organiser " \
           "or the director." in words
    assert "Back to the screen" in words
    assert 'action="/lock"' not in r.get_data(as_text=True)  # whether this tablet is unlocked is kept in the database


def test_an_htmx_request_the_database_fails_gets_a_notice_for_its_screen_and_keeps_the_screen(app, client):
    game_id = new_game(client)
    region = {"HX-Request": "true"}
    with database_gone(app):
        poll = client.get(f"/games/{game_id}?v=before", headers=region)
        check = client.post(f"/games/{game_id}/check", headers=region,
                            data={"seq": 0, "entry": json.dumps(ROLL), "dice": "1,2"})
    for r in (poll, check):
        assert r.status_code == 503 and int(r.headers["Retry-After"]) > 0
        assert (r.headers["HX-Retarget"], r.headers["HX-Reswap"], r.headers["HX-Reselect"]) == \
            ("#notice", "outerHTML", "#notice")
        page = r.get_data(as_text=True)
        assert page.lstrip().startswith('<div id="notice"') and "tablelive" not in page and "<html" not in page
        assert "Nothing was recorded. The app cannot reach its database." in text_of(r)
        says_nothing_of_the_machine(r, "db.venue", "Connection refused")
    assert "This screen keeps what it shows and brings itself up to date when the database answers again." in \
        text_of(poll)
    assert "Tap again in a moment" in text_of(check)
    back = client.get(f"/games/{game_id}?v=before", headers=region)  # the database is back: the next poll
    assert back.status_code == 200 and 'id="tablelive"' in back.get_data(as_text=True)


def test_the_directors_poll_survives_a_database_out_of_reach_and_recovers_when_it_is_back(app, client):
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "\n".join(f"P{i}" for i in range(8)), "pin": "135791",
                                          "round_minutes": "70"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    live = f"/tournaments/{tid}/live?v=before"
    client.get("/lang/ja")
    with database_gone(app):
        polls = [client.get(live, headers={"HX-Request": "true"}) for _ in range(3)]
        page = client.get(f"/tournaments/{tid}")  # the whole page asked for: a page saying so, and a way to ask again
    assert [p.status_code for p in polls] == [503] * 3
    assert all(p.headers["HX-Retarget"] == "#notice" and WORDS["ja"][2] in text_of(p) for p in polls)
    assert page.status_code == 503 and page.headers["Retry-After"]
    nothing, _, gone = WORDS["ja"]
    assert nothing in text_of(page) and gone in text_of(page)
    assert f'href="/tournaments/{tid}"' in page.get_data(as_text=True) and "もう一度試す" in text_of(page)
    says_nothing_of_the_machine(page, "db.venue")
    back = client.get(live, headers={"HX-Request": "true"})
    assert back.status_code == 200 and 'id="live-rounds"' in back.get_data(as_text=True)


def test_the_apps_log_still_speaks_after_the_app_migrates_its_database(tmp_path):
    """A database's failure is logged with its stack trace: the app's logger, made before the migrations ran (a
    warning said at start-up makes it), is not turned off by their logging set-up."""
    from referee import app as app_module

    app = create_app({"TESTING": True, "SECRET_KEY": "t",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'a.sqlite'}"})
    assert not app.logger.disabled
    with app.app_context():
        app_module._upgrade_or_create()  # the migrations run (at their head: nothing to do but their set-up)
        db.engine.dispose()
    assert not app.logger.disabled


@pytest.mark.parametrize("cause, kind", [
    (sqlite3.OperationalError("database or disk is full"), "full"),
    (OSError(errno.ENOSPC, "No space left on device"), "full"),
    (psycopg.errors.DiskFull('could not extend file "base/16384/2619": No space left on device'), "full"),
    (sqlite3.OperationalError("database is locked"), "busy"),
    (psycopg.errors.LockNotAvailable("canceling statement due to lock timeout"), "busy"),
    (sqlite3.OperationalError("unable to open database file"), "unreachable"),
    (sqlite3.OperationalError("disk I/O error"), "unreachable"),
    (psycopg.errors.AdminShutdown("terminating connection due to administrator command"), "unreachable"),
    (psycopg.OperationalError(GONE), "unreachable"),
])
def test_each_way_a_database_fails_is_told_in_one_word(cause, kind):
    error = sqlalchemy.exc.OperationalError("INSERT INTO entries ...", {}, cause)
    assert storage.is_store_failure(error) and storage.failure_kind(error) == kind


def test_a_statement_the_database_refuses_is_no_failure_of_the_store():
    assert not storage.is_store_failure(sqlalchemy.exc.IntegrityError("INSERT", {}, Exception("UNIQUE constraint")))
    assert storage.is_store_failure(sqlalchemy.exc.TimeoutError("QueuePool limit of size 5 overflow 10 reached"))
    assert storage.failure_kind(sqlalchemy.exc.TimeoutError("QueuePool limit")) == "busy"


# --- a real small file system, filled --------------------------------------------------------------------------


@contextmanager
def small_disk(folder: Path, size: str):
    """A file system of ``size`` (tmpfs) mounted at ``folder``: mounting needs root (CI runs as root)."""
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root (CI runs as root); the commit made to fail pins the "
                    "disk-full case here")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(folder)],
                          capture_output=True, text=True)
    if done.returncode:
        pytest.skip(f"this machine refuses to mount a small file system ({done.stderr.strip()}); the commit made to "
                    "fail pins the disk-full case here")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def filled(disk: Path) -> Path:
    """A file taking every byte left on ``disk``."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for chunk in (1 << 16, 1 << 12, 1):
            try:
                while os.write(fd, b"\0" * chunk) == chunk:
                    pass
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
    finally:
        os.close(fd)
    return filler


def test_on_a_full_file_system_a_tap_is_a_503_that_records_nothing_and_the_tap_after_room_is_made_records(tmp_path):
    with small_disk(tmp_path / "disk", "4m") as disk:
        app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{disk / 'referee.sqlite'}"})
        try:
            client = app.test_client()
            game_id = new_game(client)
            key = entry_keys.new_key()
            filler = filled(disk)
            taps = [tap(client, game_id, key) for _ in range(3)]  # tapped again and again while the disk is full
            assert [r.status_code for r in taps] == [503] * 3
            assert all(WORDS["en"][1] in text_of(r) and r.headers["Retry-After"] for r in taps)
            says_nothing_of_the_machine(taps[0], str(disk))
            assert entries(client, game_id) == 0
            filler.unlink()  # room made
            r = tap(client, game_id, key)
            assert r.status_code == 303 and entries(client, game_id) == 1
        finally:
            with app.app_context():
                db.engine.dispose()
