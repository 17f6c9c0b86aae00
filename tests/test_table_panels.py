"""The table screen's panels (issue 13: the screen drawn in under 3 ms of server time in a 5,000-entry game): the
actions open at any time (mortgages, buildings, sales, trades), the board, the void menu and each player's deed
list are drawn as their summary alone until the referee opens one; opening it fetches its contents (or, without
scripts, its link draws the screen with it open); the live poll names the open panels so they are drawn again with
the region; the panels the referee opened stay open through the screen's reloads (a cookie of this game's pages);
a debt opens the ways to raise cash by itself.  Names that are no panel change nothing."""
import html
import re

import pytest

from test_live_table import HX, live_version, trade_page
from test_table_decisions import from_position
from test_table_words import record, roll

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

MORTGAGE_BALTIC = "Aki: mortgage Baltic Avenue +$30"


def text(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def test_a_closed_panel_is_its_summary_alone_until_it_is_opened(client):
    game_id = trade_page(client)  # Aki holds Baltic Avenue: a mortgage, a trade and a deed list to show
    record(client, game_id, roll("Aki", 1, 3))  # an entry to void
    page = client.get(f"/games/{game_id}")
    body = page.get_data(as_text=True)
    for name in ("mortgages", "trade", "board", "void", "deeds-0"):
        assert f'data-panel="{name}"' in body and f'hx-get="/games/{game_id}/panels/{name}"' in body
        assert f'href="/games/{game_id}?open={name}#{name}"' in body  # without scripts, a link opens it
    assert MORTGAGE_BALTIC not in text(page) and 'class="board40"' not in body and "trade-form-0-1" not in body
    assert 'class="deedlist"' not in body and 'id="void-runs"' not in body
    assert "1 deed" in text(page)  # the deed list's summary stays in sight


def test_opening_a_panel_fetches_its_contents_alone(client):
    game_id = trade_page(client)
    record(client, game_id, roll("Aki", 2, 4), {"type": "buy", "player": "Aki"})  # Aki also buys Oriental Avenue
    for name, expected in (("mortgages", MORTGAGE_BALTIC), ("trade", "Record trade Aki ⇄ Ben"),
                           ("board", "Oriental Avenue Orie. Ori. Aki"), ("void", "Void entry 2"),
                           ("deeds-0", "Light Blue Oriental Avenue")):
        r = client.get(f"/games/{game_id}/panels/{name}", headers=HX)
        assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store", name
        assert expected in text(r) and "<html" not in r.get_data(as_text=True), name


def test_a_panel_asked_by_name_is_drawn_open_with_the_screen(client):
    """The link of a closed panel (no scripts), and the live poll naming the panels open on the tablet."""
    game_id = trade_page(client)
    page = client.get(f"/games/{game_id}?open=mortgages,board")
    body = page.get_data(as_text=True)
    assert MORTGAGE_BALTIC in text(page) and 'class="board40"' in body
    assert '<details id="mortgages" data-panel="mortgages" data-keep open>' in body
    assert 'hx-get="/games/{0}/panels/trade"'.format(game_id) in body  # the others stay closed
    version = live_version(body)
    record(client, game_id, roll("Aki", 1, 2))
    live = client.get(f"/games/{game_id}?v={version}&open=mortgages", headers=HX)
    assert live.status_code == 200 and MORTGAGE_BALTIC in text(live) and 'class="board40"' not in live.get_data(
        as_text=True)


def test_the_panels_the_referee_keeps_open_are_drawn_open_after_an_entry(client):
    """referee.js notes the panels the referee opened in the ``panels`` cookie of the game's pages."""
    game_id = trade_page(client)
    client.set_cookie("panels", "board|deeds-0", path=f"/games/{game_id}")
    r = record(client, game_id, roll("Aki", 1, 2))  # the screen the entry reloads
    body = r.get_data(as_text=True)
    assert 'class="board40"' in body and 'class="deedlist"' in body and "Baltic Avenue" in text(r)
    assert 'data-panels-path="/games/{0}"'.format(game_id) in body  # the cookie's path, for referee.js


def test_a_debt_opens_the_ways_to_raise_cash_by_itself(client):
    blues = {sq: {"owner": "Ben", "buildings": "hotel"} for sq in ("oriental-avenue", "vermont-avenue",
                                                                   "connecticut-avenue")}
    game_id = from_position(client, {"players": {"Aki": {"cash": 10}},
                                     "deeds": {**blues, "baltic-avenue": {"owner": "Aki"}}}, players=("Aki", "Ben"))
    record(client, game_id, roll("Aki", 2, 4))  # Aki owes Ben the rent on Oriental Avenue's hotel
    body = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert '<details id="trade" data-panel="trade" data-keep open>' in body and "trade-form-0-1" in body


def test_a_name_that_is_no_panel_changes_nothing(client):
    game_id = trade_page(client)
    r = client.get(f"/games/{game_id}/panels/nothing")
    assert r.status_code == 404 and "the table screen has no panel nothing" in text(r)
    assert client.get(f"/games/{game_id}/panels/deeds-9").status_code == 404  # three players: seats 0 to 2
    assert client.get(f"/games/{game_id}/panels/{'x' * 100_000}").status_code == 404
    for name in ("board%00", "deeds--1", "deeds-0%00", "%3Cb%3E"):
        r = client.get(f"/games/{game_id}/panels/{name}")
        assert r.status_code == 404 and "<b>" not in r.get_data(as_text=True), name
    plain = client.get(f"/games/{game_id}").get_data(as_text=True)
    client.set_cookie("panels", "|".join(["nothing", "deeds-9", "../x", "<b>"] * 150), path=f"/games/{game_id}")
    for query in ("?open=" + "x" * 1_000_000, "?open=<script>,deeds-99,,", "?open=board&open=trade",
                  "?open=board%00,deeds--1"):
        r = client.get(f"/games/{game_id}{query}")
        assert r.status_code == 200 and "<script>" not in r.get_data(as_text=True).split("</head>", 1)[1]
    assert 'class="board40"' not in plain


def test_a_locked_tablet_opening_a_panel_is_sent_to_the_pin_screen(app, client):
    game_id = trade_page(client)
    stranger = app.test_client()
    r = stranger.get(f"/games/{game_id}/panels/mortgages", headers=HX)
    assert r.status_code == 403 and r.headers["HX-Redirect"] == f"/games/{game_id}/unlock"
    assert stranger.get(f"/games/{game_id}/panels/mortgages").status_code == 302
