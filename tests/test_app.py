"""The tablet app: recording at the table through the web forms."""
import html
import json
import os
import re

import pytest

from referee import create_app
from referee.store.db import db

from conftest import new_game, post


def test_new_game_opens_the_table_with_the_seating_dice_pad(client):
    game_id = new_game(client, seating="roll")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "waiting for the seating roll of Aki, Ben, Chie" in page
    assert page.count('name="dice"') == 36


def test_recording_a_roll_moves_the_token_and_shows_the_consequences(client):
    game_id = new_game(client)
    page = post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,3").get_data(as_text=True)
    assert "Aki moves to Income Tax" in page
    assert "Aki pays the bank $200 tax" in page
    assert "$1,300" in page and "waiting for Ben to roll" in page


def _button_entries(page: str) -> list[dict]:
    """The entries the table screen's buttons and forms carry, as the browser would post them."""
    return [json.loads(html.unescape(v)) for v in re.findall(r"name=\"entry\" value='([^']*)'", page)]


def test_a_player_named_with_an_apostrophe_or_an_ampersand_records_from_the_table_screen(client):
    """Bug: the screen wrote a player's name into an entry HTML-escaped (O&#39;Brien), which names no player at the
    table: O'Brien could not roll.  The entries carry the name as the record writes it."""
    game_id = new_game(client, players="O'Brien\nBen & Co\nChie")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    roll = next(e for e in _button_entries(page) if e["type"] == "roll")
    assert roll["player"] == "O'Brien"
    page = post(client, game_id, 0, roll, dice="1,2").get_data(as_text=True)
    assert "O&#39;Brien rolls 1+2" in page and "No such player" not in page
    buy = next(e for e in _button_entries(page) if e["type"] == "buy")  # Baltic Avenue, from the buy card
    assert buy == {"type": "buy", "player": "O'Brien"}
    post(client, game_id, 1, buy)
    page = post(client, game_id, 2, {"type": "roll", "player": "Ben & Co"}, dice="1,2").get_data(as_text=True)
    assert "Ben &amp; Co pays O&#39;Brien" in page  # the rent on Baltic Avenue, both names shown escaped once


def test_a_stale_entry_is_refused_and_never_recorded_twice(client):
    game_id = new_game(client)
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="4,6")
    page = post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="4,6").get_data(as_text=True)
    assert "nothing was recorded" in page
    record = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()
    assert len(record) == 2  # the header and one roll


def test_a_double_tap_on_a_mortgage_button_records_one_mortgage(client):
    """The mortgage buttons share one form, each carrying its own entry: a second tap sends the same screen's
    number again and is refused as stale."""
    game_id = new_game(client)
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,2")  # Baltic Avenue
    post(client, game_id, 1, {"type": "buy", "player": "Aki"})
    page = client.get(f"/games/{game_id}/panels/mortgages").get_data(as_text=True)  # the referee opens Mortgages
    mortgage = next(e for e in _button_entries(page) if e["type"] == "mortgage")
    assert mortgage == {"type": "mortgage", "player": "Aki", "square": "baltic-avenue"}
    post(client, game_id, 2, mortgage)
    page = post(client, game_id, 2, mortgage).get_data(as_text=True)
    assert "nothing was recorded" in page
    record = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()
    assert [json.loads(line)["type"] for line in record[1:]] == ["roll", "buy", "mortgage"]


def test_an_illegal_entry_shows_its_clause_and_changes_nothing(client):
    game_id = new_game(client)
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,2")
    post(client, game_id, 1, {"type": "decline", "player": "Aki"})
    page = post(client, game_id, 2, {"type": "bid", "player": "Ben"}, amount="15").get_data(as_text=True)
    assert "bid of $15" in page and "競売価格は$10以上$10単位で行います" in page
    assert len(client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()) == 3


