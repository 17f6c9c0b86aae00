"""Issue 12 (sessions and headers, first part): the session cookie is HttpOnly and SameSite=Lax (Secure when the
app is told it is served over https), the language switch never redirects off-site, and ``serve --dev`` (the
debugger runs code) listens on 127.0.0.1 unless told otherwise."""
import re
import time
from datetime import timedelta

import pytest
import sqlalchemy

from referee import cli, create_app
from referee.store.db import db
from referee.services import games, tournaments
from referee.web.views.errors import FORM_SCREENS
from conftest import new_game


def test_the_session_cookie_is_httponly_and_samesite_lax(client):
    game_id = new_game(client)
    r = client.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie


def test_the_session_cookie_is_secure_when_served_over_https(monkeypatch, tmp_path):
    monkeypatch.setenv("REFEREE_HTTPS", "1")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'https.sqlite'}")
    monkeypatch.setenv("SECRET_KEY", "s")
    assert create_app().config["SESSION_COOKIE_SECURE"] is True


@pytest.mark.parametrize("referrer, expected", [
    ("https://evil.example/phish", "/"),
    ("//evil.example/x", "/"),
    ("javascript:alert(1)", "/"),
    (None, "/"),
    ("http://localhost/games/1/rules?q=jail", "/games/1/rules?q=jail"),
])
def test_the_language_switch_goes_back_to_the_page_on_this_site_only(client, referrer, expected):
    headers = {"Referer": referrer} if referrer else {}
    r = client.get("/lang/ja", headers=headers)
    assert r.status_code == 302 and r.headers["Location"] == expected
    assert "lang=ja" in r.headers["Set-Cookie"]


def test_serve_dev_listens_on_localhost_unless_told(monkeypatch):
    seen = {}
    monkeypatch.setattr("flask.Flask.run", lambda self, **kw: seen.update(kw))
    monkeypatch.setenv("SECRET_KEY", "s")
    parser_args = ["serve", "--dev"]
    monkeypatch.setattr("referee.create_app", lambda *a, **k: __import__("flask").Flask("x"))
    assert cli.main(parser_args) == 0 and seen["host"] == "127.0.0.1"
    assert cli.main(parser_args + ["--host", "0.0.0.0"]) == 0 and seen["host"] == "0.0.0.0"


STALE = "had expired or was not made by this app: nothing was recorded"


