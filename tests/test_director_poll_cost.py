"""The director's live poll costs what changed, not the number of tables: the same SQL statements for a round of
4 tables as for 16 (an unchanged poll answers 204 after a fixed few; a changed one reads every table in a fixed
number more), and a changed poll draws again only the cards of the tables that changed, never showing one as it
was."""
import random
from datetime import timedelta
import re

import flask
import pytest
import sqlalchemy
from sqlalchemy import event

from conftest import finish_seating

from referee import create_app
from referee.store.db import db
from referee.app.demo import play_table
from referee.engine import legal_actions
from referee.sim.policy import Policy
from referee.services import folds, games, grants, progress, results, roster, tournaments
from referee.tournament import progress as progress_rules
from referee.web.views import cards

PIN = "135791"


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 't.sqlite'}"})


def seated(app, tables: int) -> tuple[int, list[int]]:
    """A tournament of ``tables`` tables of 4, its first round seated and each table's seating roll-off over."""
    with app.app_context():
        players = [f"Player {n:03d}" for n in range(4 * tables)]
        tid = tournaments.create_tournament(f"Cup of {tables}", "jma-placement", "jma-2006", players, PIN, [60])
        progress.seat_round(tid, 1)
        ids = [t.game_id for t in tournaments.round_overview(tid, 1)]
        for game_id in ids:
            finish_seating(game_id)
        db.session.remove()
    return tid, ids


def roll(app, game_id: int) -> None:
    """One legal entry at the table (one the engine offers, drawn as the simulator draws them)."""
    with app.app_context():
        table = folds.load(game_id)
        chosen = Policy(random.Random(table.seq), "random").choose(table.game.state, legal_actions(table.game.state))
        games.record(game_id, chosen.to_dict(), table.seq)
        db.session.remove()


def version_of(page: str) -> str:
    return re.search(r'id="live-rounds"[^>]*data-version="([^"]+)"', page).group(1)


class Counted:
    """The SQL statements the app sends and the table cards it draws, from one request."""

    def __init__(self, app, monkeypatch=None):
        self.app, self.statements, self.cards, self.templates = app, 0, [], []
        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", self._statement)
        flask.template_rendered.connect(self._rendered, app)
        if monkeypatch is not None:  # a director's card is drawn in pieces, by macros: no template is rendered
            self._count_director_cards(monkeypatch)

    def _count_director_cards(self, monkeypatch):
        drawn = cards.director_card

        def director_card(pieces, kept, where, row, t, unlocked):
            self.cards.append(t.game_id)
            return drawn(pieces, kept, where, row, t, unlocked)

        monkeypatch.setattr(cards, "director_card", director_card)

    def _statement(self, *args):
        self.statements += 1

    def _rendered(self, sender, template, context, **extra):
        if template.name == "tournaments/_display_card.html":
            self.cards.append(context["t"].game_id)
        self.templates.append(template.name)

    def get(self, client, path: str):
        self.statements, self.cards, self.templates = 0, [], []
        return client.get(path, headers={"HX-Request": "true"})


def poll_costs(app, tables: int, monkeypatch) -> dict:
    tid, ids = seated(app, tables)
    counted = Counted(app, monkeypatch)
    client = app.test_client()
    assert client.post(f"/tournaments/{tid}/unlock", data={"pin": PIN}).status_code == 302
    first = counted.get(client, f"/tournaments/{tid}/live?v=none")
    assert first.status_code == 200 and sorted(counted.cards) == sorted(ids)  # every card drawn once
    assert counted.templates.count("tournaments/_standings.html") == 1
    version = version_of(first.get_data(as_text=True))
    unchanged = counted.get(client, f"/tournaments/{tid}/live?v={version}")
    assert unchanged.status_code == 204
    costs = {"unchanged": counted.statements}
    roll(app, ids[-1])
    changed = counted.get(client, f"/tournaments/{tid}/live?v={version}")
    assert changed.status_code == 200
    costs["changed"], costs["cards drawn"] = counted.statements, list(counted.cards)
    assert "tournaments/_standings.html" not in counted.templates  # no place changed: the standings kept
    costs["page"], costs["ids"] = changed.get_data(as_text=True), ids
    return costs