@pytest.mark.parametrize("entry, fields", [
    ("not json", {}),
    ('["a list"]', {}),
    ('{"type": "teleport", "player": "Aki"}', {}),
    ('{"type": "roll", "player": "Aki"}', {"dice": "7,1"}),
    ('{"type": "roll", "player": "Aki"}', {"dice": "x"}),
])
def test_a_forged_form_is_refused_with_a_message_and_no_500(client, entry, fields):
    game_id = new_game(client)
    r = client.post(f"/games/{game_id}/record", data={"seq": 0, "entry": entry, **fields}, follow_redirects=True)
    assert r.status_code == 200
    assert 'class="flash refused"' in r.get_data(as_text=True)
    assert len(client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()) == 1


def test_recording_needs_the_referee_pin(app, client):
    game_id = new_game(client)
    other = app.test_client()
    r = other.post(f"/games/{game_id}/record", data={"seq": 0, "entry": '{"type": "roll", "player": "Aki"}',
                                                     "dice": "1,2"})
    assert r.status_code == 302 and "/unlock" in r.headers["Location"]
    assert other.post(f"/games/{game_id}/unlock", data={"pin": "999999"}).status_code == 403
    assert other.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    assert "Aki moves to" in post(other, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,2").get_data(
        as_text=True)


def test_the_spectator_display_cannot_record(app, client):
    game_id = new_game(client)
    page = app.test_client().get(f"/games/{game_id}/display").get_data(as_text=True)
    assert "waiting for Aki to roll" in page and "/record\"" not in page
    assert 'http-equiv="refresh"' not in page and 'hx-trigger="every 1s"' in page  # live, without reloading


def test_forms_need_a_csrf_token(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite'}"})
    client = app.test_client()
    r = client.post("/games", data={"ruleset": "jma-2006", "players": "A\nB", "seating": "fixed", "pin": "123456"})
    assert r.status_code == 303 and r.headers["Location"] == "/"  # the form's screen again, with the reason
    home = client.get("/").get_data(as_text=True)
    assert "was not made by this app: nothing was recorded" in home and "/games/1" not in home  # no game made
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"',
                      client.get("/").get_data(as_text=True)).group(1)
    r = client.post("/games", data={"ruleset": "jma-2006", "players": "A\nB", "seating": "fixed", "pin": "123456",
                                    "csrf_token": token})
    assert r.status_code == 302


def test_a_bad_game_setup_is_refused_with_its_reason(client):
    r = client.post("/games", data={"ruleset": "jma-2006", "players": "Aki\nAki", "seating": "fixed", "pin": "123456"})
    assert r.status_code == 400 and "player names must differ" in r.get_data(as_text=True)


def test_void_from_the_log_and_the_state_after_an_entry(client):
    game_id = new_game(client)
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,2")
    post(client, game_id, 1, {"type": "buy", "player": "Aki"})
    page = post(client, game_id, 2, {"type": "void"}, count="2", note="wrong dice").get_data(as_text=True)
    assert "waiting for Aki to roll" in page
    then = client.get(f"/games/{game_id}?at=2", follow_redirects=True).get_data(as_text=True)  # the dispute view
    assert "as it was at entry 2" in then and "$1,440" in then and "Taken back by entry 3" in then
    lines = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()
    assert json.loads(lines[-1]) == {"seq": 3, "type": "void", "count": 2, "note": "wrong dice"}


def test_export_then_import_continues_the_same_game(client, tmp_path):
    game_id = new_game(client)
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,2")
    post(client, game_id, 1, {"type": "buy", "player": "Aki"})
    text = client.get(f"/games/{game_id}/record.jsonl").get_data()
    from io import BytesIO
    r = client.post("/games/import", data={"record": (BytesIO(text), "game.jsonl"), "pin": "654321"},
                    content_type="multipart/form-data")
    new_id = int(r.headers["Location"].rsplit("/", 1)[1])
    assert new_id != game_id
    assert client.get(f"/games/{new_id}/record.jsonl").get_data() == text


