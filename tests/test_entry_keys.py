"""Exactly once, and told so: every entry form carries the key of the screen it was drawn on; the same form sent
again (its answer lost on the way) records nothing more and is told its entry was recorded, once, never "nothing
was recorded"; a key sent with another entry is refused; and a screen whose network came back is told what was
recorded meanwhile, and on which device."""
import json
import re

import pytest
from sqlalchemy import select

from referee.store.models import EntryKeyRow
from referee.services import entry_keys
from conftest import new_game
from test_table_words import record, roll

HX = {"HX-Request": "true"}
ROLL = {"type": "roll", "player": "Aki"}


def keys_on(page: str) -> set[str]:
    return set(re.findall(r'name="entry_key" value="([^"]+)"', page))


def key_of(client, game_id: int) -> str:
    """The key of the table screen as the tablet draws it now (every entry form of one drawing carries it)."""
    keys = keys_on(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert len(keys) == 1, keys
    return keys.pop()


def send(client, game_id, seq, entry, key, headers=None, **fields):
    return client.post(f"/games/{game_id}/record", headers=headers or {},
                       data={"seq": seq, "entry": json.dumps(entry), "entry_key": key, **fields}, follow_redirects=True)


def rolls(client, game_id) -> list[dict]:
    lines = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()[1:]
    return [{k: v for k, v in json.loads(line).items() if k != "seq"} for line in lines]


def test_every_drawing_of_the_table_screen_has_a_new_unguessable_key_on_every_entry_form(client):
    game_id = new_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    forms = page.count('name="seq"')
    assert forms >= 1 and page.count('name="entry_key"') == forms  # each entry form carries one
    first, second = key_of(client, game_id), key_of(client, game_id)
    assert first != second and entry_keys.KEY.fullmatch(first) and len(first) >= 24


def test_a_plain_form_sent_again_after_its_answer_was_lost_is_told_recorded_once(client):
    game_id = new_game(client)
    key = key_of(client, game_id)
    first = send(client, game_id, 0, ROLL, key, dice="1,3").get_data(as_text=True)
    assert "Aki moves to Income Tax" in first and "Recorded (once)" not in first
    again = send(client, game_id, 0, ROLL, key, dice="1,3").get_data(as_text=True)
    assert ("Recorded (once): this tap was sent again after its answer was lost. It was recorded when it first "
            "came, as below, and nothing more now.") in again
    assert "<li>1 · Aki rolls 1+3</li>" in again  # the entry, its number and the log's words
    assert "nothing was recorded" not in again and 'class="flash refused"' not in again
    assert 'data-seq="1"' in again  # the table after that entry
    assert rolls(client, game_id) == [{**ROLL, "dice": [1, 3]}]


def test_an_htmx_request_sent_again_is_answered_with_the_table_and_recorded_once(client):
    game_id = new_game(client)
    key = key_of(client, game_id)
    first = send(client, game_id, 0, ROLL, key, HX, dice="2,3")
    text = first.get_data(as_text=True)
    assert first.status_code == 200 and '<div id="tablelive"' in text and "<html" not in text
    assert "Aki moves to Reading Railroad" in text  # the outcome, at the top of the live region
    for _ in range(2):  # the browser sent it again, twice
        again = send(client, game_id, 0, ROLL, key, HX, dice="2,3")
        text = again.get_data(as_text=True)
        assert again.status_code == 200 and '<div id="tablelive"' in text
        assert "Recorded (once)" in text and "<li>1 · Aki rolls 2+3</li>" in text
        assert "nothing was recorded" not in text
        assert again.headers["Cache-Control"] == "no-store"
    assert rolls(client, game_id) == [{**ROLL, "dice": [2, 3]}]


def test_a_form_sent_again_after_another_tablet_recorded_more_is_still_told_recorded_once(app, client):
    game_id = new_game(client)
    key = key_of(client, game_id)
    send(client, game_id, 0, ROLL, key, dice="1,2")
    other = app.test_client()
    assert other.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    record(other, game_id, {"type": "buy", "player": "Aki"}, roll("Ben", 3, 4))
    again = send(client, game_id, 0, ROLL, key, dice="1,2").get_data(as_text=True)
    assert "Recorded (once)" in again and "<li>1 · Aki rolls 1+2</li>" in again
    assert "Another entry came first" not in again
    assert [e["type"] for e in rolls(client, game_id)] == ["roll", "buy", "roll"]


def test_a_key_sent_again_with_another_entry_is_refused_and_records_nothing(client):
    game_id = new_game(client)
    key = key_of(client, game_id)
    send(client, game_id, 0, ROLL, key, dice="1,2")
    for seq, dice in ((0, "5,6"), (1, "5,6")):  # the old screen's other button; a forged newer number
        page = send(client, game_id, seq, ROLL, key, dice=dice).get_data(as_text=True)
        assert "This screen&#39;s form was already used" in page or "This screen's form was already used" in page
        assert "already recorded entry 1; it was sent again with another entry, which was not recorded" in page
        assert "Recorded (once)" not in page
    assert rolls(client, game_id) == [{**ROLL, "dice": [1, 2]}]


@pytest.mark.parametrize("key", ["short", "x" * 65, "not a key!!!!!!!!!!!", "é" * 20])
def test_a_key_the_app_does_not_make_is_refused_and_records_nothing(client, key):
    game_id = new_game(client)
    page = send(client, game_id, 0, ROLL, key, dice="1,2").get_data(as_text=True)
    assert "this form is not one the table screen makes: nothing was recorded" in page
    r = client.post(f"/games/{game_id}/redo", data={"seq": 0, "entry_key": key}, follow_redirects=True)
    assert r.status_code == 200 and "this form is not one the table screen makes" in r.get_data(as_text=True)
    assert rolls(client, game_id) == []


def test_a_decline_and_its_opening_bid_sent_again_are_told_recorded_once_together(client):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 2))
    key = key_of(client, game_id)
    then = json.dumps({"type": "bid", "player": "Ben", "amount": 10})
    for _ in range(2):
        page = send(client, game_id, 1, {"type": "decline", "player": "Aki"}, key, then=then).get_data(as_text=True)
    assert "Recorded (once)" in page and re.search(r"<li>2 · [^<]*decline[^<]*</li>\s*<li>3 · [^<]*\$10[^<]*</li>",
                                                       page, re.I), page
    assert [e["type"] for e in rolls(client, game_id)] == ["roll", "decline", "bid"]


