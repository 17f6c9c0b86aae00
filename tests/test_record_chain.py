"""A tamper-evident record (issue 12): each stored entry carries a hash chained to the one before, every full read
checks it, an altered, inserted or removed entry is reported as "the record was altered at entry N" on every page
of the game (shown up to the entry before, export kept whole, nothing more recorded), and ``referee verify`` names
each broken game.  A finished game's result is kept with the hash it was computed at, so its pages do not replay
the record."""
import json
from pathlib import Path

import pytest
import sqlalchemy
from flask_migrate import downgrade, upgrade

from referee.engine import chain
from referee import cli
from referee.cache import FOLDS
from referee.services import errors, folds, games, tournaments
from referee.app import MIGRATIONS
from referee.store.db import db
from referee.engine import ranking
from referee.store.models import EntryRow


GOLDEN = Path(__file__).parent / "golden"
PIN = "123456"
PAGES = ["/games/{g}", "/games/{g}/display", "/games/{g}/log", "/games/{g}/result", "/games/{g}/result.pdf",
         "/games/{g}/record.jsonl", "/games/{g}/rules"]


def imported(app, client, name: str) -> int:
    with app.app_context():
        game_id = games.import_record((GOLDEN / name).read_text(encoding="utf-8"), PIN)
    client.post(f"/games/{game_id}/unlock", data={"pin": PIN})
    return game_id


def sql(app, statement: str, **params) -> None:
    """What someone with the database file could do behind the app's back, then the app restarted."""
    with app.app_context():
        db.session.execute(sqlalchemy.text(statement), params)
        db.session.commit()
    FOLDS.clear()


def test_every_stored_entry_carries_the_hash_chained_to_the_one_before(app, client):
    game_id = imported(app, client, "jma-short-game.jsonl")
    with app.app_context():
        games.record(game_id, {"type": "roll", "player": folds.load(game_id).game.state.players[
            folds.load(game_id).game.state.current].name, "dice": [1, 2]}, 45)
        header = folds.stored_header(game_id)
        rows = db.session.execute(sqlalchemy.select(EntryRow.seq, EntryRow.data, EntryRow.hash)
                                  .where(EntryRow.game_id == game_id).order_by(EntryRow.seq)).all()
    assert len(rows) == 46 and all(len(r.hash) == 64 for r in rows)
    head = chain.genesis(header)
    for seq, data, stored in rows:
        head = chain.link(head, seq, data)
        assert stored == head
    good, _, broken = chain.verify(header, rows)
    assert len(good) == 46 and broken is None


def test_a_legal_edit_in_the_database_is_reported_and_changes_nothing_shown(app, client):
    game_id = imported(app, client, "jma-short-game.jsonl")
    with app.app_context():
        before = folds.load(game_id).game.state_after(5)
    sql(app, "UPDATE entries SET data = :d WHERE game_id = :g AND seq = 6",
        d='{"type": "roll", "player": "Ben", "dice": [1, 4]}', g=game_id)  # the same square: still legal
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "The record was altered at entry 6" in page and "its stored text is not the one that was recorded" in page
    with app.app_context():
        table = folds.load(game_id)
        assert table.altered == folds.Altered(6, "changed") and table.seq == 5
        assert [p.cash for p in table.game.state.players] == [p.cash for p in before.players]
        with pytest.raises(errors.RecordAltered) as refused:
            games.record(game_id, {"type": "roll", "player": "Ben", "dice": [2, 3]}, 5)
        assert "altered at entry 6" in refused.value.message
    # the export keeps every stored entry, the altered one included, so a replay stops at the same place
    export = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True).splitlines()
    assert len(export) == 46 and '"dice": [1, 4]' in export[6]


@pytest.mark.parametrize("how, reason, at", [
    ("DELETE FROM entries WHERE game_id = :g AND seq = 10", "missing", 10),
    ("UPDATE entries SET hash = :h WHERE game_id = :g AND seq = 44", "changed", 44),
    ("UPDATE games SET header = :header WHERE id = :g", "changed", 1),
])
def test_a_removed_entry_a_forged_hash_or_an_edited_header_is_found_where_it_is(app, client, how, reason, at):
    game_id = imported(app, client, "jma-short-game.jsonl")
    with app.app_context():
        header = dict(folds.stored_header(game_id), players=["Aki", "Ben", "Chie"], meta={"title": "edited"})
    sql(app, how, g=game_id, h="0" * 64, header=json.dumps(header))
    with app.app_context():
        table = folds.load(game_id)
        assert (table.altered.at, table.altered.reason) == (at, reason)
    for path in PAGES:
        assert client.get(path.format(g=game_id)).status_code == 200, path
    assert f"The record was altered at entry {at}" in client.get(f"/games/{game_id}/result").get_data(as_text=True)