def test_a_form_with_a_stale_token_shows_the_screen_again_with_the_reason_not_a_bare_400(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite'}"})
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None  # an idle screen's token does not expire with the hour
    client = app.test_client()
    r = client.post("/games/1/record", data={"seq": 0, "entry": "{}", "csrf_token": "stale"},
                    headers={"Referer": "http://localhost/games/1"})
    assert r.status_code == 303 and r.headers["Location"] == "/games/1"
    page = client.get("/").get_data(as_text=True)
    assert STALE in page
    r = client.post("/games", data={"players": "A\nB", "csrf_token": "forged"})  # no Referer: its screen all the same
    assert r.status_code == 303 and r.headers["Location"] == "/"
    assert STALE in client.get("/").get_data(as_text=True)


def token(page: str) -> str:
    return re.search(r'name="csrf_token"[^>]* value="([^"]+)"', page).group(1)


@pytest.fixture
def guarded(tmp_path):
    """An site that checks every form's token, a game and a tournament in it, and a tablet that has opened both
    (their PINs given through the forms, with the tokens the screens gave)."""
    site = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite'}"})
    with site.app_context():
        game_id = games.create_game("Table 1", "jma-2006", ["Aki", "Ben"], "fixed", "123456")
        tid = tournaments.create_tournament("Cup", "jma-placement", "jma-2006", [f"P{i}" for i in range(8)],
                                            "135791")
    client = site.test_client()
    for path, pin in ((f"/games/{game_id}/unlock", "123456"), (f"/tournaments/{tid}/unlock", "135791")):
        r = client.post(path, data={"pin": pin, "csrf_token": token(client.get(path).get_data(as_text=True))})
        assert r.status_code == 302, path
    return site, client, game_id, tid


def stored(site) -> tuple:
    with site.app_context():
        return tuple(db.session.execute(sqlalchemy.text(f"SELECT count(*) FROM {t}")).scalar()
                     for t in ("entries", "rounds", "tournaments", "games"))


@pytest.mark.parametrize("referrer", [None, "http://localhost/games/{g}?open=board"])
def test_a_stale_table_form_shows_the_table_again_with_the_reason_with_or_without_a_referer(guarded, referrer):
    """A tablet that sends no Referer (a browser's privacy setting) gets the screen the form is on all the same:
    the table screen, named by the address the form posts to."""
    site, client, game_id, _ = guarded
    before = stored(site)
    headers = {"Referer": referrer.format(g=game_id)} if referrer else {}
    r = client.post(f"/games/{game_id}/record", data={"seq": "0", "entry": '{"type": "roll", "player": "Aki"}',
                                                     "dice": "3,4", "csrf_token": "expired"}, headers=headers)
    assert r.status_code == 303
    assert r.headers["Location"] == (f"/games/{game_id}?open=board" if referrer else f"/games/{game_id}")
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert STALE in page and 'name="dice"' in page  # the table screen, its dice pad ready for the tap again
    assert stored(site) == before


@pytest.mark.parametrize("referrer", [None, "http://localhost/tournaments/{t}?players=1", "https://evil.example/x"])
def test_a_stale_tournament_form_shows_the_directors_page_again_with_the_reason(guarded, referrer):
    site, client, _, tid = guarded
    before = stored(site)
    headers = {"Referer": referrer.format(t=tid)} if referrer else {}
    r = client.post(f"/tournaments/{tid}/rounds", data={"round": "1", "csrf_token": "expired"}, headers=headers)
    assert r.status_code == 303
    assert r.headers["Location"] == (f"/tournaments/{tid}?players=1" if referrer and "localhost" in referrer
                                     else f"/tournaments/{tid}")  # another site's Referer is never followed
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert STALE in page and "Seat round 1" in page
    assert stored(site) == before
    r = client.post("/tournaments", data={"name": "Cup 2", "csrf_token": "expired"})  # the new-tournament form
    assert r.status_code == 303 and r.headers["Location"] == "/tournaments"
    assert STALE in client.get("/tournaments").get_data(as_text=True)
    assert stored(site) == before


def test_a_stale_form_sent_by_htmx_or_to_no_forms_address_gets_a_page_saying_why(guarded):
    site, client, game_id, _ = guarded
    r = client.post(f"/games/{game_id}/check", data={"csrf_token": "expired"}, headers={"HX-Request": "true"})
    assert r.status_code == 400 and STALE in r.get_data(as_text=True)


def test_every_form_of_the_app_names_the_screen_it_is_on(app):
    """A form sent with a stale token is answered with its screen: every address a form posts to is in
    FORM_SCREENS, and each names a page (an address a GET reaches) with the values the form's address has."""
    posted = {rule.endpoint: rule for rule in app.url_map.iter_rules() if "POST" in rule.methods}
    assert set(posted) == set(FORM_SCREENS)
    pages = {rule.endpoint: rule for rule in app.url_map.iter_rules() if "GET" in rule.methods}
    for endpoint, (screen, names) in FORM_SCREENS.items():
        assert screen in pages, endpoint
        assert set(names) == pages[screen].arguments and set(names) <= posted[endpoint].arguments, endpoint


@pytest.mark.parametrize("path", ["/", "/games/1", "/games/1/display", "/tournaments"])
def test_every_screen_sends_a_content_security_policy_without_inline_script_and_refuses_framing(client, path):
    new_game(client)
    r = client.get(path)
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src", 1)[1].split(";", 1)[0]
    assert " 'unsafe-eval'" not in csp  # WebAssembly may be compiled (the tablet's engine), script never evaluated
    assert "frame-ancestors 'none'" in csp and r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff" and r.headers["Referrer-Policy"] == "same-origin"
    assert "<script>" not in r.get_data(as_text=True)  # every script is a file of the app's


def test_the_home_pages_two_forms_have_ids_of_their_own_so_each_label_names_its_field(client):
    import re
    page = client.get("/").get_data(as_text=True)
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert 'for="import-pin"' in page and 'id="import-pin"' in page


def test_a_screen_arms_its_controls_after_the_apps_arm_ms_and_an_impossible_setting_is_refused(tmp_path):
    """referee.js reads the wait before a tap counts from the page (600 ms unless the app is set otherwise); a
    setting that is no whole number of milliseconds from 0 to 5000 stops the app at its start, naming the limit."""
    url = f"sqlite:///{tmp_path / 'arm.sqlite'}"
    shipped = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url})
    assert 'data-arm-ms="600"' in shipped.test_client().get("/").get_data(as_text=True)
    quicker = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url, "ARM_MS": 250})
    assert 'data-arm-ms="250"' in quicker.test_client().get("/").get_data(as_text=True)
    for bad in (-1, 5001, 600.5, "600", True):
        with pytest.raises(ValueError, match="ARM_MS must be a whole number of milliseconds from 0 to 5000"):
            create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url, "ARM_MS": bad})