def test_import_of_an_illegal_record_names_the_line(client):
    from io import BytesIO
    bad = b'{"format": "referee-game-record", "version": 1, "ruleset": "jma-2006", "players": ["A", "B"], ' \
          b'"seating": "fixed"}\n{"type": "buy", "player": "A"}\n'
    page = client.post("/games/import", data={"record": (BytesIO(bad), "bad.jsonl"), "pin": "654321"},
                       content_type="multipart/form-data", follow_redirects=True).get_data(as_text=True)
    assert "line 2" in page and "a purchase cannot be recorded now" in page


def test_entries_are_kept_across_app_restarts(tmp_path):
    uri = f"sqlite:///{tmp_path / 'keep.sqlite'}"
    first = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": uri})
    c = first.test_client()
    game_id = new_game(c)
    post(c, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,3")
    second = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": uri})
    c2 = second.test_client()
    c2.post(f"/games/{game_id}/unlock", data={"pin": "123456"})
    assert "$1,300" in c2.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_whole_turn_cycle_through_the_screens(client):
    game_id = new_game(client, players="Aki\nBen")
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="2,5")  # Chance
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Which card did Aki draw?" in page and "Bank pays you dividend of $50" in page
    page = post(client, game_id, 1, {"type": "card", "player": "Aki"}, card="chance-bank-dividend").get_data(
        as_text=True)
    assert "$1,550" in page and "waiting for Ben to roll" in page


def test_the_whole_log_is_on_its_own_page(client):
    game_id = new_game(client)
    for seq, player in enumerate(["Aki", "Ben", "Chie"]):
        post(client, game_id, seq, {"type": "roll", "player": player}, dice="4,6")
    page = client.get(f"/games/{game_id}/log").get_data(as_text=True)
    assert "Aki rolls 4+6" in page and "Chie rolls 4+6" in page and "page 1 of 1" in page


def test_the_rules_page_lists_the_active_options_and_clauses_and_searches_them(client):
    game_id = new_game(client)
    page = client.get(f"/games/{game_id}/rules").get_data(as_text=True)
    assert "Bid step at an auction: $10" in page and "競売価格は$10以上$10単位で行います" in page
    assert "Auction bids are $10 or more, in units of $10." in page
    found = client.get(f"/games/{game_id}/rules?q=抵当").get_data(as_text=True)
    assert "When deeds may be mortgaged" in found and "Order of play" not in found.split("</form>", 1)[1]


def test_a_refusal_links_to_its_clause_in_both_languages(client):
    game_id = new_game(client)
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,2")
    page = post(client, game_id, 1, {"type": "bid", "player": "Ben"}, amount="10").get_data(as_text=True)
    assert f"/games/{game_id}/rules?rule=auction#rule-auction" in page


def test_the_game_clock_starts_pauses_and_says_when_time_is_up(app, client):
    r = client.post("/games", data={"ruleset": "jma-2006", "players": "Aki\nBen", "seating": "fixed",
                                    "pin": "123456", "time_limit": "70"})
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "70:00" in page and "Start the clock" in page
    client.post(f"/games/{game_id}/clock", data={"action": "start"})
    assert "Pause the clock" in client.get(f"/games/{game_id}").get_data(as_text=True)
    client.post(f"/games/{game_id}/clock", data={"action": "pause"})
    from referee.services import clocks
    from referee.store.models import GameRow
    from referee.store.db import db
    with app.app_context():
        row = db.session.get(GameRow, game_id)
        assert not clocks.clock(row).running and clocks.clock(row).elapsed_seconds < 5
        row.clock_elapsed_seconds = 70 * 60  # as if the clock had run its 70 minutes
        db.session.commit()
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Time is up: call time" in page
    page = post(client, game_id, 0, {"type": "time_called"}).get_data(as_text=True)
    assert "Time is up: call time" not in page and "waiting for Aki to roll" in page


