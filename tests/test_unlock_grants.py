"""Unlocks kept on the server (trust on a hostile venue network): "Lock" ends an unlock for every copy of the
tablet's cookie, the director locks every tablet of a table or of the whole tournament, an expired unlock opens
nothing, the director's page lists the devices unlocked at each table, the database keeps no live token, and the
session cookie is Secure whenever the request came over https.  On SQLite and on PostgreSQL."""
import hashlib
import html
import json
import time

import pytest
import sqlalchemy

from referee.web import access
from referee import create_app
from referee.store.db import db
from referee.services import folds, grants
from conftest import new_game
from test_roles import DIRECTOR, seated_tournament as seated

IPAD = "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 " \
       "Mobile/15E148 Safari/604.1"
ANDROID = "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 " \
          "Safari/537.36"



def recorded_to(answer, game_id: int) -> bool:
    """A record's answer sends the tablet on to the table's screen, made for it (``?said=``: its one-time name)."""
    return answer.status_code == 303 and answer.headers["Location"].startswith(f"/games/{game_id}?said=")

def tablet(app, agent: str | None = None):
    client = app.test_client()
    if agent:
        client.environ_base["HTTP_USER_AGENT"] = agent
    return client


def copy_of(app, original):
    """Another client sending the session cookie ``original`` holds now, as one who sniffed it would."""
    thief = app.test_client()
    thief.set_cookie("session", original.get_cookie("session").value)
    return thief


def entries(app, game_id: int) -> int:
    with app.app_context():
        return folds.load(game_id).seq


def roll(client, game_id: int, seq: int, player="Aki"):
    return client.post(f"/games/{game_id}/record", data={"seq": seq, "entry": json.dumps({"type": "roll",
                                                                                          "player": player}),
                                                         "dice": "1,2"})


def seat_roll(client, view, seq=0):
    entry = {"type": "seat_roll", "player": view.players[0][0], "dice": [6, 5]}
    return client.post(f"/games/{view.game_id}/record", data={"seq": seq, "entry": json.dumps(entry)})


def test_a_cookie_copied_before_lock_opens_nothing_after_it(app, client):
    game_id = new_game(client)  # the referee's tablet: unlocked by making the game
    thief = copy_of(app, client)
    assert thief.get(f"/games/{game_id}").status_code == 200  # the copy opened the table while the unlock lived
    assert client.post("/lock").status_code == 303
    r = thief.get(f"/games/{game_id}")
    assert r.status_code == 302 and r.headers["Location"] == f"/games/{game_id}/unlock"
    r = roll(thief, game_id, 0)
    assert r.status_code == 302 and r.headers["Location"] == f"/games/{game_id}/unlock"
    assert entries(app, game_id) == 0
    page = thief.get(f"/games/{game_id}/unlock").get_data(as_text=True)
    assert "this tablet is locked (its unlock ended, or it was locked): nothing was recorded" in page
    poll = thief.get(f"/games/{game_id}?v=x", headers={"HX-Request": "true"})
    assert poll.status_code == 403 and poll.headers["HX-Redirect"] == f"/games/{game_id}/unlock"
    # and the tablet itself, locked, records nothing either until its PIN is given again
    assert roll(client, game_id, 0).status_code == 302 and entries(app, game_id) == 0
    assert client.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    assert recorded_to(roll(client, game_id, 0), game_id) and entries(app, game_id) == 1
    assert thief.get(f"/games/{game_id}").status_code == 302  # the new unlock is not the copied one


def test_a_tablet_whose_unlock_ended_is_told_so_on_its_pin_screen(app, client):
    game_id = new_game(client)
    thief = copy_of(app, client)
    client.post("/lock")
    r = thief.get(f"/games/{game_id}", follow_redirects=True)
    assert "this tablet is locked (its unlock ended, or it was locked): give the PIN to record again" in \
        r.get_data(as_text=True)
    # said once: the ended grant is dropped from the cookie
    assert "this tablet is locked" not in thief.get(f"/games/{game_id}", follow_redirects=True).get_data(as_text=True)
    # a tablet that never held an unlock here is only asked for the PIN
    assert "this tablet is locked" not in app.test_client().get(f"/games/{game_id}", follow_redirects=True).get_data(
        as_text=True)


