"""Every device at a table asks every second whether anything changed: the answer "nothing new" (204) is read
from one statement by the game's index (its clock, its last stored entry, the counts of its rulings, calls for a
judge, sign-offs and corrections), the game not loaded nor its record folded; and the version it compares is the
very one the screen was drawn at, through every kind of change a table's screens follow."""
import html
import json

import pytest
from sqlalchemy import event, func, select

from conftest import new_game, seated_first_table, templates_drawn
from test_live_table import HX, live_version
from test_table_words import record, roll

from referee.store import db as store
from referee.store.db import db
from referee.store.models import GameRow
from referee.services import clocks, entry_keys, folds, rulings, stamps

DIRECTOR_PIN = "135791"


def drawn_at(client, game_id: int) -> str:
    return live_version(client.get(f"/games/{game_id}").get_data(as_text=True))


def same_version_both_ways(app, client, game_id: int) -> str:
    with app.app_context():
        polled = stamps.poll_version(game_id)
        stamped = stamps.stamp(folds.load(game_id)).version
        db.session.remove()
    assert polled == stamped == drawn_at(client, game_id)
    return polled


def seated_table(app, client) -> tuple[int, str]:
    """A tournament's first table, its seating roll-off over, the client unlocked at it; its first player."""
    _, game_id, first, _ = seated_first_table(app, DIRECTOR_PIN)
    assert client.post(f"/games/{game_id}/unlock", data={"pin": DIRECTOR_PIN}).status_code == 302
    return game_id, first


def test_the_polls_version_is_the_screens_through_entries_the_clock_a_call_and_a_ruling(app, client):
    game_id, first = seated_table(app, client)
    seen = [same_version_both_ways(app, client, game_id)]
    record(client, game_id, roll(first, 1, 3))
    seen.append(same_version_both_ways(app, client, game_id))
    with app.app_context():
        clocks.set_clock(game_id, True)
    seen.append(same_version_both_ways(app, client, game_id))
    with app.app_context():
        clocks.set_clock(game_id, False)
    seen.append(same_version_both_ways(app, client, game_id))
    with app.app_context():
        rulings.call_judge(game_id, 1, "Ben")
    seen.append(same_version_both_ways(app, client, game_id))
    with app.app_context():
        rulings.record_ruling(game_id, 1, "Ben: the dice left the table", "the roll stands", "dice", "judge")
    seen.append(same_version_both_ways(app, client, game_id))
    assert len(set(seen)) == len(seen)  # each change moved it


@pytest.fixture
def statements(app):
    sent: list[str] = []
    with app.app_context():
        engines = {db.engine, stamps.poll_engine()}  # (on a database server, the polls' own)
    listener = lambda conn, cursor, statement, *rest: sent.append(statement)  # noqa: E731
    for engine in engines:
        event.listen(engine, "before_cursor_execute", listener)
    yield sent
    for engine in engines:
        event.remove(engine, "before_cursor_execute", listener)


def test_an_unchanged_poll_is_answered_from_one_statement_without_loading_the_game(app, client, statements,
                                                                                     monkeypatch):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 3))
    version = drawn_at(client, game_id)

    def not_loaded(*args, **kwargs):
        raise AssertionError("an unchanged poll loaded the game")

    monkeypatch.setattr(folds, "load", not_loaded)
    monkeypatch.setattr(folds, "load_many", not_loaded)
    statements.clear()
    assert client.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204
    # the poll's one statement: the table's version and the device's unlock (its grants) read together
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1, statements
    statements.clear()
    spectators = app.test_client()  # the spectators' display needs no unlock: the poll's statement alone
    assert spectators.get(f"/games/{game_id}/display?v={version}", headers=HX).status_code == 204
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1, statements


def test_a_poll_naming_another_version_or_asking_for_an_entry_is_answered_in_full(app, client):
    game_id = new_game(client)
    record(client, game_id, roll("Aki", 1, 3))
    version = drawn_at(client, game_id)
    changed = client.get(f"/games/{game_id}?v=not-{version}", headers=HX)
    assert changed.status_code == 200 and '<div id="tablelive"' in changed.get_data(as_text=True)
    at_start = client.get(f"/games/{game_id}?v={version}&at=0", headers=HX)  # the table at its start: not a poll
    assert at_start.status_code == 200
    with app.app_context():
        assert stamps.poll_version(game_id + 1000) is None  # no such game: the poll goes the usual way (its page)


def selects(statements: list[str]) -> list[str]:
    return [s for s in statements if s.lstrip().upper().startswith("SELECT")]


