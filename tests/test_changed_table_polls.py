"""A table's tablet whose screen changed (the other tablet recorded) is answered, before Flask makes a request of its
poll, with the live region as the views drew it for the first device at the new version: its form token, a new form
key and the clock put in, with the headers the views give (referee/web/polls.py, ``table_live.kept_region``: the
second tablet's poll of each entry, a fifth of a room's requests).  Whatever such an answer would need and is not at
hand goes to the views, which answer it as before: no drawing kept in the device's language or with its panels, a
fold not kept at the point the poll read (another host recorded), a call for a judge waiting, a screen whose network
came back, an unlock that ended."""
import json
import random
import re

import flask
import pytest

from conftest import seated_first_table
from test_live_table import HX
from conftest import post
from test_unchanged_polls import DIRECTOR_PIN, requests_made, unlocked, version_of  # noqa: F401 (a fixture)

from referee import create_app
from referee.engine import legal_actions
from referee.sim.policy import Policy
from referee.services import folds, grants
from referee.web import polls

TOKEN = re.compile(r'(name="csrf_token" value="|&#34;csrf&#34;: &#34;)([^"&]+)')
KEY = re.compile(r'(name="entry_key" value=")([^"]+)')


def table(app):
    """A seated table, its two tablets unlocked, each showing the table: (game, its first player, the tablets, the
    version they show, the tournament, the table's PIN)."""
    tid, game_id, first, pin = seated_first_table(app, DIRECTOR_PIN)
    tablets = [unlocked(app, f"/games/{game_id}/unlock", pin) for _ in range(2)]
    seen = [version_of(t, f"/games/{game_id}", "tablelive") for t in tablets]
    assert seen[0] == seen[1]
    return game_id, first, tablets, seen[1], tid, pin


def next_entry(app, game_id, seed=0) -> tuple[int, dict]:
    """A legal entry for the table now (the game's entries so far, the entry), chosen as a simulated player would."""
    with app.app_context():
        state = folds.load(game_id).game.state
        count = folds.load(game_id).seq
    actions = [a for a in legal_actions(state) if a.type != "trade"]
    return count, Policy(random.Random(seed), "random").choose(state, actions).to_dict()


def moved_on(app, game_id, tablets, seed=0):
    """The first tablet records an entry and is shown the table (its screen draws the region at the new version)."""
    seq, entry = next_entry(app, game_id, seed)
    answer = post(tablets[0], game_id, seq, entry)
    assert 'class="flash refused"' not in answer.get_data(as_text=True)
    assert tablets[0].get(f"/games/{game_id}").status_code == 200


def plain(html: str) -> str:
    """A region without what each answer puts in of its own (the form token, the form key)."""
    return KEY.sub(r"\1KEY", TOKEN.sub(r"\1TOKEN", html))


def learnt(app, game_id, tablets, seen):
    """A first change answered by the views (which teach the headers of one made early); the version now shown."""
    moved_on(app, game_id, tablets, 1)
    answer = tablets[1].get(f"/games/{game_id}?v={seen}", headers=HX)
    assert answer.status_code == 200
    return re.search(r'data-version="([^"]+)"', answer.get_data(as_text=True)).group(1)


def test_a_tablets_changed_poll_is_answered_from_the_region_the_first_device_drew_as_the_views_answer_it(
        app, requests_made, monkeypatch):
    game_id, first, tablets, seen, tid, pin = table(app)
    seen = learnt(app, game_id, tablets, seen)
    moved_on(app, game_id, tablets, 2)
    requests_made.clear()
    early = tablets[1].get(f"/games/{game_id}?v={seen}", headers=HX)
    assert requests_made == []  # answered before Flask's request
    assert early.status_code == 200
    # each answer its own form key (a form of it sent twice records once, two devices' forms are never one)
    again = tablets[1].get(f"/games/{game_id}?v={seen}", headers=HX)
    assert requests_made == []
    assert KEY.search(again.get_data(as_text=True)).group(2) != KEY.search(early.get_data(as_text=True)).group(2)
    monkeypatch.setattr(polls.UnchangedPolls, "changed", lambda *args: None)  # the views answer the same poll
    by_view = tablets[1].get(f"/games/{game_id}?v={seen}", headers=HX)
    assert requests_made == [f"/games/{game_id}"]
    assert plain(early.get_data(as_text=True)) == plain(by_view.get_data(as_text=True))
    with app.app_context():
        assert f'data-seq="{folds.load(game_id).seq}"' in early.get_data(as_text=True)  # the table as it is now
    assert dict(early.headers) == {**dict(by_view.headers), "Content-Length": early.headers["Content-Length"]}
    assert early.headers["Cache-Control"] == "no-store" and "Cookie" in early.headers["Vary"]
    assert "Set-Cookie" not in early.headers


