"""Guessing on a hostile venue network: a crowd of devices guesses the director's PIN or the organiser password a
limited number of times (from every device together), and whoever runs the server can always set a new one, counted
afresh; wrong PINs counted in a store several worker processes share hold across app instances (and a store that
cannot be reached still counts, per process); forwarded headers are believed from the trusted proxy only."""
import html
import io

import fakeredis
import pytest
import redis

from referee.web import access, proxies
from referee import cli, create_app
from referee.services import tournaments
from server_support import free_port

DIRECTOR = "135791"
GAME_PIN = "246802"


def make_app(url: str, **config):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": url, **config})


@pytest.fixture
def url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'limits.sqlite'}"


def new_tournament(app) -> int:
    r = app.test_client().post("/tournaments", data={
        "name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006", "pin": DIRECTOR, "round_minutes": "70",
        "players": "\n".join(f"P{i}" for i in range(8))}, environ_base={"REMOTE_ADDR": "10.200.0.1"})
    return int(r.headers["Location"].rsplit("/", 1)[1])


def new_game(app) -> int:
    r = app.test_client().post("/games", data={"title": "T", "ruleset": "jma-2006", "players": "Aki\nBen",
                                               "seating": "fixed", "pin": GAME_PIN})
    return int(r.headers["Location"].rsplit("/", 1)[1])


def crowd(app, path: str, field: str, guesses: int = 200, addresses: int = 40) -> list:
    """``guesses`` wrong secrets sent from ``addresses`` devices in turn (each device never past its own limit of 5);
    each answer's (status, text)."""
    answers = []
    for n in range(guesses):
        r = app.test_client().post(path, data={field: f"wrong guess {n:03d}"},
                                   environ_base={"REMOTE_ADDR": f"10.66.{n % addresses}.{n // addresses}"})
        answers.append((r.status_code, html.unescape(r.get_data(as_text=True))))
    return answers


@pytest.mark.long  # two hundred unlocks: scripts/test runs it, --fast leaves it out
def test_two_hundred_wrong_director_pins_from_forty_addresses_are_refused_after_the_twentieth(url):
    app = make_app(url)
    tid = new_tournament(app)
    answers = crowd(app, f"/tournaments/{tid}/unlock", "pin")
    statuses = [status for status, _ in answers]
    assert statuses[:20] == [403] * 20 and statuses[20:] == [429] * 180  # 20 checked, 180 refused unchecked
    assert ("20 wrong PINs for this tournament's director within 15 minutes, from every device together"
            in answers[-1][1]) and "referee director-pin" in answers[-1][1]
    # the right PIN too, from a device that never guessed: the cap is the tournament's
    assert app.test_client().post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR},
                                  environ_base={"REMOTE_ADDR": "10.67.0.1"}).status_code == 429
    # a new PIN set on the server is counted afresh: the director is in at once, the old PIN opens nothing
    with app.app_context():
        tournaments.set_director_pin(tid, "97531086")
    director = app.test_client()
    assert director.post(f"/tournaments/{tid}/unlock", data={"pin": "97531086"},
                         environ_base={"REMOTE_ADDR": "10.67.0.2"}).status_code == 302
    assert director.get(f"/tournaments/{tid}").status_code == 200
    assert app.test_client().post(f"/tournaments/{tid}/unlock", data={"pin": DIRECTOR},
                                  environ_base={"REMOTE_ADDR": "10.67.0.3"}).status_code == 403


def test_the_cap_on_one_tournaments_director_pin_leaves_another_tournament_open(url):
    app = make_app(url)
    first, second = new_tournament(app), new_tournament(app)
    crowd(app, f"/tournaments/{first}/unlock", "pin", guesses=25, addresses=5)
    assert app.test_client().post(f"/tournaments/{second}/unlock", data={"pin": DIRECTOR},
                                  environ_base={"REMOTE_ADDR": "10.68.0.1"}).status_code == 302