def test_a_changed_poll_reads_the_tables_version_its_counts_and_the_devices_grants_once(app, client, statements):
    """A second tablet's poll after an entry: the statement read before Flask's request (the version, the stamp's
    counts, the device's grants) is all of those the view needs; it reads the game's row for the fold besides, and
    nothing twice."""
    game_id = new_game(client)
    version = drawn_at(client, game_id)
    second = app.test_client()
    with client.session_transaction() as unlocked:
        tokens = dict(unlocked)["grants"]
    with second.session_transaction() as session:
        session["grants"] = tokens
    assert second.get(f"/games/{game_id}?v={version}", headers=HX).status_code == 204
    record(client, game_id, roll("Aki", 1, 3))
    statements.clear()
    changed = second.get(f"/games/{game_id}?v={version}", headers=HX)
    read = selects(statements)
    assert changed.status_code == 200 and live_version(changed.get_data(as_text=True)) == drawn_at(client, game_id)
    assert len(read) == 2, read  # the poll's statement, then the game's row with its last entry (the kept fold's)
    assert sum("grants" in s for s in read) == 1 and sum("rulings" in s for s in read) == 1, read


def test_a_tap_reads_its_key_its_grants_and_the_game_once_writes_its_entry_and_key_as_two_rows_and_makes_its_screen(
        app, client, statements):
    """A tap's record (the form's answer, before the screen it leads to): the form's key looked up, the device's
    grants read, the game's row read (the kept fold's check); then the entry and its key written, each one INSERT;
    then the screen it leads to made from the game as recorded: its row as read (the record's values, not read
    again after the commit) and the stamp's counts read, nothing else.  That screen's own request then reads one statement (the version and
    the device's grants) and draws nothing: the page made is answered as it was kept."""
    game_id = new_game(client)
    first = client.post(f"/games/{game_id}/record", data={  # (the first such screen, the views': their headers learnt)
        "seq": 0, "entry": json.dumps({"type": "roll", "player": "Aki"}), "dice": "1,2"})
    assert client.get(first.headers["Location"]).status_code == 200
    statements.clear()
    answer = client.post(f"/games/{game_id}/record", data={
        "seq": 1, "entry": json.dumps({"type": "buy", "player": "Aki"}), "entry_key": entry_keys.new_key()})
    assert answer.status_code == 303 and "?said=" in answer.headers["Location"]
    read = selects(statements)
    assert len(read) == 4, statements
    assert "grants" in read[0] and "entry_keys" in read[1] and "games" in read[2] and "rulings" in read[3], read
    inserts = [s for s in statements if s.lstrip().upper().startswith("INSERT")]
    assert [s.split()[2] for s in inserts] == ["entries", "entry_keys"], inserts
    assert [s.split()[0].upper() for s in statements if not s.lstrip().upper().startswith(("SELECT", "INSERT"))] \
        in ([], ["BEGIN"]), statements
    statements.clear()
    with templates_drawn(app) as names:
        screen = client.get(answer.headers["Location"])
    assert screen.status_code == 200 and "Aki buys Baltic Avenue" in html.unescape(screen.get_data(as_text=True))
    assert len(selects(statements)) == 1 and names == [], (statements, names)
    with app.app_context():
        assert folds.load(game_id).seq == 2


def test_rows_written_past_the_unit_of_work_are_none_for_no_rows(app, client):
    """``db.insert_rows`` of no rows writes none (an INSERT of no values would write one of the table's defaults, which
    a record must never hold): a run of no entries stores nothing."""
    game_id = new_game(client)
    with app.app_context():
        from referee.store.models import EntryRow
        store.insert_rows(EntryRow, [])
        db.session.commit()
        assert folds.load(game_id).seq == 0
        assert db.session.scalar(select(func.count()).select_from(EntryRow)) == 0


def test_a_tap_after_time_is_called_reads_the_games_row_once_and_writes_nothing_to_it(app, client, statements):
    """Time called stops the game clock (JMA competition rules 2006, 補足ルール, the time-limit game), once: the taps
    after it, the clock stopped already, read the game's row once as any tap does (with its record's end) and write
    nothing to it, not read it again to stop a clock that stands (the tablets' taps of a round's last minutes)."""
    game_id = new_game(client)
    with app.app_context():
        db.session.get(GameRow, game_id).time_limit_minutes = 60
        db.session.commit()
        clocks.set_clock(game_id, True)
    record(client, game_id, {"type": "time_called"})
    statements.clear()
    answer = client.post(f"/games/{game_id}/record", data={
        "seq": 1, "entry": json.dumps({"type": "roll", "player": "Aki"}), "dice": "1,3",
        "entry_key": entry_keys.new_key()})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    read = selects(statements)
    assert len(read) == 4, read  # the device's grants, the form's key, the game's row with its end, the counts
    assert not [s for s in statements if s.lstrip().upper().startswith("UPDATE")], statements
    with app.app_context():
        now = folds.load(game_id)
        assert now.seq == 2 and now.game.state.time_called and not clocks.clock(now.row).running
