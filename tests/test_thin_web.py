"""The web layer is thin: one record POST loads its table once (the service returns what it recorded, with the
game and the state before it), and a game or tournament that is not there is one page in the device's language,
from one handler, whatever the view."""
from __future__ import annotations

import html

import pytest

from referee.services import folds, games

from conftest import new_game, post


def loads_counted(monkeypatch) -> list[int]:
    """The games loaded from now on (the service's and the views' loads), in order."""
    loads: list[int] = []
    real = folds.load

    def counted(game_id):
        loads.append(game_id)
        return real(game_id)

    monkeypatch.setattr(folds, "load", counted)
    monkeypatch.setattr(games, "load", counted)
    return loads


def test_a_recorded_entry_loads_its_table_once_and_says_what_happened(client, monkeypatch):
    game_id = new_game(client)
    loads = loads_counted(monkeypatch)
    r = client.post(f"/games/{game_id}/record", data={"seq": 0, "entry": '{"type": "roll", "player": "Aki"}',
                                                      "dice": "1,2"})
    assert r.status_code == 303 and loads == [game_id]
    monkeypatch.undo()
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Aki rolls 1+2" in page and "Aki moves to Baltic Avenue" in page


def test_a_tap_sent_by_htmx_loads_its_table_once_and_is_answered_with_the_region_as_recorded(client, monkeypatch):
    """The tablet's tap with its standby ready (htmx): the region it is answered with is drawn from the table as the
    service recorded it, not loaded again."""
    game_id = new_game(client)
    loads = loads_counted(monkeypatch)
    r = client.post(f"/games/{game_id}/record", data={"seq": 0, "entry": '{"type": "roll", "player": "Aki"}',
                                                      "dice": "1,2"}, headers={"HX-Request": "true"})
    region = r.get_data(as_text=True)
    assert r.status_code == 200 and loads == [game_id]
    assert 'data-seq="1"' in region and "Aki rolls 1+2" in region and 'class="flash done"' in region


def test_a_refused_entry_loads_its_table_once_and_names_the_clause(client, monkeypatch):
    game_id = new_game(client)
    loads = []
    real = folds.load
    monkeypatch.setattr(games, "load", lambda g: loads.append(g) or real(g))
    monkeypatch.setattr(folds, "load", lambda g: loads.append(g) or real(g))
    r = client.post(f"/games/{game_id}/record", data={"seq": 0, "entry": '{"type": "roll", "player": "Ben"}',
                                                      "dice": "1,2"})
    assert r.status_code == 303 and loads == [game_id]
    monkeypatch.undo()
    page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Not that player's decision" in page and "a roll of the dice by Ben: waiting for Aki to roll" in page
    assert "The player rolls two dice, moves their token forward by the total" in page  # the clause's own text


@pytest.mark.parametrize("path, message", [
    ("/games/999/unlock", "no game 999"), ("/games/999/log", "no game 999"), ("/games/999/result", "no game 999"),
    ("/games/999/record.jsonl", "no game 999"), ("/games/999/result.pdf", "no game 999"),
    ("/tournaments/999/standings", "no tournament 999"), ("/tournaments/999/standings.csv", "no tournament 999"),
    ("/tournaments/999/unlock", "no tournament 999"),
])
def test_a_game_or_tournament_that_is_not_there_is_one_page_saying_which(client, path, message):
    r = client.get(path)
    assert r.status_code == 404 and message in r.get_data(as_text=True)
    assert client.get(path, headers={"HX-Request": "true"}).get_data() == b""  # a poll gets no page to swap in


def test_the_not_found_page_speaks_the_devices_language(client):
    client.get("/lang/ja")
    assert "ゲーム999はありません" in client.get("/games/999/log").get_data(as_text=True)