def test_the_directors_poll_sends_the_same_statements_for_4_tables_as_for_16(tmp_path, monkeypatch):
    small = poll_costs(create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                                   "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'small.sqlite'}"}), 4, monkeypatch)
    large = poll_costs(create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                                   "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'large.sqlite'}"}), 16, monkeypatch)
    assert small["unchanged"] == large["unchanged"] <= 10
    assert small["changed"] == large["changed"] <= 25
    # of 16 tables, one recorded an entry: its card alone is drawn again
    assert large["cards drawn"] == [large["ids"][-1]] and small["cards drawn"] == [small["ids"][-1]]


def test_a_table_that_changed_is_shown_as_it_is_now_and_its_clock_and_token_are_fresh(app):
    tid, ids = seated(app, 3)
    client = app.test_client()
    assert client.post(f"/tournaments/{tid}/unlock", data={"pin": PIN}).status_code == 302
    page = client.get(f"/tournaments/{tid}/live?v=none", headers={"HX-Request": "true"}).get_data(as_text=True)
    turn = re.search(rf'id="table-{ids[0]}".*?turn (\d+)', page, re.S).group(1)
    with app.app_context():
        before = folds.load(ids[0]).game.state.turn
        for _ in range(3):
            roll(app, ids[0])
        after = folds.load(ids[0]).game.state
        cash = [p.cash for p in after.players]
    assert int(turn) == before
    page = client.get(f"/tournaments/{tid}/live?v=none", headers={"HX-Request": "true"}).get_data(as_text=True)
    card = re.search(rf'<div class="player table-card[^"]*" id="table-{ids[0]}">.*?<div class="links">', page,
                     re.S).group(0)
    assert f"turn {after.turn}" in card
    assert [int(x.replace(",", "").lstrip("$")) for x in re.findall(r'<td class="n">([^<]+)</td>', card)] == cash
    assert "\x00" not in page  # every card's clock line and token put in
    assert page.count('<div class="clockline"><span class="clock') == 3


def test_the_room_display_draws_again_only_the_table_that_changed_and_shows_it_as_it_is(app, monkeypatch):
    tid, ids = seated(app, 6)
    counted = Counted(app, monkeypatch)
    client = app.test_client()
    first = counted.get(client, f"/tournaments/{tid}/display?v=none")
    assert first.status_code == 200 and sorted(counted.cards) == sorted(ids)
    version = re.search(r'[?&](?:amp;)?v=([0-9a-f]+)', first.get_data(as_text=True)).group(1)
    assert counted.get(client, f"/tournaments/{tid}/display?v={version}").status_code == 204
    for _ in range(2):
        roll(app, ids[2])
    changed = counted.get(client, f"/tournaments/{tid}/display?v={version}")
    assert changed.status_code == 200 and counted.cards == [ids[2]]
    assert "tournaments/_places.html" not in counted.templates  # no place changed: the places kept
    with app.app_context():
        state = folds.load(ids[2]).game.state
    cells = re.findall(r'<div class="player table-card[^"]*">.*?</div>', changed.get_data(as_text=True), re.S)[2]
    assert f"turn {state.turn}" in cells
    assert [int(x.replace(",", "").lstrip("$")) for x in re.findall(r'<td class="n">([^<]+)</td>', cells)] == [
        p.cash for p in state.players]


