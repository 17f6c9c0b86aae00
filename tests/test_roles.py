"""Roles on a shared venue network (issue 12): a table's referee opens only that table, the director every table
of the tournament, the organiser the creation of games and tournaments; unlocks expire and a tablet can be
locked; wrong PINs are throttled per device and per game."""
import json
import re
import time

import pytest
from werkzeug.security import generate_password_hash

from referee.web import access
from referee import cli, create_app
from referee.services import folds, games, progress, tournaments
from referee.store.models import GameRow, RoundRow, TableRow

DIRECTOR = "135791"


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 't.sqlite'}"})


def seated_tournament(app, players=8) -> tuple[int, list]:
    """A tournament created and its first round seated by the director's tablet; (id, the round's tables)."""
    director = app.test_client()
    r = director.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                            "players": "\n".join(f"P{i}" for i in range(players)), "pin": DIRECTOR,
                                            "round_minutes": "70"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    assert director.post(f"/tournaments/{tid}/rounds", data={"round": "1"}).status_code == 303
    with app.app_context():
        return tid, tournaments.round_overview(tid, 1)


def entries(app, game_id: int) -> int:
    with app.app_context():
        return folds.load(game_id).seq


def test_each_table_of_a_round_gets_its_own_six_digit_pin_and_the_game_keeps_only_its_hash(app):
    tid, tables = seated_tournament(app)
    pins = [t.pin for t in tables]
    assert all(re.fullmatch(r"\d{6}", p) for p in pins) and len(set(pins)) == len(pins)
    with app.app_context():
        for t in tables:
            assert games.check_pin(t.game_id, t.pin) and not games.check_pin(t.game_id, DIRECTOR)
            assert t.pin not in folds.load(t.game_id).row.pin_hash


def test_a_table_pin_kept_in_plain_on_its_row_is_hashed_cheaply_and_a_typed_pin_by_scrypt(app):
    """A tournament table's own PIN is on its table's row in plain (the director's page, the slips): its game's hash
    of it is one round of PBKDF2 (seating a round of 64 tables spent seconds on scrypt hashes of PINs printed beside
    them); a PIN someone typed (a game's, the director's) is kept by scrypt alone.  Each opens what it opened."""
    tid, tables = seated_tournament(app)
    created = app.test_client().post("/games", data={"players": "Aki\nBen", "seating": "fixed", "pin": "246802",
                                                     "ruleset": "jma-2006"})
    own = int(created.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        for t in tables:
            assert folds.load(t.game_id).row.pin_hash.startswith("pbkdf2:sha256:1$")
            assert games.check_pin(t.game_id, t.pin) and not games.check_pin(t.game_id, t.pin[::-1] + "0")
        assert folds.load(own).row.pin_hash.startswith("scrypt:") and games.check_pin(own, "246802")
        assert tournaments.director_pin_hash(tid).startswith("scrypt:")


def test_a_table_pin_opens_that_table_only_never_another_table_nor_the_directors_powers(app):
    tid, (first, second) = seated_tournament(app)
    referee = app.test_client()
    assert referee.post(f"/games/{first.game_id}/unlock", data={"pin": first.pin}).status_code == 302
    assert referee.get(f"/games/{first.game_id}").status_code == 200
    # another table: its PIN screen, and its own PIN is not this one
    assert referee.get(f"/games/{second.game_id}").headers["Location"] == f"/games/{second.game_id}/unlock"
    assert referee.post(f"/games/{second.game_id}/unlock", data={"pin": first.pin}).status_code == 403
    seat = {"type": "seat_roll", "player": second.players[0][0], "dice": [6, 5]}
    r = referee.post(f"/games/{second.game_id}/record", data={"seq": "0", "entry": json.dumps(seat)})
    assert r.status_code == 302 and r.headers["Location"] == f"/games/{second.game_id}/unlock"
    assert entries(app, second.game_id) == 0
    # the director's page, calling time, seating: the PIN screen, and nothing happens
    assert referee.get(f"/tournaments/{tid}").headers["Location"] == f"/tournaments/{tid}/unlock"
    assert referee.post(f"/tournaments/{tid}/rounds/1/time").headers["Location"] == f"/tournaments/{tid}/unlock"
    assert referee.post(f"/tournaments/{tid}/rounds", data={"round": "2"}).headers["Location"] == \
        f"/tournaments/{tid}/unlock"
    assert referee.get(f"/tournaments/{tid}/rounds/1/slips.pdf").status_code == 302
    with app.app_context():
        assert len(tournaments.get_tournament(tid).rounds) == 1
        assert not any(folds.load(t.game_id).game.state.time_called for t in tournaments.round_overview(tid, 1))


def test_the_directors_pin_opens_the_director_page_and_every_table_of_the_tournament(app):
    tid, tables = seated_tournament(app)
    director = app.test_client()
    assert director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR}).status_code == 302
    page = director.get(f"/tournaments/{tid}")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    for t in tables:
        assert director.get(f"/games/{t.game_id}").status_code == 200
        assert f'<strong class="tablepin">{t.pin}</strong>' in page.get_data(as_text=True)
    # typed at a table's PIN screen, the director's PIN opens that table (and only that one, on that device)
    other = app.test_client()
    assert other.post(f"/games/{tables[0].game_id}/unlock", data={"pin": DIRECTOR}).status_code == 302
    assert other.get(f"/games/{tables[0].game_id}").status_code == 200
    assert other.get(f"/games/{tables[1].game_id}").status_code == 302
    assert other.get(f"/tournaments/{tid}").status_code == 302


