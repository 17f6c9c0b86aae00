"""The dispute view: the table at entry N (referee/screens/dispute.py), reached from every log line and by number.
Entry N in words with what it brought about and its rulings (each citing its clause), what the table waited for
before and after it, the players' cash before and after and their holdings, the log up to N, when it was recorded,
the step links; read only; an entry number the game has none for (a forged 10,000-digit one included) refused in
words naming the range; its printed sheet."""
import html
import re
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

import pytest

from referee.engine import Game, Header, parse_entry
from referee.services import rulesets
from referee.screens.dispute import dispute_screen, entry_number, NoSuchEntry, time_words
from conftest import new_game, post

JMA = rulesets.load("jma-2006")
RENT = [{"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "buy", "player": "Aki"},
        {"type": "roll", "player": "Ben", "dice": [1, 2]}]  # Aki buys Baltic Avenue; Ben lands there and pays rent


def game_of(*entries, players=("Aki", "Ben", "Chie", "Dai")) -> Game:
    game = Game(JMA, Header(JMA.id, list(players), seating="fixed"), history=True)
    for entry in entries:
        game.record(parse_entry(entry))
    return game


def text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


# --- the screen value -------------------------------------------------------------------------------------------

def test_the_entry_in_dispute_is_in_words_with_what_it_brought_about_and_what_the_table_waited_for():
    screen = dispute_screen(game_of(*RENT), 3)
    assert (screen.n, screen.total) == (3, 3)
    assert screen.entry == "Ben rolls 1+2"
    assert "Ben pays Aki $4 rent" in screen.events and "Ben moves to Baltic Avenue" in screen.events
    assert screen.waiting_before == "waiting for Ben to roll"
    assert screen.waiting_after == "waiting for Chie to roll"
    assert screen.in_effect and screen.voided_by is None and screen.takes_back == ()


def test_each_players_cash_before_and_after_the_entry_and_their_holdings_after_it():
    screen = dispute_screen(game_of(*RENT), 3)
    aki, ben, chie, _ = screen.players
    assert (aki.cash_before, aki.cash_after, aki.changed) == ("$1,440", "$1,444", True)
    assert (ben.cash_before, ben.cash_after, ben.changed) == ("$1,500", "$1,496", True)
    assert (chie.cash_before, chie.cash_after, chie.changed) == ("$1,500", "$1,500", False)
    assert [d.square for g in aki.holdings.groups for d in g.deeds] == ["Baltic Avenue"]
    assert ben.holdings.deeds == 0 and screen.after.players[1].position == screen.after.ruleset.square("baltic-avenue").index
    assert screen.bank_stock == "In the bank: 32 houses, 12 hotels"


def test_the_log_runs_up_to_the_entry_and_no_further_and_the_steps_go_one_entry_each_way():
    game = game_of(*RENT)
    first, middle, last = (dispute_screen(game, n) for n in (1, 2, 3))
    assert [n for n, _, _ in middle.log] == [1, 2]
    assert middle.log[-1][1] == "Aki buys Baltic Avenue for $60"
    assert (first.previous, first.following) == (None, 2)
    assert (middle.previous, middle.following) == (1, 3)
    assert (last.previous, last.following) == (2, None)
    assert middle.waiting_before == "waiting for Aki to buy or decline Baltic Avenue"
    assert middle.waiting_after == "waiting for Ben to roll"


def test_equal_calls_are_a_ruling_citing_the_clause_and_not_repeated_in_the_entrys_words():
    game = game_of({"type": "roll", "player": "Aki", "dice": [1, 2]}, {"type": "decline", "player": "Aki"},
                   {"type": "bid", "players": ["Aki", "Dai"], "amount": 60})
    screen = dispute_screen(game, 3)
    assert screen.entry == "Aki = Dai bids $60 for Baltic Avenue"
    (ruling,) = screen.rulings
    assert ruling.rule == "auction_tie" and JMA.clauses["auction_tie"].source in ruling.source  # the original beside its words
    assert "Dai's call wins" in ruling.text
    assert "equal calls" in screen.log[-1][1]  # the log keeps its own words for it


def test_a_voided_entry_says_which_void_took_it_back_and_the_void_says_what_it_took():
    game = game_of(*RENT, {"type": "void", "count": 2})
    bought, void = dispute_screen(game, 2), dispute_screen(game, 4)
    assert not bought.in_effect and bought.voided_by == 4
    assert void.takes_back == (2, 3) and void.in_effect
    assert void.waiting_after == "waiting for Aki to buy or decline Baltic Avenue"
    assert [effective for _, _, effective in void.log] == [True, False, False, True]


def test_an_entry_number_the_game_has_none_for_is_refused_naming_the_range():
    game = game_of(*RENT)
    assert entry_number(game, "2") == 2 and entry_number(game, " 3 ") == 3
    for typed, words in [("0", "There is no entry 0. This game's entries are numbered 1 to 3."),
                         ("4", "There is no entry 4. This game's entries are numbered 1 to 3."),
                         ("-1", "There is no entry -1. This game's entries are numbered 1 to 3."),
                         ("two", "“two” is not an entry number. This game's entries are numbered 1 to 3."),
                         ("٣", "“٣” is not an entry number. This game's entries are numbered 1 to 3.")]:
        with pytest.raises(NoSuchEntry) as refused:
            entry_number(game, typed)
        assert refused.value.words == words
    with pytest.raises(NoSuchEntry) as refused:
        dispute_screen(game, 4)
    assert "numbered 1 to 3" in refused.value.words
    with pytest.raises(NoSuchEntry) as refused:
        entry_number(game_of(), "1")
    assert refused.value.words == "There is no entry 1. This game has no entries yet."


def test_a_forged_entry_number_of_ten_thousand_digits_is_refused_before_it_is_read():
    with pytest.raises(NoSuchEntry) as refused:
        entry_number(game_of(*RENT), "9" * 10_000)
    assert refused.value.words.startswith("“99999999999999999999… (10,000 characters)” is not an entry number")


def test_the_time_is_the_one_the_entry_was_stored_at_and_the_game_clock_is_said_to_be_unknown():
    lines = time_words(3, datetime(2026, 5, 3, 14, 2, 5), datetime(2026, 5, 3, 13, 59, 40))
    assert lines[0] == "Recorded at 2026-05-03 14:02:05 UTC."
    assert lines[1] == "2:25 after entry 2 was recorded."
    assert "game clock's reading at this entry is not kept" in lines[2]
    assert time_words(1, None, None)[0] == "When this entry was recorded is not known."
    assert time_words(5, datetime(2026, 5, 3, 16, 0, 0), datetime(2026, 5, 3, 14, 59, 1))[1] == \
        "1:00:59 after entry 4 was recorded."


def test_the_game_it_was_built_from_is_left_as_it_was():
    game = game_of(*RENT)
    before = (len(game.entries), game.state.players[1].cash, game.state.pending)
    dispute_screen(game, 2)
    assert (len(game.entries), game.state.players[1].cash, game.state.pending) == before


# --- the page, its addresses, the sheet -------------------------------------------------------------------------

def recorded(client) -> int:
    game_id = new_game(client, players="Aki\nBen\nChie\nDai")
    for seq, entry in enumerate(RENT):
        fields = {"dice": ",".join(map(str, entry["dice"]))} if "dice" in entry else {}
        post(client, game_id, seq, {k: v for k, v in entry.items() if k != "dice"}, **fields)
    return game_id


def test_every_log_line_links_to_the_table_at_its_entry(client):
    game_id = recorded(client)
    for page in (client.get(f"/games/{game_id}/log"), client.get(f"/games/{game_id}")):
        body = page.get_data(as_text=True)
        for n in (1, 2, 3):
            assert f'href="/games/{game_id}/entries/{n}"' in body
        assert "?at=" not in body


def test_the_dispute_page_shows_the_entry_the_waiting_the_cash_the_time_and_steps(client):
    game_id = recorded(client)
    page = client.get(f"/games/{game_id}/entries/2")
    assert page.status_code == 200
    words = text(page.get_data(as_text=True))
    assert "Entry 2 of 3 Aki buys Baltic Avenue for $60" in words
    assert "Before this entry, the table was waiting for waiting for Aki to buy or decline Baltic Avenue" in words
    assert "After it, the table waited for waiting for Ben to roll" in words
    assert "$1,440 before this entry: $1,500" in words
    assert re.search(r"Recorded at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\. \d+:\d\d after entry 1 was recorded\.", words)
    assert "The log up to entry 2" in words and "Ben rolls" not in words
    body = page.get_data(as_text=True)
    assert f'rel="prev" href="/games/{game_id}/entries/1"' in body
    assert f'rel="next" href="/games/{game_id}/entries/3"' in body
    assert f'action="/games/{game_id}/entries"' in body and 'max="3"' in body


def test_cash_that_fell_is_never_marked_as_a_gain_and_cash_that_rose_may_be(client):
    """Ben pays Aki rent at entry 3: Aki's cash is marked a gain, Ben's a loss, Chie's not at all; the stylesheet
    gives a loss the colour of a refusal, never the green of a gain (nor the page's green accent)."""
    screen = dispute_screen(game_of(*RENT), 3)
    aki, ben, chie, _ = screen.players
    assert (aki.change, aki.trend) == (4, "gain") and (ben.change, ben.trend) == (-4, "loss")
    assert (chie.change, chie.trend, chie.changed) == (0, "", False)
    game_id = recorded(client)
    page = client.get(f"/games/{game_id}/entries/3").get_data(as_text=True)
    marks = {name: set(cls.split())
             for cls, name in re.findall(r'<div class="player ([a-z ]*?)\s*">\s*<div><strong>(\w+)</strong>', page)}
    assert marks["Ben"] == {"changed", "loss"} and marks["Aki"] == {"changed", "gain"} and marks["Chie"] == set()
    css = (Path(__file__).parents[1] / "referee" / "web" / "static" / "referee.css").read_text(encoding="utf-8")
    rules = {selector.strip(): body
             for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", re.sub(r"/\*.*?\*/", "", css, flags=re.S))}
    green = ("var(--good)", "var(--accent)", re.search(r"--good:([^;]+);", css).group(1),
             re.search(r"--accent:([^;]+);", css).group(1))
    for selector, body in rules.items():  # a rule that reaches a changed player's cash but not only a gain's
        if ("changed" in selector or "loss" in selector) and "gain" not in selector:
            assert not any(colour in body for colour in green), selector
    assert "color:var(--bad)" in rules[".player.changed.loss .cash"]


def test_the_dispute_view_is_read_only_and_needs_no_unlock_as_the_log_needs_none(app, client):
    game_id = recorded(client)
    stranger = app.test_client()  # no PIN given on this device
    assert stranger.get(f"/games/{game_id}/log").status_code == 200
    page = stranger.get(f"/games/{game_id}/entries/3").get_data(as_text=True)
    assert "Ben rolls 1+2" in page and 'action="/games/' + str(game_id) + '/record"' not in page
    assert "<form method=\"post\"" not in page.split("<main>")[1]
    assert client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).count("\n") == 4  # nothing recorded


def test_the_go_to_entry_form_and_the_old_state_after_address_lead_to_the_entry(client):
    game_id = recorded(client)
    r = client.get(f"/games/{game_id}/entries?n=2")
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{game_id}/entries/2"
    r = client.get(f"/games/{game_id}?at=3")
    assert r.status_code == 302 and r.headers["Location"] == f"/games/{game_id}/entries/3"
    assert "as it was after entry 0" in client.get(f"/games/{game_id}?at=0").get_data(as_text=True)


@pytest.mark.parametrize("path", ["/entries/0", "/entries/4", "/entries/-1", "/entries/x", "/entries?n=4",
                                  "/entries?n=", "/entries/4/sheet.pdf", "/entries/" + "9" * 10_000,
                                  "/entries?n=" + "9" * 10_000])
def test_an_entry_the_game_has_not_is_refused_in_words_with_the_form_to_type_another(client, path):
    game_id = recorded(client)
    r = client.get(f"/games/{game_id}{path}")
    assert r.status_code == 404
    words = text(r.get_data(as_text=True))
    assert "This game's entries are numbered 1 to 3." in words and "Go to entry" in words


def test_the_dispute_view_in_japanese(client):
    game_id = recorded(client)
    words = text(client.get(f"/games/{game_id}/entries/3", headers={"Accept-Language": "ja"}).get_data(as_text=True))
    assert "記録 3 件目（全 3 件）" in words and "この記録の前、卓が待っていたもの" in words


for tool in ("pdftotext", "pdffonts"):
    if shutil.which(tool) is None:  # scripts/setup --tests installs poppler-utils
        pytest.fail(f"{tool} is missing: run scripts/setup --tests", pytrace=False)


def test_the_printed_sheet_has_the_entry_the_waiting_the_players_and_the_log_as_text(client, tmp_path):
    game_id = new_game(client, players="佐藤 葵\n김민수\nJürgen")
    post(client, game_id, 0, {"type": "roll", "player": "佐藤 葵"}, dice="1,2")
    post(client, game_id, 1, {"type": "buy", "player": "佐藤 葵"})
    r = client.get(f"/games/{game_id}/entries/2/sheet.pdf?size=Letter")
    assert r.status_code == 200 and r.mimetype == "application/pdf" and r.data.startswith(b"%PDF")
    path = tmp_path / "entry.pdf"
    path.write_bytes(r.data)
    sheet = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True).stdout
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, check=True).stdout.decode()
    words = re.sub(r"\s+", " ", sheet.decode("utf-8"))
    for name in ("佐藤 葵", "김민수", "Jürgen"):
        assert name in words
    assert "The table at entry 2" in words and "佐藤 葵 buys Baltic Avenue for $60" in words
    assert "waiting for 김민수 to roll" in words and "The log up to entry 2" in words
    cjk = [line for line in fonts.splitlines() if "CJK" in line]
    assert cjk and all(" yes " in line for line in cjk)  # embedded