def test_the_standings_are_worked_out_once_while_a_round_records_and_again_when_a_table_ends_or_is_corrected_or_a_player_drops(
        app, monkeypatch):
    """The live pages ask where the tournament stands every second: while the round's tables record, nothing it
    is worked out from changes, so it is worked out once; a table that finishes, the director's correction of its
    result and a player's drop each give new standings at once (never the ones kept from before)."""
    tid, ids = seated(app, 2)
    worked = []
    real = progress_rules.progress
    monkeypatch.setattr(progress_rules, "progress", lambda *args: worked.append(1) or real(*args))

    def standings():
        with app.app_context():
            found = progress.tournament_progress(tid)
            db.session.remove()
        return found

    first = standings()
    for _ in range(4):
        roll(app, ids[0])
        roll(app, ids[1])
        assert standings() is first
    assert len(worked) == 1 and first.playing and all(not st.games for st in first.places)
    with app.app_context():
        play_table(ids[0], random.Random(1), 6)
        db.session.remove()
    ended = standings()
    assert len(worked) == 2 and ended.playing
    with app.app_context():
        result = results.table_result(tid, ids[0])
    winner = result["ranking"][0]["name"]
    assert len({st.player: st.games for st in ended.places}[winner]) == 1
    reverse_result(app, tid, ids[0], "scoring slip: the order was reversed")  # the last place to the winner
    corrected = standings()
    assert len(worked) == 3
    assert [st.player for st in corrected.places if st.games][-1] == winner != [
        st.player for st in ended.places if st.games][-1]
    with app.app_context():
        roster.change_player(tid, "Player 007", "drop", 1)
        db.session.remove()
    dropped = standings()
    assert len(worked) == 4 and dropped is not corrected
    assert standings() is dropped and len(worked) == 4


def reverse_result(app, tid: int, game_id: int, reason: str) -> list[dict]:
    """The director corrects the finished table's result to its order reversed (each player's total assets with
    it: the last place to the winner); the ranking it reverses."""
    with app.app_context():
        ranking = results.table_result(tid, game_id)["ranking"]
        places = {p["name"]: len(ranking) - k for k, p in enumerate(ranking)}
        totals = {p["name"]: p["total"] for p in ranking}
        assets = {name: totals[other["name"]] for name, other in zip(places, reversed(ranking))}
        results.correct_result(tid, game_id, places, assets, set(), False, reason, 0)
        db.session.remove()
    return ranking


def second_round(app, tables: int) -> tuple[int, list[int]]:
    """A tournament of ``tables`` tables whose round 1 is played out (time called at turn 3) and round 2 seated:
    the tournament and round 2's games."""
    tid, ids = seated(app, tables)
    with app.app_context():
        for k, game_id in enumerate(ids):
            play_table(game_id, random.Random(k), 3)
        progress.seat_round(tid, 2)
        second = [t.game_id for t in tournaments.round_overview(tid, 2)]
        db.session.remove()
    return tid, second


def finished_round_costs(app, tables: int, monkeypatch) -> int:
    """The statements of a changed director's poll once round 1 (``tables`` tables) is played out and round 2
    seated and under way."""
    tid, second = second_round(app, tables)
    counted = Counted(app, monkeypatch)
    client = app.test_client()
    assert client.post(f"/tournaments/{tid}/unlock", data={"pin": PIN}).status_code == 302
    version = version_of(counted.get(client, f"/tournaments/{tid}/live?v=none").get_data(as_text=True))
    roll(app, second[0])
    changed = counted.get(client, f"/tournaments/{tid}/live?v={version}")
    assert changed.status_code == 200 and counted.cards == [second[0]]
    return counted.statements


def test_a_finished_round_costs_the_directors_poll_no_statement_a_table(tmp_path, monkeypatch):
    """Every finished table of every round is on the director's page, with its result and its players' sign-offs:
    they are read for all of a round's tables at once, so 5 finished tables cost what 2 do."""
    few, more = (finished_round_costs(create_app({
        "TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / f'{n}.sqlite'}"}), n, monkeypatch) for n in (2, 5))
    assert few == more <= 25


def test_the_calls_for_a_judge_are_read_for_the_version_the_page_is_drawn_at_whatever_ran_before(app):
    """The open calls the director's page lists follow the version it is drawn at, passed to it, not what another
    read of the same unit of work left behind: a version counted before a call was made lists none (its page is
    drawn again at the next poll, whose version counts the call), one counted after lists the call."""
    from referee.services import rulings

    tid, game_ids = seated(app, 2)
    with app.app_context():
        before = tournaments.tournament_version(tid)
        rulings.call_judge(game_ids[1])
        after = tournaments.tournament_version(tid)
        assert before.open_calls == 0 and after.open_calls == 1 and after.token != before.token
        assert tournaments.waiting_calls(tid, before) == []
        assert [c.game_id for c in tournaments.waiting_calls(tid, after)] == [game_ids[1]]
    with app.app_context():  # a unit of work that read no version first
        assert [c.game_id for c in tournaments.waiting_calls(tid, tournaments.tournament_version(tid))] == [game_ids[1]]