def test_the_table_slips_print_each_tables_players_and_pin_for_the_director_only(app):
    tid, tables = seated_tournament(app)
    director = app.test_client()
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    from referee import reports

    with app.test_request_context():
        html = reports.table_slips_html(tid, 1, "http://venue.local:5000/")
    for t in tables:
        assert f'<span class="pin">{t.pin}</span>' in html
        assert f"http://venue.local:5000/games/{t.game_id}" in html
        for name, _, _ in t.players:
            assert f"<li>{name}</li>" in html
    assert "Table 2" in html and "Time limit: 70 minutes" in html
    pdf = director.get(f"/tournaments/{tid}/rounds/1/slips.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF") and pdf.headers["Cache-Control"] == "no-store"
    assert director.get(f"/tournaments/{tid}/rounds/9/slips.pdf").status_code == 404
    assert app.test_client().get(f"/tournaments/{tid}/rounds/1/slips.pdf").status_code == 302


def test_the_display_and_the_standings_need_no_pin_and_offer_nothing_to_record(app):
    tid, tables = seated_tournament(app)
    spectator = app.test_client()
    display = spectator.get(f"/games/{tables[0].game_id}/display")
    assert display.status_code == 200
    page = display.get_data(as_text=True)
    assert 'method="post"' not in page and "csrf_token" not in page and tables[0].pin not in page
    standings = spectator.get(f"/tournaments/{tid}/standings").get_data(as_text=True)
    assert 'method="post"' not in standings and tables[0].pin not in standings


def test_an_unlock_ends_after_the_configured_time(app, monkeypatch):
    app.config["UNLOCK_MINUTES"] = 30
    tid, tables = seated_tournament(app)
    referee, director = app.test_client(), app.test_client()
    referee.post(f"/games/{tables[0].game_id}/unlock", data={"pin": tables[0].pin})
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    now = time.time()
    monkeypatch.setattr(access.time, "time", lambda: now + 29 * 60)
    assert referee.get(f"/games/{tables[0].game_id}").status_code == 200
    assert director.get(f"/tournaments/{tid}").status_code == 200
    monkeypatch.setattr(access.time, "time", lambda: now + 31 * 60)
    assert referee.get(f"/games/{tables[0].game_id}").headers["Location"] == f"/games/{tables[0].game_id}/unlock"
    assert director.get(f"/tournaments/{tid}").headers["Location"] == f"/tournaments/{tid}/unlock"
    assert director.get(f"/games/{tables[1].game_id}").status_code == 302
    poll = referee.get(f"/games/{tables[0].game_id}?v=x", headers={"HX-Request": "true"})
    assert poll.status_code == 403 and poll.headers["HX-Redirect"] == f"/games/{tables[0].game_id}/unlock"


def test_lock_this_tablet_ends_every_unlock_on_it(app):
    tid, tables = seated_tournament(app)
    tablet = app.test_client()
    tablet.post(f"/games/{tables[0].game_id}/unlock", data={"pin": tables[0].pin})
    page = tablet.get(f"/games/{tables[0].game_id}").get_data(as_text=True)
    assert 'action="/lock"' in page and 'title="Lock this tablet">Lock</button>' in page
    r = tablet.post("/lock", follow_redirects=True)
    assert "this tablet is locked" in r.get_data(as_text=True)
    assert tablet.get(f"/games/{tables[0].game_id}").status_code == 302
    assert 'action="/lock"' not in tablet.get("/").get_data(as_text=True)  # nothing left to lock