def test_an_illegal_edit_with_its_chain_recomputed_is_a_message_on_every_page_not_a_server_error(app, client):
    game_id = imported(app, client, "jma-short-game.jsonl")
    with app.app_context():
        rows = db.session.execute(sqlalchemy.select(EntryRow.seq, EntryRow.data).where(EntryRow.game_id == game_id)
                                  .order_by(EntryRow.seq)).all()
        header = folds.stored_header(game_id)
    head = chain.genesis(header)
    for seq, data in rows:  # entry 7 becomes a purchase by the wrong player; every hash is made again
        if seq == 7:
            data = '{"type": "buy", "player": "Chie"}'
        head = chain.link(head, seq, data)
        sql(app, "UPDATE entries SET data = :d, hash = :h WHERE game_id = :g AND seq = :s", d=data, h=head,
            g=game_id, s=seq)
    for path in PAGES:
        response = client.get(path.format(g=game_id))
        assert response.status_code == 200, path
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "The record was altered at entry 7" in page and "it no longer follows the rules" in page
    export = client.get(f"/games/{game_id}/record.jsonl").get_data(as_text=True)
    assert '"seq": 7, "type": "buy", "player": "Chie"' in export


def test_referee_verify_names_each_broken_game_and_passes_a_sound_database(app, client, database, capsys):
    sound = imported(app, client, "jma-short-game.jsonl")
    broken = imported(app, client, "jma-timed-rolloff.jsonl")
    assert cli.main(["verify", "--database", database]) == 0
    assert "2 game(s) checked, 0 altered" in capsys.readouterr().out
    sql(app, "UPDATE entries SET data = data || ' ' WHERE game_id = :g AND seq = 30", g=broken)
    assert cli.main(["verify", "--database", database]) == 1
    out = capsys.readouterr().out
    assert f"game {broken} " in out and "the record was altered at entry 30" in out
    assert f"game {sound} " not in out and "2 game(s) checked, 1 altered" in out


def test_the_migration_chains_the_entries_stored_before_it(app, client):
    game_id = imported(app, client, "jma-short-game.jsonl")
    with app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="a7c41e2b9d10")
        upgrade(directory=str(MIGRATIONS))
        FOLDS.clear()
        total, broken = folds.verify_all()
        assert total == 1 and broken == []
        assert folds.load(game_id).seq == 45


def test_a_finished_games_result_is_kept_and_its_pages_do_not_replay_the_record(app, client, monkeypatch):
    game_id = imported(app, client, "jma-timed-rolloff.jsonl")
    with app.app_context():
        table = folds.load(game_id)
        kept = folds.kept_result(table)
        assert kept is not None and kept["head"] == table.fold.head and kept["reason"] == "time"
        assert [p["rank"] for p in kept["ranking"]] == [st.rank for st in ranking(table.game.state)]
    from referee.tournament import charts

    def no_replay(game):
        raise AssertionError("the record was replayed")

    monkeypatch.setattr(charts, "net_worth_series", no_replay)
    monkeypatch.setattr(folds, "net_worth_series", no_replay)
    monkeypatch.setattr("referee.reports.net_worth_series", no_replay)
    assert client.get(f"/games/{game_id}/result").status_code == 200
    assert client.get(f"/games/{game_id}/result.pdf").status_code == 200
    # an edit behind the app's back: the kept result no longer matches the chain, and is not used
    sql(app, "UPDATE entries SET hash = :h WHERE game_id = :g AND seq = 145", h="1" * 64, g=game_id)
    with app.app_context():
        assert folds.kept_result(folds.load(game_id)) is None


def test_an_altered_table_offers_nothing_to_record_and_a_forged_entry_is_a_message(app, client):
    game_id = imported(app, client, "jma-short-game.jsonl")
    sql(app, "UPDATE entries SET data = data || ' ' WHERE game_id = :g AND seq = 20", g=game_id)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "The record was altered at entry 20" in page and 'action="/games/%d/record"' % game_id not in page
    r = client.post(f"/games/{game_id}/record", data={"seq": "19", "entry": '{"type": "time_called"}'},
                    follow_redirects=True)
    assert r.status_code == 200 and "nothing more is recorded in this game" in r.get_data(as_text=True)