class RosterReads:
    """The statements one request sends that read the tournament's players' rows."""

    def __init__(self, app):
        self.count = 0
        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", self._statement)

    def _statement(self, conn, cursor, statement, *args):
        self.count += "FROM tournament_players" in statement


def test_the_roster_is_read_once_and_again_only_after_a_change_of_its_players_rows(app):
    """The live pages ask for the roster every second (512 players' rows at a national final): it is kept by the
    stamp the tournament's row carries, written anew with every change of the players' rows, so a poll reads the
    rows only after such a change, and then shows it."""
    tid, ids = seated(app, 2)
    reads = RosterReads(app)
    client = app.test_client()
    assert client.post(f"/tournaments/{tid}/unlock", data={"pin": PIN}).status_code == 302
    version = version_of(client.get(f"/tournaments/{tid}/live?v=none", headers={"HX-Request": "true"})
                         .get_data(as_text=True))
    for game_id in ids:
        roll(app, game_id)
        reads.count = 0
        changed = client.get(f"/tournaments/{tid}/live?v={version}", headers={"HX-Request": "true"})
        assert changed.status_code == 200 and reads.count == 0
    with app.app_context():
        stamp = tournaments.get_tournament(tid).roster_stamp
        roster.change_player(tid, "Player 007", "drop", 1)
        assert tournaments.get_tournament(tid).roster_stamp not in (None, stamp)
        db.session.remove()
    reads.count = 0
    assert client.get(f"/tournaments/{tid}/live?v={version}", headers={"HX-Request": "true"}).status_code == 200
    assert reads.count == 1
    with app.app_context():
        assert {e.name: e.dropped_round for e in tournaments.entrants(tournaments.get_tournament(tid))}[
            "Player 007"] == 1


def test_a_tournament_made_before_the_roster_had_a_stamp_reads_its_roster_each_time(app):
    """A tournament whose row has no roster stamp (made before the stamp was written, and the migration not yet
    run over it): its roster is read at each unit of work, never kept by a stamp it does not have."""
    tid, _ = seated(app, 1)
    reads = RosterReads(app)
    with app.app_context():
        db.session.execute(sqlalchemy.text("UPDATE tournaments SET roster_stamp = NULL WHERE id = :id"), {"id": tid})
        db.session.commit()
        names = [e.name for e in tournaments.entrants(tournaments.get_tournament(tid))]
        db.session.remove()
        assert [e.name for e in tournaments.entrants(tournaments.get_tournament(tid))] == names
        assert len(names) == 4 and reads.count == 2


def test_the_migration_gives_each_tournament_made_before_it_a_roster_stamp_of_its_own(app):
    from flask_migrate import downgrade, upgrade
    from referee.app import MIGRATIONS

    first, _ = seated(app, 1)
    second, _ = seated(app, 1)
    with app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="c6d2a8f4e1b9")
        assert "roster_stamp" not in [c["name"] for c in sqlalchemy.inspect(db.engine).get_columns("tournaments")]
        upgrade(directory=str(MIGRATIONS))
        stamps = db.session.execute(sqlalchemy.text("SELECT roster_stamp FROM tournaments WHERE id IN (:a, :b)"),
                                    {"a": first, "b": second}).scalars().all()
        assert len(stamps) == 2 and len(set(stamps)) == 2 and all(len(s) == 16 for s in stamps)
        assert len(tournaments.entrants(tournaments.get_tournament(first))) == 4