def test_two_hundred_wrong_organiser_passwords_from_forty_addresses_are_refused_and_a_new_one_opens(url, tmp_path,
                                                                                                    monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("club night 2026\n"))
    assert cli.main(["organiser-password", "--stdin", "--instance", str(tmp_path)]) == 0
    app = make_app(url, ORGANISER_PASSWORD_FILE=str(tmp_path / "organiser_password"))
    answers = crowd(app, "/organiser", "password")
    statuses = [status for status, _ in answers]
    assert statuses[:20] == [403] * 20 and statuses[20:] == [429] * 180
    assert "20 wrong organiser passwords within 15 minutes, from every device together" in answers[-1][1]
    assert app.test_client().post("/organiser", data={"password": "club night 2026"},
                                  environ_base={"REMOTE_ADDR": "10.69.0.1"}).status_code == 429
    monkeypatch.setattr("sys.stdin", io.StringIO("harbour lights 7\n"))
    assert cli.main(["organiser-password", "--stdin", "--instance", str(tmp_path)]) == 0
    organiser = app.test_client()
    assert organiser.post("/organiser", data={"password": "harbour lights 7"},
                          environ_base={"REMOTE_ADDR": "10.69.0.2"}).status_code == 303
    assert organiser.post("/games", data={"title": "T", "ruleset": "jma-2006", "players": "Aki\nBen",
                                          "seating": "fixed", "pin": GAME_PIN},
                          environ_base={"REMOTE_ADDR": "10.69.0.2"}).status_code == 302


def test_the_director_pin_command_sets_a_new_pin_and_refuses_a_short_one_or_no_tournament(url, monkeypatch, capsys):
    app = make_app(url)
    tid = new_tournament(app)
    monkeypatch.setattr("sys.stdin", io.StringIO("123\n"))
    assert cli.main(["director-pin", "--tournament", str(tid), "--stdin", "--database", url]) == 1
    assert "at least 6 characters; nothing was changed" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("555111\n"))
    assert cli.main(["director-pin", "--tournament", "99", "--stdin", "--database", url]) == 1
    assert "no tournament 99; nothing was changed" in capsys.readouterr().err
    with app.app_context():
        assert tournaments.check_director_pin(tid, DIRECTOR)
    monkeypatch.setattr("sys.stdin", io.StringIO("555111\n"))
    assert cli.main(["director-pin", "--tournament", str(tid), "--stdin", "--database", url]) == 0
    assert "has a new director's PIN" in capsys.readouterr().out
    with app.app_context():
        assert tournaments.check_director_pin(tid, "555111") and not tournaments.check_director_pin(tid, DIRECTOR)


# --- where the counts are kept ----------------------------------------------------


def guesses_at(app, game_id: int, n: int, address: str = "10.70.0.1") -> list:
    return [app.test_client().post(f"/games/{game_id}/unlock", data={"pin": f"00000{i}"},
                                   environ_base={"REMOTE_ADDR": address}).status_code for i in range(n)]


@pytest.fixture
def own_store_options(monkeypatch):
    """The limiter is one per process and keeps the storage options of every app it was given (a process serves
    one app): this test's options (a connection to its own store) are dropped after it, and so is the verdict on an
    unreachable store (the limiter would go on counting in its fallback memory for the next tests of this process,
    and drop those counts when it finds its store, memory, alive: counts lost in the middle of another test)."""
    monkeypatch.setattr(access.limiter, "_storage_options", {})
    monkeypatch.setattr(access.limiter, "_storage_dead", False)


def test_wrong_pins_counted_in_a_shared_store_hold_across_app_instances_and_in_memory_they_do_not(
        url, own_store_options):
    shared = fakeredis.FakeServer()  # as a redis server is: the counts live outside every app process
    store = {"RATELIMIT_STORAGE_URI": "redis://shared-store:6379/0", "RATELIMIT_STORAGE_OPTIONS": {
        "connection_pool": redis.ConnectionPool(connection_class=fakeredis.FakeRedisConnection, server=shared)}}
    first = make_app(url, **store)
    game = new_game(first)
    assert guesses_at(first, game, 5) == [403] * 5
    second = make_app(url, **store)  # another worker: its own limiter storage, the same store
    assert guesses_at(second, game, 1) == [429]
    assert any(b"pin-device" in key for key in redis.Redis(connection_pool=store["RATELIMIT_STORAGE_OPTIONS"][
        "connection_pool"]).keys())
    # counted in each process's memory, the second worker lets the guesser go on
    in_memory = make_app(url)
    assert guesses_at(in_memory, game, 5, "10.70.0.2") == [403] * 5
    assert guesses_at(make_app(url), game, 1, "10.70.0.2") == [403]


