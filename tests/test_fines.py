"""Fines for a breach at the table (the Russian classic text's Notes to the game: "$ 50" for playing in another
player's turn, for a move out of turn, for the dice leaving the table; options penalty_*): the table screen's fines
panel shows each fine with its amount on the button and records it behind a confirmation; the log and the result
sheet name who was fined, for what and how much; a ruleset without fines offers no panel."""
import html
import json
import re
import subprocess

import pytest

from test_table_words import imported, record

# what it checks (words, screens, rules, printed pages) is drawn from the same rows on either database: its app
# tests run on SQLite alone (tests/conftest.py: one_database)
pytestmark = pytest.mark.one_database

FINE = {"type": "penalty", "player": "Ben", "choice": "dice_off_table"}


def text(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def new_game(client, ruleset="classic", **options):
    return imported(client, ruleset, **options)


def test_the_fines_panel_shows_each_fine_with_its_amount_behind_a_confirmation(client):
    game_id = new_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'data-panel="fines"' in page and "Ben: the dice left the table, fine $50" not in page  # closed
    panel = client.get(f"/games/{game_id}/panels/fines")
    words = text(panel)
    for player in ("Aki", "Ben", "Chie"):
        for breach in ("playing in another player's turn", "a move out of turn", "the dice left the table"):
            assert f"{player}: {breach}, fine $50" in words
    assert "Fine Ben $50 for the dice left the table? It is paid to the bank" in words
    assert "Yes: Ben pays $50" in words
    body = panel.get_data(as_text=True)
    assert 'id="fine-1-dice_off_table"' in body and 'class="confirm"' in body


def test_a_fine_recorded_is_in_the_log_on_the_result_page_and_on_the_result_sheet(client, tmp_path):
    game_id = new_game(client)
    r = record(client, game_id, FINE)
    assert "Ben is fined $50: the dice left the table" in text(r)  # the log, and the flash of what followed
    assert "Ben pays the bank $50 as a fine" in text(r)
    page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert '{"type": "roll", "player": "Aki"}' in page  # the roll awaited before the fine is awaited again
    result = text(client.get(f"/games/{game_id}/result"))
    assert "Fines" in result and "the dice left the table" in result and "$50" in result
    pdf = tmp_path / "result.pdf"
    pdf.write_bytes(client.get(f"/games/{game_id}/result.pdf").data)
    sheet = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, check=True).stdout
    sheet = sheet.decode("utf-8")
    assert "Fines" in sheet and "the dice left the table" in sheet and "$50" in sheet


def test_the_fine_is_said_in_japanese(client):
    game_id = new_game(client)
    record(client, game_id, FINE)
    page = text(client.get(f"/games/{game_id}", headers={"Accept-Language": "ja"}))
    assert "Ben に罰金 $50：サイコロが場外に出た" in page


def test_a_ruleset_without_fines_offers_no_panel_and_refuses_one_naming_the_option(client):
    game_id = new_game(client, "jma-2006")
    assert 'data-panel="fines"' not in client.get(f"/games/{game_id}").get_data(as_text=True)
    r = client.post(f"/games/{game_id}/record", data={"seq": "0", "entry": json.dumps(FINE)}, follow_redirects=True)
    words = text(r)
    assert "No such fine in this game" in words and "Ben cannot be fined for this" in words
    assert client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).count("\n") == 1  # nothing recorded


def test_a_tournaments_regulation_sets_a_fine_under_any_ruleset(client):
    game_id = new_game(client, "jma-2006", penalty_out_of_turn_move=100)
    words = text(client.get(f"/games/{game_id}/panels/fines"))
    assert "Chie: a move out of turn, fine $100" in words and "the dice left the table" not in words