def test_pins_shorter_than_six_characters_are_refused_with_the_limit(app):
    client = app.test_client()
    r = client.post("/games", data={"players": "A\nB", "seating": "fixed", "ruleset": "jma-2006", "pin": "1234"})
    assert r.status_code == 400 and "Referee PIN: Field must be between 6 and 64 characters long" in r.get_data(
        as_text=True)
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "A\nB", "pin": "1234"}, follow_redirects=True)
    assert "Director PIN: Field must be between 6 and 64 characters long" in r.get_data(as_text=True)
    with app.app_context():
        assert games.list_games() == [] and tournaments.list_tournaments() == []


def test_seating_a_round_twice_from_a_stale_screen_seats_it_once(app):
    tid, tables = seated_tournament(app)
    director = app.test_client()
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    r = director.post(f"/tournaments/{tid}/rounds", data={"round": "1"}, follow_redirects=True)
    assert "round 1 is already seated (this screen was out of date): nothing was seated" in r.get_data(as_text=True)
    with app.app_context():
        assert len(tournaments.get_tournament(tid).rounds) == 1 and len(games.list_games()) == len(tables)


def test_a_round_is_seated_whole_or_not_at_all(app, monkeypatch):
    director = app.test_client()
    r = director.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                            "players": "\n".join(f"P{i}" for i in range(8)), "pin": DIRECTOR})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    made = []
    real = games.new_game

    def failing_second_table(*args, **kwargs):
        if made:
            raise OSError("the disk filled up at the second table")
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(progress, "new_game", failing_second_table)
    with app.app_context(), pytest.raises(OSError):
        progress.seat_round(tid, 1)
    with app.app_context():
        assert made and games.list_games() == []
        from referee.store.db import db
        assert db.session.query(RoundRow).count() == 0 and db.session.query(TableRow).count() == 0
        assert db.session.query(GameRow).count() == 0


# --- the organiser password ----------------------------------------------------


def test_with_an_organiser_password_only_a_signed_in_tablet_creates_games_and_tournaments(app):
    app.config["ORGANISER_PASSWORD_HASH"] = generate_password_hash("open sesame")
    visitor = app.test_client()
    home = visitor.get("/").get_data(as_text=True)
    assert 'action="/games"' not in home and "Organiser sign-in" in home
    assert 'action="/tournaments"' not in visitor.get("/tournaments").get_data(as_text=True)
    game = {"players": "A\nB", "seating": "fixed", "ruleset": "jma-2006", "pin": "123456"}
    r = visitor.post("/games", data=game)
    assert r.status_code == 303 and r.headers["Location"].startswith("/organiser")
    r = visitor.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                           "players": "A\nB", "pin": DIRECTOR})
    assert r.status_code == 303
    assert visitor.post("/organiser", data={"password": "sesame"}).status_code == 403
    with app.app_context():
        assert games.list_games() == [] and tournaments.list_tournaments() == []
    r = visitor.post("/organiser", data={"password": "open sesame", "next": "https://evil.example/x"})
    assert r.status_code == 303 and r.headers["Location"] == "/"  # never sent off-site
    assert visitor.post("/games", data=game).status_code == 302
    with app.app_context():
        assert len(games.list_games()) == 1


