"""Issue 12 (sessions and headers, first part): the session cookie is HttpOnly and SameSite=Lax (Secure when the
app is told it is served over https), the language switch never redirects off-site, and ``serve --dev`` (the
debugger runs code) listens on 127.0.0.1 unless told otherwise."""
import pytest

from referee import cli, create_app
from test_app import app, client, database, new_game  # noqa: F401  (the app's fixtures)


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


def test_a_form_with_a_stale_token_shows_the_screen_again_with_the_reason_not_a_bare_400(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite'}"})
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None  # an idle screen's token does not expire with the hour
    client = app.test_client()
    r = client.post("/games/1/record", data={"seq": 0, "entry": "{}", "csrf_token": "stale"},
                    headers={"Referer": "http://localhost/games/1"})
    assert r.status_code == 303 and r.headers["Location"] == "/games/1"
    page = client.get("/").get_data(as_text=True)
    assert "had expired or was not made by this app: nothing was recorded" in page
    r = client.post("/games", data={"players": "A\nB", "csrf_token": "forged"})  # from nowhere: a page says why
    assert r.status_code == 400 and "nothing was recorded" in r.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/", "/games/1", "/games/1/display", "/tournaments"])
def test_every_screen_sends_a_content_security_policy_without_inline_script_and_refuses_framing(client, path):
    new_game(client)
    r = client.get(path)
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src", 1)[1].split(";", 1)[0]
    assert "frame-ancestors 'none'" in csp and r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff" and r.headers["Referrer-Policy"] == "same-origin"
    assert "<script>" not in r.get_data(as_text=True)  # every script is a file of the app's


def test_the_home_pages_two_forms_have_ids_of_their_own_so_each_label_names_its_field(client):
    import re
    page = client.get("/").get_data(as_text=True)
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert 'for="import-pin"' in page and 'id="import-pin"' in page