def test_a_change_of_the_players_rows_not_yet_committed_is_read_but_never_kept_under_the_stamp(app):
    """A unit of work that changed a player's row and reads the roster sees its change; rolled back, the roster kept
    under the tournament's stamp is the committed one (the change was never the stamp's)."""
    tid, _ = seated(app, 1)
    with app.app_context():
        row = tournaments.get_tournament(tid)
        first = row.players[0].name
        row.players[0].checked_in = False
        assert {e.name: e.checked_in for e in tournaments.entrants(row)}[first] is False
        db.session.rollback()
        db.session.remove()
        assert {e.name: e.checked_in for e in tournaments.entrants(tournaments.get_tournament(tid))}[first] is True


class GrantReads:
    """The statements one request sends that list the tournament's live grants' rows (their devices), not only count
    them (the device's own grants, looked up by their tokens, are not these)."""

    def __init__(self, app):
        self.count = 0
        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", self._statement)

    def _statement(self, conn, cursor, statement, *args):
        self.count += "grants.device" in statement and "ORDER BY grants.created_at" in statement


def devices_listed(page: str) -> list[str]:
    return re.findall(r"<li>([^<]*)</li>", page.split('id="devices"', 1)[1].split("</section>", 1)[0])


def test_the_devices_unlocked_are_read_again_only_when_a_grant_is_given_or_ends(app):
    """The director's page lists the devices unlocked (some 260 grants' rows at a national final, read every
    second): they are kept by how many grants are live and the latest one's id, which the version counts, so a
    poll reads the rows only after an unlock, a lock or an unlock running out, and then lists the change; each
    director's device sees itself, and only itself, marked "this device"."""
    tid, ids = seated(app, 2)
    reads = GrantReads(app)
    director, other = app.test_client(), app.test_client()
    other.environ_base["HTTP_USER_AGENT"] = "Mozilla/5.0 (Linux; Android 14) Chrome/124.0.0.0 Safari/537.36"
    for client in (director, other):
        assert client.post(f"/tournaments/{tid}/unlock", data={"pin": PIN}).status_code == 302
    whole = director.get(f"/tournaments/{tid}/live?v=none", headers={"HX-Request": "true"}).get_data(as_text=True)
    version = version_of(whole)
    assert len(devices_listed(whole)) == 2 and sum("(this device)" in d for d in devices_listed(whole)) == 1
    for game_id in ids:
        roll(app, game_id)
        reads.count = 0
        changed = director.get(f"/tournaments/{tid}/live?v={version}", headers={"HX-Request": "true"})
        assert changed.status_code == 200 and reads.count == 0
    other_page = other.get(f"/tournaments/{tid}/live?v=none", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert reads.count == 0  # the same devices, kept: the other device marked in its own answer alone
    marked = [d for d in devices_listed(other_page) if "(this device)" in d]
    assert len(marked) == 1 and marked[0].startswith("Chrome · Android")
    tablet = app.test_client()
    assert tablet.post(f"/games/{ids[0]}/unlock", data={"pin": table_pin(app, ids[0])}).status_code in (302, 303)
    reads.count = 0
    page = director.get(f"/tournaments/{tid}/live?v=none", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert reads.count == 1 and "1 tablet unlocked at the tables" in page
    with app.app_context():  # the director's other device's unlock runs out
        db.session.execute(sqlalchemy.text("UPDATE grants SET expires_at = :past WHERE device LIKE 'Chrome%'"),
                           {"past": "2000-01-01 00:00:00"})
        db.session.commit()
    reads.count = 0
    page = director.get(f"/tournaments/{tid}/live?v=none", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert reads.count == 1 and len(devices_listed(page)) == 1 and "(this device)" in devices_listed(page)[0]


def table_pin(app, game_id: int) -> str:
    with app.app_context():
        return next(t.pin for r in tournaments.seating(tournaments.tournament_of_game(game_id))
                    for t in r.tables if t.game_id == game_id)


def test_devices_whose_grants_took_the_numbers_of_deleted_ones_are_listed_as_they_are(app):
    """SQLite gives a new row the number after the highest left: once the ended grants' rows are deleted (a day after
    they end), new unlocks may take the same numbers, as many of them as before.  The devices are kept by the live
    grants' latest moment given too, so the page lists the new devices, not the kept ones."""
    tid, ids = seated(app, 1)
    with app.app_context():
        old = [grants.open_grant(grants.GAME, ids[0], "Safari · iPad", 60, []) for _ in range(2)]
        before = tournaments.tournament_version(tid)
        assert [d.label for d in grants.devices_of_tournament(tid, [], before.unlocked).tables[ids[0]]] == [
            "Safari · iPad"] * 2
        numbers = sorted(row[0] for row in db.session.execute(sqlalchemy.text("SELECT id FROM grants")))
        db.session.execute(sqlalchemy.text("DELETE FROM grants"))  # ended, and a day gone by
        db.session.commit()
        new = [grants.open_grant(grants.GAME, ids[0], "Firefox · Android", 60, []) for _ in range(2)]
        assert sorted(row[0] for row in db.session.execute(sqlalchemy.text("SELECT id FROM grants"))) == numbers
        after = tournaments.tournament_version(tid)
        assert after.unlocked[:2] == before.unlocked[:2] and after.token != before.token
        assert [d.label for d in grants.devices_of_tournament(tid, [], after.unlocked).tables[ids[0]]] == [
            "Firefox · Android"] * 2
        assert old != new


def test_a_device_unlocking_again_whose_new_grant_was_numbered_before_anothers_commit_is_listed(app):
    """On PostgreSQL a grant's id is given when it is written, not when it is committed: a device unlocking again
    (its grant ended, a new one written, id 100) and another tablet's unlock written after it (id 101) but committed
    first leave the live grants' count, latest id and latest moment as they were once both are committed.  The sum
    of their ids tells the two apart (the ids given here as the sequence would give them)."""
    tid, ids = seated(app, 1)

    def unlock(number: int, label: str, at) -> None:
        db.session.add(grants.GrantRow(id=number, token_hash=label[0] * 64, role=grants.GAME, device=label,
                                       game_id=ids[0], created_at=at, expires_at=at + timedelta(minutes=60)))
        db.session.commit()

    with app.app_context():
        unlock(50, "Old unlock", grants.now() - timedelta(minutes=5))
        again = grants.now()
        unlock(101, "Tablet", again + timedelta(milliseconds=3))  # the other tablet's, committed first
        before = tournaments.tournament_version(tid)
        assert [d.label for d in grants.devices_of_tournament(tid, [], before.unlocked).tables[ids[0]]] == [
            "Old unlock", "Tablet"]
        db.session.remove()
    with app.app_context():
        grants._revoke(grants.GrantRow.id == 50, grants.now())
        unlock(100, "New unlock", again)
        after = tournaments.tournament_version(tid)
        assert after.token != before.token and after.unlocked[:3] == before.unlocked[:3]
        assert [d.label for d in grants.devices_of_tournament(tid, [], after.unlocked).tables[ids[0]]] == [
            "New unlock", "Tablet"]


def test_a_grant_written_by_a_flush_and_not_yet_committed_is_read_but_never_kept(app):
    """A flush writes in the session's transaction (the flush's own inner transaction ends inside it): what is read
    after it, before the commit, may be rolled back, and is not kept under the count it names."""
    from referee.cache import DEVICES
    from referee.store.db import uncommitted
    tid, ids = seated(app, 1)
    with app.app_context():
        at = grants.now()
        db.session.add(grants.GrantRow(token_hash="g" * 64, role=grants.GAME, device="Ghost", game_id=ids[0],
                                       created_at=at, expires_at=at + timedelta(minutes=60)))
        db.session.flush()
        assert uncommitted()
        version = tournaments.tournament_version(tid)
        kept = len(DEVICES)
        assert [d.label for d in grants.devices_of_tournament(tid, [], version.unlocked).tables[ids[0]]] == ["Ghost"]
        assert len(DEVICES) == kept
        db.session.rollback()
        assert not uncommitted()
        assert grants.devices_of_tournament(tid, [], tournaments.tournament_version(tid).unlocked).tables == {}