def test_a_trade_is_checked_against_the_rules_before_it_is_recorded(client):
    game_id = new_game(client)
    post(client, game_id, 0, {"type": "roll", "player": "Aki"}, dice="1,2")
    post(client, game_id, 1, {"type": "buy", "player": "Aki"})  # Baltic Avenue, mortgage value $30
    r = client.post(f"/games/{game_id}/check", data={
        "seq": 2, "entry": json.dumps({"type": "trade", "player": "Aki", "partner": "Ben"}),
        "give-deeds": "baltic-avenue", "take-cash": "30"}, follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "A deed may not go for its mortgage value or less" in page and "抵当価額以下" in page
    r = client.post(f"/games/{game_id}/check", data={
        "seq": 2, "entry": json.dumps({"type": "trade", "player": "Aki", "partner": "Ben"}),
        "give-deeds": "baltic-avenue", "take-cash": "80"}, follow_redirects=True)
    assert "allowed (not recorded yet)" in r.get_data(as_text=True)
    assert len(client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()) == 3


def test_the_debt_panel_lists_every_way_to_raise_cash(jma, app):
    from conftest import do, give, seated_state
    from referee.engine import legal_actions
    from referee.screens.decisions.debt import ways_to_pay
    s = give(give(seated_state(jma), 0, "st-james-place", "tennessee-avenue", "new-york-avenue", "boardwalk"), 1,
             "baltic-avenue", "mediterranean-avenue")
    s.set_level(16, 2)
    s.set_level(18, 2)
    s.set_level(19, 2)
    s.set_level(3, 5)
    s.players[0].cash = 10
    s = do(s, type="roll", player="Aki", dice=[1, 2])  # $450 rent
    by_type = {}
    for a in legal_actions(s):
        by_type.setdefault(a.type, []).append(a)
    with app.test_request_context():
        assert [way[:2] for way in ways_to_pay(s, by_type)] == [
            ("sell buildings on the Orange group: New York Avenue 2 houses → 1 house", 50), ("mortgage Boardwalk", 200)]
        assert [way[2] for way in ways_to_pay(s, by_type)] == [
            {"type": "sell_buildings", "player": "Aki", "targets": {"st-james-place": 2, "tennessee-avenue": 2,
                                                                    "new-york-avenue": 1}},
            {"type": "mortgage", "player": "Aki", "square": "boardwalk"}]


def test_the_table_speaks_japanese_on_a_device_that_chose_it(client):
    game_id = new_game(client, players="あき\nけん")
    client.get("/lang/ja")
    page = post(client, game_id, 0, {"type": "roll", "player": "あき"}, dice="1,2").get_data(as_text=True)
    assert "あき は バルティック・アベニュー へ進む" in page
    assert "あき が バルティック・アベニュー を購入するか断るか待ち" in page
    assert 'lang="ja"' in page
    english = post(client, game_id, 1, {"type": "bid", "player": "けん"}, amount="10").get_data(as_text=True)
    assert "ルール" in english and "購入を拒否したプレイヤーも競売に参加できます" in english
    client.get("/lang/en")
    assert "waiting for あき to buy or decline Baltic Avenue" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_the_language_follows_the_browser_until_a_device_chooses(client):
    page = client.get("/", headers={"Accept-Language": "ja,en;q=0.5"}).get_data(as_text=True)
    assert "新しいゲーム" in page
    assert "New game" in client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)


def test_each_request_speaks_its_own_language_one_after_another(app, client):
    """Each request is bound its device's language at its start and unbound at its end (``i18n.init_app``): the
    next request, from a device in another language, speaks its own; a request context no view answers (a test's)
    finds its language anew."""
    from referee.language.i18n import current_language, gettext

    for accept, words in [("ja", "新しいゲーム"), ("en", "New game"), ("ja", "新しいゲーム"), ("de", "Neues Spiel")]:
        assert words in client.get("/", headers={"Accept-Language": accept}).get_data(as_text=True)
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        assert current_language() == "ja" and gettext("New game") == "新しいゲーム"
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        assert current_language() == "de" and gettext("New game") == "Neues Spiel"