def test_the_directors_lock_of_a_table_ends_every_devices_unlock_for_it(app):
    tid, (first, second) = seated(app)
    one, two, elsewhere = tablet(app, IPAD), tablet(app, ANDROID), tablet(app)
    for device, view in ((one, first), (two, first), (elsewhere, second)):
        assert device.post(f"/games/{view.game_id}/unlock", data={"pin": view.pin}).status_code == 302
    copied = copy_of(app, one)
    director = app.test_client()
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    r = director.post(f"/tournaments/{tid}/tables/{first.game_id}/lock", follow_redirects=True)
    assert "table 1: 2 tablets locked; each needs the table's PIN again" in html.unescape(r.get_data(as_text=True))
    for device in (one, two, copied):
        assert device.get(f"/games/{first.game_id}").headers["Location"] == f"/games/{first.game_id}/unlock"
        assert seat_roll(device, first).headers["Location"] == f"/games/{first.game_id}/unlock"
    assert entries(app, first.game_id) == 0
    # the other table's tablet and the director's own are untouched
    assert elsewhere.get(f"/games/{second.game_id}").status_code == 200
    assert recorded_to(seat_roll(director, first), first.game_id)
    assert entries(app, first.game_id) == 1
    # the table's PIN opens it again, on a new unlock
    assert one.post(f"/games/{first.game_id}/unlock", data={"pin": first.pin}).status_code == 302
    assert one.get(f"/games/{first.game_id}").status_code == 200


def test_the_director_locks_every_tablet_of_the_tournament_but_the_device_that_asked(app):
    tid, (first, second) = seated(app)
    referees = [tablet(app), tablet(app)]
    for device, view in zip(referees, (first, second)):
        device.post(f"/games/{view.game_id}/unlock", data={"pin": view.pin})
    director, other_director = app.test_client(), app.test_client()  # (and the tablet that made the tournament)
    for device in (director, other_director):
        device.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    page = director.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "Confirm: lock 4 devices" in page
    r = director.post(f"/tournaments/{tid}/lock", follow_redirects=True)
    assert "4 tablets locked; each needs its PIN again (this device stays open)" in r.get_data(as_text=True)
    for device, view in zip(referees, (first, second)):
        assert device.get(f"/games/{view.game_id}").status_code == 302
    assert other_director.get(f"/tournaments/{tid}").headers["Location"] == f"/tournaments/{tid}/unlock"
    assert other_director.get(f"/games/{first.game_id}").status_code == 302
    assert director.get(f"/tournaments/{tid}").status_code == 200
    assert director.get(f"/games/{first.game_id}").status_code == 200
    assert "Confirm: lock" not in director.get(f"/tournaments/{tid}").get_data(as_text=True)  # nothing left to lock


def test_a_table_of_another_tournament_is_not_locked_from_this_directors_page(app):
    tid, (first, _) = seated(app)
    other_tid, (theirs, _) = seated(app)
    referee = tablet(app)
    referee.post(f"/games/{theirs.game_id}/unlock", data={"pin": theirs.pin})
    director = app.test_client()
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    r = director.post(f"/tournaments/{tid}/tables/{theirs.game_id}/lock", follow_redirects=True)
    assert f"game {theirs.game_id} is no table of this tournament: no tablet was locked" in r.get_data(as_text=True)
    assert referee.get(f"/games/{theirs.game_id}").status_code == 200
    # and a director who is not this tournament's locks nothing of it
    stranger = app.test_client()
    r = stranger.post(f"/tournaments/{other_tid}/tables/{theirs.game_id}/lock")
    assert r.headers["Location"] == f"/tournaments/{other_tid}/unlock"
    assert referee.get(f"/games/{theirs.game_id}").status_code == 200


def test_an_expired_unlock_opens_nothing_even_from_a_copy_of_the_cookie(app, client, monkeypatch):
    app.config["UNLOCK_MINUTES"] = 30
    game_id = new_game(client)
    thief = copy_of(app, client)
    now = time.time()
    monkeypatch.setattr(access.time, "time", lambda: now + 29 * 60)
    assert thief.get(f"/games/{game_id}").status_code == 200
    monkeypatch.setattr(access.time, "time", lambda: now + 31 * 60)
    for device in (client, thief):
        assert device.get(f"/games/{game_id}").headers["Location"] == f"/games/{game_id}/unlock"
        assert roll(device, game_id, 0).headers["Location"] == f"/games/{game_id}/unlock"
    assert entries(app, game_id) == 0