@pytest.mark.parametrize("settings", [{}, {"WTF_CSRF_SECRET_KEY": "other"}, {"WTF_CSRF_SECRET_KEY": ""},
                                      {"SECRET_KEY_FALLBACKS": ["old"]}])
def test_the_form_token_of_a_region_answered_early_records_the_tablets_entry_once(database, settings):
    # the form tokens checked (Flask-WTF's settings as an instance may set them: a secret of its own, even a blank
    # one, which Flask-WTF signs with as it is: then the views answer, and sign)
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database, **settings})
    made: list[str] = []

    def noted(sender, **extra):  # (held here: a signal keeps a weak reference to its receiver)
        made.append(flask.request.path)

    flask.request_started.connect(noted, app)
    tid, game_id, first, pin = seated_first_table(app, DIRECTOR_PIN)

    def tablet():
        device = app.test_client()
        form = device.get(f"/games/{game_id}/unlock").get_data(as_text=True)
        token = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', form).group(1)
        assert device.post(f"/games/{game_id}/unlock", data={"pin": pin, "csrf_token": token}).status_code == 302
        return device

    def shown(device):
        html = device.get(f"/games/{game_id}").get_data(as_text=True)
        return html, re.search(r'data-version="([^"]+)"', html).group(1)

    def send(device, html, seed):
        seq, entry = next_entry(app, game_id, seed)
        return device.post(f"/games/{game_id}/record", data={
            "csrf_token": TOKEN.search(html).group(2), "entry_key": KEY.search(html).group(2), "seq": seq,
            "entry": json.dumps(entry)})

    tablets = [tablet(), tablet()]
    screen, _ = shown(tablets[0])
    _, seen = shown(tablets[1])
    assert send(tablets[0], screen, 1).status_code == 303
    assert tablets[1].get(f"/games/{game_id}?v={seen}", headers=HX).status_code == 200  # the views (headers learnt)
    screen, seen = shown(tablets[0])
    assert send(tablets[0], screen, 2).status_code == 303
    shown(tablets[0])
    made.clear()
    early = tablets[1].get(f"/games/{game_id}?v={seen}", headers=HX)
    assert early.status_code == 200
    assert made == ([f"/games/{game_id}"] if settings.get("WTF_CSRF_SECRET_KEY") == "" else [])  # before Flask's
    region = early.get_data(as_text=True)
    with app.app_context():
        before = folds.load(game_id).seq
    answer = send(tablets[1], region, 3)
    assert answer.status_code == 303  # its form token is good: recorded
    again = send(tablets[1], region, 3)  # the same form sent again (a double tap, a lost answer)
    assert again.status_code in (200, 303)
    with app.app_context():
        assert folds.load(game_id).seq == before + 1  # recorded once


def test_a_poll_answered_early_is_drawn_in_the_devices_language_and_with_its_panels(app, requests_made):
    game_id, first, tablets, seen, tid, pin = table(app)
    seen = learnt(app, game_id, tablets, seen)
    moved_on(app, game_id, tablets, 3)
    japanese = tablets[1]
    japanese.set_cookie("lang", "ja")
    requests_made.clear()
    answer = japanese.get(f"/games/{game_id}?v={seen}", headers=HX)  # no drawing in Japanese yet: the views draw it
    assert requests_made == [f"/games/{game_id}"]
    drawn_by_view = answer.get_data(as_text=True)
    assert "ゲーム時計" in drawn_by_view or "時計" in drawn_by_view
    third = unlocked(app, f"/games/{game_id}/unlock", pin)
    third.set_cookie("lang", "ja")
    third.get(f"/games/{game_id}/rules")  # a page with a form: its session has a form token (none: the views)
    requests_made.clear()
    early = third.get(f"/games/{game_id}?v={seen}", headers=HX)
    assert requests_made == []  # the Japanese drawing kept: answered early, in Japanese
    assert plain(early.get_data(as_text=True)) == plain(drawn_by_view)
    # a panel asked open (its own drawing): the views draw it, then a device asking the same is answered early
    requests_made.clear()
    tablets[0].get(f"/games/{game_id}?v={seen}&open=board", headers=HX)
    assert requests_made == [f"/games/{game_id}"]
    requests_made.clear()
    board = tablets[1].get(f"/games/{game_id}?v={seen}&open=board", headers=HX)
    assert requests_made == [f"/games/{game_id}"]  # in Japanese: its own drawing again
    requests_made.clear()
    board = third.get(f"/games/{game_id}?v={seen}&open=board", headers=HX)
    assert requests_made == []
    assert plain(board.get_data(as_text=True)) != plain(early.get_data(as_text=True))