def test_a_shared_store_that_cannot_be_reached_still_counts_wrong_pins_per_process(url, own_store_options):
    app = make_app(url, RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    game = new_game(app)
    assert guesses_at(app, game, 6) == [403] * 5 + [429]


# --- forwarded headers --------------------------------------------------------------


def test_forwarded_headers_are_believed_from_the_trusted_proxy_only(url):
    app = make_app(url, REFEREE_PROXIES=1, REFEREE_TRUSTED_PROXY="10.0.9.0/24, 192.0.2.5")
    game = new_game(app)
    forged = {"X-Forwarded-For": "172.16.0.1"}
    # a device that is no proxy says it is another device each time: it is counted as itself
    for n in range(5):
        r = app.test_client().post(f"/games/{game}/unlock", data={"pin": "000000"},
                                   environ_base={"REMOTE_ADDR": "10.1.1.1"},
                                   headers={"X-Forwarded-For": f"172.16.0.{n}"})
        assert r.status_code == 403
    assert app.test_client().post(f"/games/{game}/unlock", data={"pin": GAME_PIN}, environ_base={
        "REMOTE_ADDR": "10.1.1.1"}, headers=forged).status_code == 429
    # through a proxy of the trusted network, the device it names is counted, not the proxy
    assert app.test_client().post(f"/games/{game}/unlock", data={"pin": GAME_PIN}, environ_base={
        "REMOTE_ADDR": "10.0.9.7"}, headers=forged).status_code == 302


def seen_by(app, peer: str, headers: dict) -> dict:
    """What the app read of a request from ``peer`` with ``headers``: its scheme, host and device's address."""
    return app.test_client().get("/_seen", environ_base={"REMOTE_ADDR": peer}, headers=headers).get_json()


def app_that_shows_what_it_read(url, **config):
    from flask import request

    app = make_app(url, **config)
    app.add_url_rule("/_seen", "seen", lambda: {"scheme": request.scheme, "host": request.host,
                                                "device": request.remote_addr})
    return app


FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "tables.example", "X-Forwarded-For": "10.5.5.5"}


def test_a_trusted_proxys_forwarded_scheme_host_and_device_are_read_and_no_one_elses(url):
    app = app_that_shows_what_it_read(url, REFEREE_PROXIES=1, REFEREE_TRUSTED_PROXY="192.0.2.5")
    assert seen_by(app, "192.0.2.5", FORWARDED) == {"scheme": "https", "host": "tables.example", "device": "10.5.5.5"}
    assert seen_by(app, "10.1.1.1", FORWARDED) == {"scheme": "http", "host": "localhost", "device": "10.1.1.1"}


def test_without_proxies_no_ones_forwarded_headers_are_believed(url):
    app = app_that_shows_what_it_read(url)
    assert seen_by(app, "127.0.0.1", FORWARDED) == {"scheme": "http", "host": "localhost", "device": "127.0.0.1"}


def test_a_proxy_on_this_machine_is_trusted_without_naming_it(url):
    app = app_that_shows_what_it_read(url, REFEREE_PROXIES=1)
    for peer in ("127.0.0.1", "::1"):
        assert seen_by(app, peer, FORWARDED)["device"] == "10.5.5.5"
    assert seen_by(app, "10.0.0.2", FORWARDED)["device"] == "10.0.0.2"


@pytest.mark.parametrize("setting, value, said", [
    ("REFEREE_PROXIES", "one", "REFEREE_PROXIES must be a whole number of proxies"),
    ("REFEREE_PROXIES", -1, "REFEREE_PROXIES must be 0 or more"),
    ("REFEREE_TRUSTED_PROXY", "proxy.venue", "'proxy.venue' is not an IP address or network"),
])
def test_a_proxy_setting_that_cannot_be_read_stops_the_app_with_its_name(url, setting, value, said):
    with pytest.raises(proxies.ProxySettingError, match=said):
        make_app(url, **{"REFEREE_PROXIES": 1, setting: value})