def test_an_expired_unlock_is_no_longer_listed_on_the_directors_page(app, monkeypatch):
    app.config["UNLOCK_MINUTES"] = 30
    tid, (first, _) = seated(app)
    director = app.test_client()
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    now = time.time()
    monkeypatch.setattr(access.time, "time", lambda: now + 10 * 60)
    tablet(app, IPAD).post(f"/games/{first.game_id}/unlock", data={"pin": first.pin})
    page = director.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "1 tablet unlocked:" in page and "Safari · iPad" in page
    monkeypatch.setattr(access.time, "time", lambda: now + 29 * 60)
    live = director.get(f"/tournaments/{tid}/live?v=x", headers={"HX-Request": "true"})
    version = live.get_data(as_text=True).split('data-version="', 1)[1].split('"', 1)[0]
    monkeypatch.setattr(access.time, "time", lambda: now + 41 * 60)  # the tablet's unlock ended; the director's
    # own (given at 0, so ended too) is given again
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    live = director.get(f"/tournaments/{tid}/live?v={version}", headers={"HX-Request": "true"})
    assert live.status_code == 200  # the page is sent again: its list changed
    card = live.get_data(as_text=True).split(f'id="devices-{first.game_id}"', 1)[1].split("</div>", 1)[0]
    assert "Safari · iPad" not in card and "no tablet unlocked" in card


def test_the_directors_page_lists_the_devices_unlocked_at_each_table(app):
    tid, (first, second) = seated(app)
    tablet(app, IPAD).post(f"/games/{first.game_id}/unlock", data={"pin": first.pin})
    tablet(app, ANDROID).post(f"/games/{first.game_id}/unlock", data={"pin": first.pin})
    tablet(app, "curl/8.5.0").post(f"/games/{second.game_id}/unlock", data={"pin": second.pin})
    director = tablet(app, ANDROID)
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    before = director.get(f"/tournaments/{tid}/live?v=x", headers={"HX-Request": "true"}).get_data(as_text=True)
    version = before.split('data-version="', 1)[1].split('"', 1)[0]
    assert director.get(f"/tournaments/{tid}/live?v={version}", headers={"HX-Request": "true"}).status_code == 204
    page = director.get(f"/tournaments/{tid}").get_data(as_text=True)
    card = page.split(f'id="devices-{first.game_id}"', 1)[1].split("</div>\n      </div>", 1)[0]
    assert "2 tablets unlocked:" in card and "Safari · iPad: unlocked at " in card and "Chrome · Android" in card
    assert "Lock every tablet of table 1" in card
    card = page.split(f'id="devices-{second.game_id}"', 1)[1]
    assert "1 tablet unlocked:" in card.split("</ul>", 1)[0] and "curl: unlocked at" in card
    devices = html.unescape(page.split('id="devices"', 1)[1])
    assert "3 tablets unlocked at the tables" in devices
    assert "2 devices unlocked with the director's PIN:" in devices  # (the tablet that made the tournament)
    assert devices.count("(this device)") == 1 and "Chrome · Android: unlocked at" in devices
    # a tablet unlocking sends the live page again (its version changes)
    tablet(app).post(f"/games/{second.game_id}/unlock", data={"pin": second.pin})
    assert director.get(f"/tournaments/{tid}/live?v={version}", headers={"HX-Request": "true"}).status_code == 200


def test_the_database_keeps_only_a_hash_of_each_unlocks_token(app, client):
    new_game(client)
    serializer = app.session_interface.get_signing_serializer(app)
    tokens = serializer.loads(client.get_cookie("session").value)["grants"]
    assert len(tokens) == 1 and len(tokens[0]) >= 43  # secrets.token_urlsafe(32): 256 bits
    with app.app_context():
        rows = db.session.execute(sqlalchemy.text("SELECT * FROM grants")).mappings().all()
    assert [r["token_hash"] for r in rows] == [hashlib.sha256(tokens[0].encode()).hexdigest()]
    assert not any(tokens[0] in str(value) for r in rows for value in r.values())
    assert "unlocks" not in serializer.loads(client.get_cookie("session").value)  # nothing but the token


def test_an_unlock_that_lived_only_in_the_cookie_opens_nothing(app, client):
    """A cookie of the time unlocks lived in the cookie itself (``{"unlocks": {"game:1": expiry}}``), signed with
    the same key, is no grant: it opens nothing."""
    game_id = new_game(client)
    client.post("/lock")
    forged = app.test_client()
    with forged.session_transaction() as session:
        session["unlocks"] = {f"game:{game_id}": int(time.time()) + 3600}
        session["grants"] = ["not-a-token-the-server-gave", 7, None]
    assert forged.get(f"/games/{game_id}").status_code == 302
    assert roll(forged, game_id, 0).status_code == 302 and entries(app, game_id) == 0