def test_referee_organiser_password_writes_a_hash_into_the_instance_folder(app, tmp_path, monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    assert cli.main(["organiser-password", "--stdin", "--instance", str(tmp_path)]) == 1
    assert not (tmp_path / "organiser_password").exists()
    monkeypatch.setattr("sys.stdin", io.StringIO("club night 2026\n"))
    assert cli.main(["organiser-password", "--stdin", "--instance", str(tmp_path)]) == 0
    stored = (tmp_path / "organiser_password").read_text()
    assert "club night" not in stored
    app.config["ORGANISER_PASSWORD_FILE"] = str(tmp_path / "organiser_password")
    client = app.test_client()
    assert client.post("/games", data={"players": "A\nB", "pin": "123456"}).status_code == 303
    assert client.post("/organiser", data={"password": "club night 2026"}).status_code == 303
    assert cli.main(["organiser-password", "--remove", "--instance", str(tmp_path)]) == 0
    assert not (tmp_path / "organiser_password").exists()


# --- guessing ---------------------------------------------------------------------


def test_a_device_that_guesses_wrong_five_times_is_refused_even_the_right_pin(app):
    _, (first, second) = seated_tournament(app)
    guesser = app.test_client()
    for n in range(5):
        assert guesser.post(f"/games/{first.game_id}/unlock", data={"pin": f"00000{n}"}).status_code == 403
    r = guesser.post(f"/games/{first.game_id}/unlock", data={"pin": first.pin})
    assert r.status_code == 429 and "too many wrong PINs" in r.get_data(as_text=True)
    assert "15 minutes" in r.get_data(as_text=True)
    # the same device at another table: refused too (the count is per device)
    assert guesser.post(f"/games/{second.game_id}/unlock", data={"pin": second.pin}).status_code == 429
    # another device at the first table is not locked out by this one alone
    assert app.test_client().post(f"/games/{first.game_id}/unlock", data={"pin": first.pin},
                                  environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 302


def test_a_table_guessed_at_from_many_devices_is_locked_and_the_director_still_opens_it(app):
    tid, (first, _) = seated_tournament(app)
    for n in range(10):
        r = app.test_client().post(f"/games/{first.game_id}/unlock", data={"pin": f"99999{n}"},
                                   environ_base={"REMOTE_ADDR": f"10.0.1.{n}"})
        assert r.status_code == 403
    r = app.test_client().post(f"/games/{first.game_id}/unlock", data={"pin": first.pin},
                               environ_base={"REMOTE_ADDR": "10.0.2.1"})
    assert r.status_code == 429
    director = app.test_client()
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR}, environ_base={"REMOTE_ADDR": "10.0.3.1"})
    assert director.get(f"/games/{first.game_id}").status_code == 200


def test_the_director_pin_and_the_organiser_password_are_throttled_alike(app):
    tid, _ = seated_tournament(app)
    app.config["ORGANISER_PASSWORD_HASH"] = generate_password_hash("open sesame")
    guesser = app.test_client()
    for n in range(5):
        assert guesser.post(f"/tournaments/{tid}/unlock", data={"pin": f"12345{n}"},
                            environ_base={"REMOTE_ADDR": "10.0.4.1"}).status_code == 403
    assert guesser.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR},
                        environ_base={"REMOTE_ADDR": "10.0.4.1"}).status_code == 429
    for n in range(5):
        assert guesser.post("/organiser", data={"password": f"guess {n}"},
                            environ_base={"REMOTE_ADDR": "10.0.5.1"}).status_code == 403
    assert guesser.post("/organiser", data={"password": "open sesame"},
                        environ_base={"REMOTE_ADDR": "10.0.5.1"}).status_code == 429


def test_a_crowd_guessing_the_directors_pin_is_stopped_at_the_cap_for_every_device(app):
    tid, _ = seated_tournament(app)
    for device in range(4):
        for n in range(5):
            assert app.test_client().post(f"/tournaments/{tid}/unlock", data={"pin": f"20000{n}"},
                                          environ_base={"REMOTE_ADDR": f"10.9.0.{device}"}).status_code == 403
    r = app.test_client().post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR},
                               environ_base={"REMOTE_ADDR": "10.9.1.1"})
    assert r.status_code == 429 and "20 wrong PINs for this tournament&#39;s director" in r.get_data(as_text=True)


def test_a_devices_wrong_pins_are_counted_together_across_every_pin_form(app):
    tid, (first, second) = seated_tournament(app)
    guesser = app.test_client()
    ip = {"REMOTE_ADDR": "10.8.0.1"}
    for path in (f"/games/{first.game_id}/unlock", f"/games/{second.game_id}/unlock", f"/tournaments/{tid}/unlock"):
        assert guesser.post(path, data={"pin": "000001"}, environ_base=ip).status_code == 403
    assert guesser.post("/organiser", data={"password": "x"}, environ_base=ip).status_code == 403
    assert guesser.post(f"/tournaments/{tid}/unlock", data={"pin": "000002"}, environ_base=ip).status_code == 403
    r = guesser.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR}, environ_base=ip)
    assert r.status_code == 429 and "from this device" in r.get_data(as_text=True)


def test_behind_a_proxy_devices_are_told_apart_by_the_address_the_proxy_saw(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "REFEREE_PROXIES": 1,
                      "REFEREE_TRUSTED_PROXY": "10.7.0.1",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'p.sqlite'}"})
    _, (first, _) = seated_tournament(app)
    proxy = {"REMOTE_ADDR": "10.7.0.1"}
    for n in range(5):
        app.test_client().post(f"/games/{first.game_id}/unlock", data={"pin": f"30000{n}"}, environ_base=proxy,
                               headers={"X-Forwarded-For": "192.168.1.66"})
    referee = app.test_client().post(f"/games/{first.game_id}/unlock", data={"pin": first.pin}, environ_base=proxy,
                                     headers={"X-Forwarded-For": "192.168.1.20"})
    assert referee.status_code == 302