def test_the_templates_words_escape_what_they_are_given_as_jinjas_newstyle_gettext_does(app):
    """The templates' _ and ngettext (language.templates.template_words): the words marked safe, then formatted with each
    variable escaped, in an escaping template; a literal percent sign written %%."""
    from flask import render_template_string

    with app.test_request_context("/"):
        page = render_template_string('{{ _("on %(square)s", square=name) }}|'
                                      '{{ ngettext("%(num)s house", "%(num)s houses", 3) }}|{{ _("100%% sure") }}',
                                      name="<b>Go</b>")
    assert page == "on &lt;b&gt;Go&lt;/b&gt;|3 houses|100% sure"


def test_the_templates_urls_are_the_ones_flask_builds_under_any_site_root(app):
    """The templates' url_for keeps each URL it builds (app._urls_built_once): for each site root its own, an
    external URL with the host asked for, the same as Flask's url_for every time."""
    from flask import render_template_string, url_for

    template = "{{ url_for('table.table', game_id=7) }} {{ url_for('static', filename='referee.css') }}"
    for root in ("", "/venue", "", "/hall-b"):
        with app.test_request_context("/", base_url=f"http://tablet.local{root}"):
            expected = f"{url_for('table.table', game_id=7)} {url_for('static', filename='referee.css')}"
            assert render_template_string(template) == expected
            assert expected.startswith(f"{root}/games/7 ")
    for host in ("a.local", "b.local"):
        with app.test_request_context("/", base_url=f"http://{host}"):
            assert render_template_string("{{ url_for('games.index', _external=True) }}") == f"http://{host}/"


def test_player_names_in_any_script(client):
    game_id = new_game(client, players="あき\n김민수\nJürgen Groß")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "あき" in page and "김민수" in page and "Jürgen Groß" in page
    record = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True)
    assert json.loads(record.splitlines()[0])["players"] == ["あき", "김민수", "Jürgen Groß"]


@pytest.mark.parametrize("form", [
    {"seq": "x", "entry": "{}"},
    {"entry": '{"type": "roll", "player": "Aki"}', "dice": "1,2"},
    {"seq": "0", "entry": '{"type": "trade", "player": "Aki", "partner": "Ben"}', "give-cash": "lots"},
    {"seq": "0", "entry": '{"type": "build", "player": "Aki"}', "level-boardwalk": "seven"},
    {"seq": "0", "entry": '{"type": "bid", "player": "Aki"}', "amount": "1e9"},
    {"seq": "0", "entry": '{"type": "deal", "player": "Aki"}', "deeds": "nowhere"},
    {"seq": "-3", "entry": '{"type": "void"}', "count": "-1"},
    {"seq": "0", "entry": "[" * 10000 + "]" * 10000},
    {"seq": "0", "entry": '{"type": "trade", "player": "Aki", "partner": "Ben"}', "give-cash": "9" * 5000,
     "take-cards": "chest-get-out-of-jail-free"},
    {"seq": "0", "entry": '{"type": "place_building", "player": "Aki", "square": 1180591620717411303424}'},
])
def test_forged_forms_of_every_kind_get_a_message_not_a_500(client, form):
    game_id = new_game(client)
    r = client.post(f"/games/{game_id}/record", data=form, follow_redirects=True)
    assert r.status_code == 200 and 'class="flash refused"' in r.get_data(as_text=True)
    r = client.post(f"/games/{game_id}/check", data=form, follow_redirects=True)
    assert r.status_code == 200


def test_a_serving_process_sets_its_start_up_objects_aside_from_the_cycle_collector(tmp_path):
    """`referee serve` and gunicorn's workers make the app with no test settings: the objects made by then (the
    libraries' and the app's code) are frozen, so a full collection walks only what serving made since, rather than
    holding every request for the whole heap (60-75 ms on a 2-core machine).  In a process of its own: this one
    freezes nothing."""
    import subprocess
    import sys

    program = ("import gc; from referee import create_app; create_app(); "
               "print(gc.get_freeze_count(), len(gc.get_objects()))")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite'}", "SECRET_KEY": "served"}
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    frozen, collected = map(int, done.stdout.split())
    assert frozen > 50_000 and collected < frozen // 10