@pytest.mark.parametrize("why", ["no fold kept", "the network came back", "a judge called", "the unlock ended",
                                 "no form token yet"])
def test_a_changed_poll_that_needs_more_than_the_kept_drawing_goes_to_the_views(app, requests_made, why):
    game_id, first, tablets, seen, tid, pin = table(app)
    seen = learnt(app, game_id, tablets, seen)
    moved_on(app, game_id, tablets, 4)
    address = f"/games/{game_id}?v={seen}"
    if why == "no fold kept":  # another host recorded: this one keeps no fold at the point the poll read
        folds.FOLDS.clear()
    elif why == "the network came back":
        address += "&since=1"
    elif why == "a judge called":
        assert tablets[0].post(f"/games/{game_id}/call-judge", data={"entry": 1}).status_code in (302, 303)
        tablets[0].get(f"/games/{game_id}")
    elif why == "the unlock ended":  # the director locked the table's tablets
        with app.app_context():
            grants.lock_table(tid, game_id)
    elif why == "no form token yet":  # a device unlocked that has drawn no form: the views make its token
        tablets[1] = unlocked(app, f"/games/{game_id}/unlock", pin)
    requests_made.clear()
    answer = tablets[1].get(address, headers=HX)
    assert requests_made == [f"/games/{game_id}"]
    if why == "no form token yet":
        assert answer.status_code == 200 and "Set-Cookie" in answer.headers
    if why == "the network came back":
        assert "The network is back." in answer.get_data(as_text=True)
    elif why == "a judge called":
        assert answer.status_code == 200 and "judge" in answer.get_data(as_text=True).lower()
    elif why == "the unlock ended":
        assert answer.status_code == 403 and answer.headers["HX-Redirect"] == f"/games/{game_id}/unlock"
    elif why == "no fold kept":
        assert answer.status_code == 200 and 'id="tablelive"' in answer.get_data(as_text=True)


@pytest.mark.parametrize("asked", ["open=board", "open=" + "%FF" * 66 + ",board",
                                   "open=" + "\u00c3\u00a9" * 100 + ",board", "open=board&open=trade", "open=%62oard"])
def test_the_panels_a_poll_names_are_read_as_the_views_read_them(app, requests_made, monkeypatch, asked):
    """The address's ``open`` read as Werkzeug reads it (UTF-8, an invalid escape kept, the first of several), cut
    where the view cuts it: a poll answered early shows the panels its view would (found by a review)."""
    game_id, first, tablets, seen, tid, pin = table(app)
    seen = learnt(app, game_id, tablets, seen)
    moved_on(app, game_id, tablets, 2)
    tablets[0].get(f"/games/{game_id}?v={seen}&open=board", headers=HX)  # drawings with the board open and not
    tablets[0].get(f"/games/{game_id}?v={seen}", headers=HX)
    address = f"/games/{game_id}?v={seen}&{asked}"
    requests_made.clear()
    early = tablets[1].get(address, headers=HX)
    if asked in ("open=board", "open=%62oard"):
        assert requests_made == []  # answered early
    monkeypatch.setattr(polls.UnchangedPolls, "changed", lambda *args: None)
    by_view = tablets[1].get(address, headers=HX)
    assert plain(early.get_data(as_text=True)) == plain(by_view.get_data(as_text=True))


def test_a_poll_names_its_parameters_as_werkzeug_reads_them():
    from werkzeug.wrappers import Request

    from referee.web.addresses import parameters

    for query in ["v=1&open=a,b", "open=%FF%FE,x", "open=%C3%A9", "a=1&a=2&b", "open=\u00c3\u00a9", "x=%zz&y=+1", ""]:
        environ = {"QUERY_STRING": query, "REQUEST_METHOD": "GET", "wsgi.url_scheme": "http", "SERVER_NAME": "x",
                   "SERVER_PORT": "80"}
        assert parameters(environ) == Request(environ).args.to_dict(flat=False), query
    assert parameters({"QUERY_STRING": "open=\u00ff"}) is None  # not UTF-8: the views (after addresses.py) read it