def test_deleting_a_tournament_deletes_its_unlocks(database, tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": database, "RECORDS_DIR": str(tmp_path / "records")})
    tid, (first, _) = seated(app)
    tablet(app).post(f"/games/{first.game_id}/unlock", data={"pin": first.pin})
    home = app.test_client()
    new_game(home)
    director = app.test_client()
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    with app.app_context():
        assert db.session.execute(sqlalchemy.text("SELECT count(*) FROM grants")).scalar() == 4
    assert director.post(f"/tournaments/{tid}/delete").status_code == 303
    with app.app_context():  # the home game's unlock is all that is left
        assert db.session.execute(sqlalchemy.text("SELECT role FROM grants")).scalars().all() == ["game"]


def test_the_session_cookie_is_secure_whenever_the_request_came_over_https(app, client):
    game_id = new_game(client)
    plain = client.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    assert "Secure" not in plain.headers["Set-Cookie"]
    https = app.test_client()
    r = https.post(f"/games/{game_id}/unlock", data={"pin": "123456"}, base_url="https://localhost")
    assert "Secure" in r.headers["Set-Cookie"] and "HttpOnly" in r.headers["Set-Cookie"]
    lang = https.get("/lang/ja", base_url="https://localhost")
    assert "lang=ja" in lang.headers["Set-Cookie"] and "Secure" in lang.headers["Set-Cookie"]
    assert "Secure" not in client.get("/lang/ja").headers["Set-Cookie"]


def test_behind_a_trusted_proxy_the_cookie_is_secure_when_the_proxy_says_https(database):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "REFEREE_PROXIES": 1,
                      "SQLALCHEMY_DATABASE_URI": database})
    client = app.test_client()
    game_id = new_game(client)
    proxied = {"X-Forwarded-For": "10.0.0.7", "X-Forwarded-Proto": "https"}
    r = client.post(f"/games/{game_id}/unlock", data={"pin": "123456"}, headers=proxied)
    assert "Secure" in r.headers["Set-Cookie"]
    r = client.post(f"/games/{game_id}/unlock", data={"pin": "123456"}, headers={"X-Forwarded-Proto": "http"})
    assert "Secure" not in r.headers["Set-Cookie"]


@pytest.mark.parametrize("agent, label", [
    (IPAD, "Safari · iPad"),
    (ANDROID, "Chrome · Android"),
    ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0 "
     "Mobile/15E148 Safari/604.1", "Chrome · iPhone"),
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 "
     "Safari/537.36 Edg/124.0.0.0", "Edge · Windows"),
    ("Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "Firefox · Linux"),
    ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 "
     "Safari/605.1.15", "Safari · Mac"),
    ("curl/8.5.0", "curl"),
    ("<script>alert(1)</script>", ""),
    ("", ""),
    ("Mozilla/5.0", ""),
])
def test_a_device_is_labelled_by_its_browser_and_system_from_a_fixed_list(agent, label):
    assert grants.device_label(agent) == label


def test_a_new_directors_pin_set_on_the_server_locks_the_devices_the_old_one_unlocked(app):
    """The recovery of a guessed or forgotten director's PIN (referee director-pin) ends the old PIN's unlocks too:
    a device that guessed it opens nothing after."""
    from referee.services import tournaments
    tid, (first, _) = seated(app)
    guesser = app.test_client()
    guesser.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    assert guesser.get(f"/tournaments/{tid}").status_code == 200
    with app.app_context():
        tournaments.set_director_pin(tid, "864209")
    assert guesser.get(f"/tournaments/{tid}").headers["Location"] == f"/tournaments/{tid}/unlock"
    assert guesser.get(f"/games/{first.game_id}").status_code == 302
    director = app.test_client()
    director.post(f"/tournaments/{tid}/unlock", data={"pin": "864209"})
    assert director.get(f"/tournaments/{tid}").status_code == 200


def test_a_grant_ended_in_a_unit_of_work_that_already_read_the_devices_is_not_listed_after(app):
    """The director's page reads the live grants once per unit of work (for its version, then for its list): a
    grant ended by an UPDATE in that same unit of work, before its commit, is read again, not listed; and what is read
    before that commit is never kept under the count it names (a rollback would leave the same count naming
    another set of devices once another grant ends)."""
    from referee.cache import DEVICES
    from referee.services import tournaments
    tid, (first, _) = seated(app)
    with app.app_context():
        token = grants.open_grant(grants.GAME, first.game_id, "Safari · iPad", 60, [])
        before = tournaments.tournament_version(tid)
        assert [len(v) for v in grants.devices_of_tournament(tid, [], before.unlocked).tables.values()] == [1]
        grants._revoke(grants.GrantRow.token_hash == grants.token_hash(token), grants.now())  # not committed
        after = tournaments.tournament_version(tid)
        assert after.token != before.token and after.unlocked[0] == before.unlocked[0] - 1
        kept = len(DEVICES)
        assert grants.devices_of_tournament(tid, [], after.unlocked).tables == {}
        assert len(DEVICES) == kept  # read, not kept
        db.session.rollback()
        assert tournaments.tournament_version(tid).unlocked == before.unlocked
        assert [len(v) for v in grants.devices_of_tournament(tid, [], before.unlocked).tables.values()] == [1]