def test_a_redo_sent_again_is_told_recorded_once(client):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 3), {"type": "void", "count": 1})
    key = key_of(client, game_id)
    first = client.post(f"/games/{game_id}/redo", data={"seq": 2, "entry_key": key}, follow_redirects=True)
    assert "1 entry recorded again" in first.get_data(as_text=True)
    again = client.post(f"/games/{game_id}/redo", data={"seq": 2, "entry_key": key}, headers=HX)
    text = again.get_data(as_text=True)
    assert again.status_code == 200 and "Recorded (once)" in text and "<li>3 · Aki rolls 1+3</li>" in text
    assert [e["type"] for e in rolls(client, game_id)] == ["roll", "void", "roll"]


def test_the_key_is_kept_beside_its_entry_not_in_the_record_or_its_chain(app, client):
    game_id = new_game(client)
    key = key_of(client, game_id)
    send(client, game_id, 0, ROLL, key, dice="1,3")
    exported = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True)
    assert key not in exported
    with app.app_context():
        from referee.store.db import db
        row = db.session.scalars(select(EntryKeyRow).where(EntryKeyRow.game_id == game_id)).one()
        assert (row.key, row.seq, row.entries) == (key, 1, 1) and len(row.body) == 64
    assert "altered" not in client.get(f"/games/{game_id}").get_data(as_text=True)  # the chain reads as written


def test_a_screen_back_from_a_lost_network_is_told_what_another_device_recorded(app, client):
    game_id = new_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    version = page.split('data-version="', 1)[1].split('"', 1)[0]
    assert 'data-seq="0"' in page
    assert client.get(f"/games/{game_id}?v={version}&since=0", headers=HX).status_code == 204  # nothing happened
    other = app.test_client()
    assert other.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    record(other, game_id, roll("Aki", 1, 2), {"type": "buy", "player": "Aki"})
    text = client.get(f"/games/{game_id}?v={version}&since=0", headers=HX).get_data(as_text=True)
    assert "The network is back. 2 entries were made on another device while this tablet was cut off." in text
    assert re.search(r"<li>2 · [^<]*Baltic Avenue[^<]*</li>", text)  # each entry named, in the log's words
    assert text.index("2 · ") < text.index("1 · Aki rolls 1+2")  # the latest first, as the log
    assert 'data-seq="2"' in text
    ordinary = client.get(f"/games/{game_id}?v={version}", headers=HX).get_data(as_text=True)
    assert "The network is back" not in ordinary  # an ordinary poll is told nothing


def test_a_screen_back_from_a_lost_network_is_told_which_entries_its_own_tap_recorded(app, client):
    game_id = new_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    version = page.split('data-version="', 1)[1].split('"', 1)[0]
    key = keys_on(page).pop()
    send(client, game_id, 0, ROLL, key, dice="1,2")  # its answer was lost: the screen still shows entry 0
    other = app.test_client()
    assert other.post(f"/games/{game_id}/unlock", data={"pin": "123456"}).status_code == 302
    record(other, game_id, {"type": "buy", "player": "Aki"})
    text = client.get(f"/games/{game_id}?v={version}&since=0&keys=bad,{key}", headers=HX).get_data(as_text=True)
    assert "1 entry was made on another device" in text and "1 entry this screen sent was recorded (once)" in text
    assert "1 · Aki rolls 1+2 · sent from this screen" in text
    assert "The network is back" not in client.get(f"/games/{game_id}?v={version}&since=9", headers=HX).get_data(
        as_text=True)  # a number past the table's is no screen's: the ordinary region


@pytest.mark.parametrize("since, keys", [("-1", ""), ("99999999999", "x"), ("1e9", ","), ("0", "," * 5000),
                                         ("0", "\x00é%"), ("", "a" * 64 + "," + "b" * 70), ("٣", "")])
def test_a_forged_poll_of_a_returning_screen_gets_the_table_or_nothing_never_an_error(client, since, keys):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 2))
    r = client.get(f"/games/{game_id}", headers=HX, query_string={"v": "old", "since": since, "keys": keys})
    assert r.status_code == 200 and '<div id="tablelive"' in r.get_data(as_text=True)
    assert ("entry was made on another device" in r.get_data(as_text=True)) == (since == "0")