def test_an_altered_table_does_not_hold_up_its_round(app, client):
    r = client.post("/tournaments", data={"name": "Cup", "scheme": "jma-placement", "ruleset": "jma-2006",
                                          "players": "\n".join(f"P{i}" for i in range(8)), "pin": "135791"})
    tid = int(r.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/tournaments/{tid}/rounds", data={"round": "1"})
    with app.app_context():
        first, second = tournaments.round_overview(tid, 1)
        for v in (first, second):  # the seating rolls, all different totals
            for n, (name, _, _) in enumerate(v.players):
                games.record(v.game_id, {"type": "seat_roll", "player": name, "dice": [n + 1, 1]}, n)
    sql(app, "UPDATE entries SET data = data || ' ' WHERE game_id = :g AND seq = 2", g=first.game_id)
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    card = page[page.index(f'id="table-{first.game_id}"'):page.index(f'id="table-{second.game_id}"')]
    assert "The record was altered at entry 2" in card and "does not hold up the next round" in card
    r = client.post(f"/tournaments/{tid}/rounds/1/time", follow_redirects=True)
    assert r.status_code == 200 and "time called on 1 table" in r.get_data(as_text=True)
    with app.app_context():
        assert folds.load(second.game_id).game.state.time_called


def test_the_kept_results_of_many_games_are_read_in_one_query(app, client):
    """A finished game's result is read only when asked for (the table screen does not show it); a tournament's
    results ask for many at once, in the one query that reads the games."""
    from sqlalchemy import event

    ids = [imported(app, client, "jma-timed-rolloff.jsonl") for _ in range(3)]
    with app.app_context():
        FOLDS.clear()
        statements = []
        listen = lambda *args: statements.append(args[2])  # noqa: E731  (before_cursor_execute's statement)
        event.listen(db.engine, "before_cursor_execute", listen)
        try:
            rows = folds.rows_with_tails(ids, results=True)
            heads = [row.result["head"] for row, _, _, _ in rows.values()]
            assert len(heads) == 3 and len([s for s in statements if "games" in s]) == 1
            statements.clear()
            rows = folds.rows_with_tails(ids)
            assert not any(row.result_read or row.result for row, _, _, _ in rows.values())
            assert len([s for s in statements if "games" in s]) == 1
            statements.clear()
            assert all(folds.kept_result(loaded)["head"] == loaded.fold.head for loaded in folds.load_many(ids))
            assert len([s for s in statements if "result" in s]) == 3  # each result read when asked
        finally:
            event.remove(db.engine, "before_cursor_execute", listen)


def _written_by_another_worker(app, game_id: int, lines: list[str]) -> None:
    """Entries stored by another process (another gunicorn worker), as its ``games.record`` writes them: each
    stored text chained to the one before; this process's kept fold knows nothing of them."""
    with app.app_context():
        header = folds.stored_header(game_id)
        rows = db.session.execute(sqlalchemy.select(EntryRow.seq, EntryRow.data).where(EntryRow.game_id == game_id)
                                  .order_by(EntryRow.seq)).all()
        head = chain.heads(header, [r.data for r in rows])[-1]
        for seq, line in enumerate(lines, start=len(rows) + 1):
            entry = json.loads(line)
            entry.pop("seq")
            data = json.dumps(entry, ensure_ascii=False)
            head = chain.link(head, seq, data)
            db.session.add(EntryRow(game_id=game_id, seq=seq, data=data, hash=head))
        db.session.commit()


def test_a_fold_kept_by_one_worker_is_carried_forward_over_the_entries_another_worker_recorded(
        app, client, monkeypatch):
    """Under several workers each keeps its own folds: a screen drawn after another worker recorded reads only the
    entries added since, checks their chain from the kept head on, and shows the same table as a whole read."""
    lines = (GOLDEN / "jma-short-game.jsonl").read_text(encoding="utf-8").splitlines()
    with app.app_context():
        game_id = games.import_record("\n".join(lines[:21]), PIN)  # the header and 20 entries
        kept = folds.load(game_id).fold
    _written_by_another_worker(app, game_id, lines[21:31])
    monkeypatch.setattr(folds, "read_fold", lambda *read: pytest.fail("the whole record was read again"))
    with app.app_context():
        table = folds.load(game_id)
        assert table.seq == 30 and table.altered is None and table.fold.stored == 30
        assert kept.stored == 20 and len(kept.game.entries) == 20  # the fold kept before is a value: left as it was
        assert folds.load(game_id).fold is table.fold  # the one carried forward is kept in its place
        carried, head = table.game.state, table.fold.head
    monkeypatch.undo()
    FOLDS.clear()
    with app.app_context():
        whole = folds.load(game_id)
        assert whole.fold.head == head and whole.game.state == carried


def test_the_entries_other_workers_added_to_many_games_are_read_in_one_statement(app, client, monkeypatch):
    """A director's poll on a worker that last answered it seconds ago finds most of the round's folds some entries
    behind: the entries added to all of them are read in one statement (not one a game), each game carried
    forward over its own, and one whose added entry does not chain is read whole and found altered."""
    lines = (GOLDEN / "jma-short-game.jsonl").read_text(encoding="utf-8").splitlines()
    with app.app_context():
        ids = [games.import_record("\n".join(lines[:21]), PIN) for _ in range(4)]
        kept = {g: folds.load(g).fold for g in ids}
    for n, game_id in enumerate(ids[:3]):
        _written_by_another_worker(app, game_id, lines[21:22 + 3 * n])  # 1, 4 and 7 entries
    with app.app_context():
        db.session.add(EntryRow(game_id=ids[3], seq=21, data=json.dumps({"type": "roll", "player": "Aki",
                                                                          "dice": [1, 2]}), hash="0" * 64))
        db.session.commit()
    statements: list[str] = []
    with app.app_context():
        def listen(conn, cursor, statement, *args):
            statements.append(statement)
        sqlalchemy.event.listen(db.engine, "before_cursor_execute", listen)
        try:
            tables = folds.load_many(ids)
        finally:
            sqlalchemy.event.remove(db.engine, "before_cursor_execute", listen)
        assert [t.seq for t in tables] == [21, 24, 27, 20]
        assert [kept[g].stored for g in ids] == [20] * 4  # the folds kept before are values: left as they were
        assert [t.fold is folds.load(g).fold for t, g in zip(tables, ids)] == [True] * 4
        assert tables[3].altered == folds.Altered(21, "changed")
        added = [s for s in statements if "FROM entries" in s and "entries.game_id" in s.split("FROM")[0]]
        assert len(added) == 1
        carried = [t.game.state for t in tables[:3]]
    FOLDS.clear()
    with app.app_context():
        assert [t.game.state for t in folds.load_many(ids[:3])] == carried


def test_an_entry_added_behind_the_apps_back_that_does_not_chain_is_found_altered_not_carried_forward(app, client):
    lines = (GOLDEN / "jma-short-game.jsonl").read_text(encoding="utf-8").splitlines()
    with app.app_context():
        game_id = games.import_record("\n".join(lines[:21]), PIN)
        folds.load(game_id)
        db.session.add(EntryRow(game_id=game_id, seq=21, data=json.dumps({"type": "roll", "player": "Aki",
                                                                            "dice": [1, 2]}), hash="0" * 64))
        db.session.commit()
        table = folds.load(game_id)
        assert table.seq == 20 and table.altered == folds.Altered(21, "changed")


def test_rows_read_just_before_another_thread_committed_do_not_make_the_whole_record_read_again(
        app, client, monkeypatch):
    """A poll reads the games' rows, another thread of the process commits an entry and moves the kept fold on,
    then the poll looks at the kept fold: it is ahead of the rows read, so the rows' end is read again (one
    statement), not the whole record."""
    lines = (GOLDEN / "jma-short-game.jsonl").read_text(encoding="utf-8").splitlines()
    with app.app_context():
        game_id = games.import_record("\n".join(lines[:21]), PIN)
        before = folds.rows_with_tails([game_id])  # read before the commit below
        entry = json.loads(lines[21])
        games.record(game_id, {k: v for k, v in entry.items() if k != "seq"}, 20)
        real, calls = folds.rows_with_tails, []
        monkeypatch.setattr(folds, "rows_with_tails", lambda ids, results=False: calls.append(ids) or (
            before if len(calls) == 1 else real(ids, results)))
        monkeypatch.setattr(folds, "read_fold", lambda *read: pytest.fail("the whole record was read again"))
        table = folds.load(game_id)
        assert table.seq == 21 and len(calls) == 2


def test_a_game_made_under_a_deleted_games_number_is_not_shown_as_the_deleted_one(app, client):
    """Another worker deleted a game of no entries and a new game took its number (SQLite reuses the highest):
    this process's kept fold of the old game is not the new one's, though both have no entry."""
    with app.app_context():
        old = games.new_game("old", "jma-2006", ["Aki", "Ben"], "fixed", PIN)
        db.session.commit()
        number = old.id
        assert [p.name for p in folds.load(number).game.state.players] == ["Aki", "Ben"]
        db.session.execute(sqlalchemy.text("DELETE FROM games WHERE id = :id"), {"id": number})  # behind its back
        db.session.commit()
        new = games.new_game("new", "jma-2006", ["Chie", "Dan", "Eri"], "fixed", PIN)
        new.id = number
        db.session.commit()
        assert [p.name for p in folds.load(number).game.state.players] == ["Chie", "Dan", "Eri"]