def test_a_form_from_a_locked_tablet_says_nothing_was_recorded(app):
    _, (first, _) = seated_tournament(app)
    tablet = app.test_client()
    r = tablet.post(f"/games/{first.game_id}/record", data={"seq": "0", "entry": "{}"}, follow_redirects=True)
    assert "this tablet is locked (its unlock ended, or it was locked): nothing was recorded" in r.get_data(
        as_text=True)
    assert entries(app, first.game_id) == 0


def test_signing_in_as_organiser_after_a_refused_form_returns_to_the_screen_not_the_forms_address(app):
    app.config["ORGANISER_PASSWORD_HASH"] = generate_password_hash("open sesame")
    client = app.test_client()
    r = client.post("/games", data={"players": "A\nB", "pin": "123456"}, headers={"Referer": "http://localhost/"})
    assert r.headers["Location"] == "/organiser?next=/"
    assert client.post("/organiser", data={"password": "open sesame", "next": "/"}).headers["Location"] == "/"


def test_unknown_pages_and_tournaments_are_said_in_the_devices_language(app):
    client = app.test_client()
    page = client.get("/games/-1", headers={"Accept-Language": "ja"})
    assert page.status_code == 404 and "そのページはありません" in page.get_data(as_text=True)
    form_only = client.get("/games/import")
    assert form_only.status_code == 405 and "takes a form sent from a screen" in form_only.get_data(as_text=True)
    assert client.get("/tournaments/2147483647/unlock").status_code == 404
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "A\nA\nB\nC", "pin": DIRECTOR}, follow_redirects=True)
    assert "each player is listed once: A listed more than once" in r.get_data(as_text=True)


def test_the_slips_print_the_public_address_when_one_is_set(app):
    app.config["PUBLIC_URL"] = "http://referee.venue:5000/"
    tid, tables = seated_tournament(app)
    director = app.test_client()
    director.post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR})
    from referee import reports

    seen = {}
    real = reports.table_slips_pdf
    reports.table_slips_pdf = lambda tid_, n, base, size: seen.setdefault("base", base) and real(tid_, n, base, size)
    try:
        assert director.get(f"/tournaments/{tid}/rounds/1/slips.pdf").status_code == 200
    finally:
        reports.table_slips_pdf = real
    assert seen["base"] == "http://referee.venue:5000/"


def test_wrong_pins_at_the_tables_count_against_the_directors_cap_and_a_capped_director_pin_no_table_opens(app):
    """A table's PIN form takes the director's PIN too, so a crowd could guess it table by table: each wrong PIN there
    counts against the tournament's director's cap; once it is reached, the tables' forms stop trying the
    director's PIN (each table's own PIN still opens its table: no crowd locks every tablet out)."""
    tid, (first, second) = seated_tournament(app)
    for n in range(10):  # wrong PINs at table 1, from ten devices: table 1's own cap is reached
        assert app.test_client().post(f"/games/{first.game_id}/unlock", data={"pin": f"7000{n:02d}"},
                                      environ_base={"REMOTE_ADDR": f"10.30.0.{n}"}).status_code == 403
    for n in range(10):  # and at the director's form: 20 wrong director's PINs in all
        assert app.test_client().post(f"/tournaments/{tid}/unlock", data={"pin": f"7100{n:02d}"},
                                      environ_base={"REMOTE_ADDR": f"10.31.0.{n}"}).status_code == 403
    assert app.test_client().post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR},
                                  environ_base={"REMOTE_ADDR": "10.32.0.1"}).status_code == 429
    assert app.test_client().post(f"/games/{second.game_id}/unlock", data={"pin": DIRECTOR},
                                  environ_base={"REMOTE_ADDR": "10.32.0.2"}).status_code == 403
    referee = app.test_client()
    assert referee.post(f"/games/{second.game_id}/unlock", data={"pin": second.pin},
                        environ_base={"REMOTE_ADDR": "10.32.0.3"}).status_code == 302
    assert referee.get(f"/games/{second.game_id}", environ_base={"REMOTE_ADDR": "10.32.0.3"}).status_code == 200