def test_a_session_cookie_read_before_is_refused_once_past_the_sessions_lifetime_or_altered(app):
    """The device's cookie is read without checking its signature again when the same value was checked before
    (referee/web/sessions.py: every device sends the same one every second), but its age is judged at every request
    as Flask judges it, and an altered value is checked in full: past the session's lifetime, or altered, the tablet
    is sent to its PIN screen, by the poll answered before Flask's request and by the views alike."""
    client = app.test_client()
    game_id = new_game(client)
    assert client.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    version = re.search(r'hx-get="/games/\d+\?v=([^"&]+)"', page).group(1)
    poll = {"headers": {"HX-Request": "true"}}
    for _ in range(2):  # checked once, then read as checked
        assert client.get(f"/games/{game_id}?v={version}", **poll).status_code == 204
    value = client.get_cookie("session").value
    altered = app.test_client()
    payload, signature = value.rsplit(".", 1)  # its signature's first character (six bits of it: the last's low
    # bits may be padding, which decodes to the same signature now and then)
    altered.set_cookie("session", f"{payload}.{'A' if signature[0] != 'A' else 'B'}{signature[1:]}")
    r = altered.get(f"/games/{game_id}?v={version}", **poll)
    assert r.status_code == 403 and r.headers["HX-Redirect"] == f"/games/{game_id}/unlock"
    app.permanent_session_lifetime = timedelta(seconds=0)  # the cookie's lifetime over once a second has passed
    time.sleep(1.05)
    r = client.get(f"/games/{game_id}?v={version}", **poll)
    assert r.status_code == 403 and r.headers["HX-Redirect"] == f"/games/{game_id}/unlock"
    assert "Unlock" in client.get(f"/games/{game_id}", follow_redirects=True).get_data(as_text=True)


def test_a_session_read_from_a_cookie_checked_before_is_a_new_value_each_time(app):
    """A request changes its own session (a flash, a grant let go): the next request with the same cookie reads
    the cookie's payload afresh, never the session an earlier request changed."""
    client = app.test_client()
    game_id = new_game(client)
    client.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    value = client.get_cookie("session").value
    first, second = (app.session_interface.read(app, value) for _ in range(2))
    assert first == second and first["grants"] and first is not second
    first["grants"].append("another")
    assert app.session_interface.read(app, value) == second and "another" not in second["grants"]


def test_the_cookies_signer_is_made_once_for_the_apps_keys_and_a_new_key_signs_anew_with_the_old_as_a_fallback(app):
    """The session cookie's signing serializer is kept for the app's keys (Flask would make one at every request): the
    same while the keys are, another once the secret key changes, when a cookie signed with the old key is refused
    unless the old key is named a fallback (SECRET_KEY_FALLBACKS), as Flask's own serializer does."""
    client = app.test_client()
    game_id = new_game(client)
    assert client.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    interface = app.session_interface
    signer = interface.get_signing_serializer(app)
    assert interface.get_signing_serializer(app) is signer
    assert client.get(f"/games/{game_id}").status_code == 200
    app.secret_key = app.config["SECRET_KEY"] = "a new key"
    assert interface.get_signing_serializer(app) is not signer
    assert client.get(f"/games/{game_id}").status_code == 302  # the old key's cookie: locked, to the PIN screen
    assert client.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    app.config["SECRET_KEY_FALLBACKS"] = ["a new key"]
    app.secret_key = app.config["SECRET_KEY"] = "a newer key"
    assert client.get(f"/games/{game_id}").status_code == 200  # signed with a fallback key: still read
