"""The live pages' tables worked out again only where they changed: a poll drawn at a tournament's version takes each
table's game from its kept fold at the point the version read (its row not read again), and each table's value, but
for its clock, is kept under all it is made from.  Pinned here: an unchanged table is not worked out again, a table
that moved on after the version was read is shown as it is now, and a finished table's value follows its players'
sign-offs, the director's correction and the language at once."""
import random
import re

from sqlalchemy import event, text

from test_director_poll_cost import PIN, reverse_result, roll, seated, second_round

from referee.app.demo import play_table
from referee.cache import FOLDS, empty_all
from referee.services import clocks, folds, progress, signoffs, table_views, tournaments
from referee.screens.decisions import pending_words
from referee.store.db import db


def made(monkeypatch) -> list[int]:
    """The tables whose values are worked out from their games, by game, as they are."""
    out: list[int] = []
    real = table_views._table_view
    monkeypatch.setattr(table_views, "_table_view", lambda t, *rest: out.append(t.game_id) or real(t, *rest))
    return out


def waits_for(state) -> str:
    """What a table waits for, as a page puts it in words (here: the decision's kind)."""
    return type(state.pending).__name__


def overview(app, tid: int, version=None, number: int = 1):
    with app.test_request_context("/"):
        app.preprocess_request()
        found = tournaments.round_overview(tid, number, waits_for, version or tournaments.tournament_version(tid))
        db.session.remove()
    return found


def test_a_poll_works_out_only_the_table_that_recorded_and_reads_no_game_row(app, monkeypatch):
    tid, ids = seated(app, 6)
    first = overview(app, tid)
    worked = made(monkeypatch)
    roll(app, ids[3])
    statements: list[str] = []
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    after = overview(app, tid)
    assert worked == [ids[3]]  # the five others kept
    assert not any("games.header" in s for s in statements)  # every game's fold kept at the point the version read
    with app.app_context():
        state = folds.load(ids[3]).game.state
    changed = after[3]
    assert changed.turn == state.turn and changed.players == tuple((p.name, p.cash, p.bankrupt) for p in state.players)
    assert [t.players for k, t in enumerate(after) if k != 3] == [t.players for k, t in enumerate(first) if k != 3]
    assert all(t.clock.running is False for t in after)  # no clock started: each read as the version read it


def test_a_table_that_recorded_after_the_version_was_read_is_shown_as_read_then_and_at_the_next_version_as_now(app):
    """A page is drawn at the version its poll read: a table that recorded since is shown as that version read it
    (its end kept at that point), and the next poll, whose version counts the entry, shows it as it is now; a table
    read at no point kept is read as it is now."""
    tid, ids = seated(app, 2)
    with app.app_context():
        before = folds.load(ids[0]).game.state
        version = tournaments.tournament_version(tid)
        db.session.remove()
    overview(app, tid, version)
    roll(app, ids[0])  # after the version was read
    with app.app_context():
        now = folds.load(ids[0]).game.state
        db.session.remove()
    assert overview(app, tid, version)[0].pending == type(before.pending).__name__ != type(now.pending).__name__
    shown = overview(app, tid)[0]  # the next poll's version
    assert shown.players == tuple((p.name, p.cash, p.bankrupt) for p in now.players)
    assert shown.pending == type(now.pending).__name__ and shown.turn == now.turn
    with app.app_context():  # nothing kept at the point a version read: the table as it is now
        version = tournaments.tournament_version(tid)
        db.session.remove()
    roll(app, ids[1])
    empty_all()
    with app.app_context():
        latest = folds.load(ids[1]).game.state
        db.session.remove()
    assert overview(app, tid, version)[1].pending == type(latest.pending).__name__


def test_a_running_clock_is_read_afresh_at_each_poll_of_a_kept_table(app, monkeypatch):
    tid, ids = seated(app, 2)
    with app.app_context():
        clocks.set_clock(ids[0], True)
        db.session.remove()
    first = overview(app, tid)[0]
    assert first.clock.running
    worked = made(monkeypatch)
    later = overview(app, tid)[0]
    assert worked == [] and later.clock.running and later.clock.elapsed_seconds > first.clock.elapsed_seconds
    assert later.players == first.players


def test_a_finished_tables_value_follows_its_sign_offs_its_correction_and_the_language(app, monkeypatch):
    tid, ids = seated(app, 2)
    with app.app_context():
        play_table(ids[0], random.Random(3), 3)
        db.session.remove()
    before = overview(app, tid)[0]
    assert before.over and before.sign_offs is not None and before.sign_offs.confirmed == 0
    worked = made(monkeypatch)
    assert overview(app, tid)[0] == before and worked == []  # kept while nothing it is made from changed
    with app.app_context():
        table = folds.load(ids[0])
        player = table.game.state.players[0].name
        signed = signoffs.sign_offs(table)
        signoffs.sign_off(ids[0], player, "confirms", "", table.seq, len(signed.rows), signed.ranking)
        db.session.remove()
    after = overview(app, tid)[0]
    assert after.sign_offs.confirmed == 1 and worked == [ids[0]]
    ranking = reverse_result(app, tid, ids[0], "slip reversed")
    corrected = overview(app, tid)[0]
    assert corrected.corrected == "slip reversed" and corrected.players[0][0] == ranking[-1]["name"]
    words = {}
    for code in ("en", "ja", "en"):  # what the playing table waits for, in each device's language, kept apart
        with app.test_request_context("/", headers={"Accept-Language": code}):
            app.preprocess_request()
            shown = tournaments.round_overview(tid, 1, pending_words, tournaments.tournament_version(tid))[1]
            assert shown.pending == pending_words(folds.load(ids[1]).game.state)
            words.setdefault(code, shown.pending)
            assert words[code] == shown.pending
            db.session.remove()
    assert words["en"] != words["ja"]


def test_a_table_that_records_draws_its_cards_play_again_and_keeps_its_opening_and_foot(app):
    """A director's card is drawn in three pieces: a table that records an entry draws its play again (the turn,
    what it waits for, the cash), while its opening and its foot (its PIN, the tablets unlocked at it, its links and
    forms) are kept, until what they show changes (a tablet unlocked at the table)."""
    tid, ids = seated(app, 3)
    director = app.test_client()
    assert director.post(f"/tournaments/{tid}/unlock", data={"pin": PIN}).status_code == 302

    def pieces() -> set:
        kept = app.extensions["referee.table_cards"]._values
        return {key for key in kept if isinstance(key, tuple) and key[0] in ("opening", "foot")}

    def card(game_id: int) -> str:
        page = director.get(f"/tournaments/{tid}/live?v=none", headers={"HX-Request": "true"}).get_data(as_text=True)
        return page.split(f'id="table-{game_id}"', 1)[1].split('<div class="links">', 1)[0]

    card(ids[1])
    drawn = pieces()
    assert len(drawn) == 2 * len(ids)
    roll(app, ids[1])
    with app.app_context():
        state = folds.load(ids[1]).game.state
    after = card(ids[1])
    assert f"turn {state.turn}" in after and pieces() == drawn
    assert [int(x.replace(",", "").lstrip("$")) for x in re.findall(r'<td class="n">([^<]+)</td>', after)] == [
        p.cash for p in state.players]
    with app.app_context():
        pin = tournaments.seating(tid)[0].tables[1].pin
    assert app.test_client().post(f"/games/{ids[1]}/unlock", data={"pin": pin}).status_code == 302
    unlocked = card(ids[1])
    assert "1 tablet unlocked:" in unlocked and f"turn {state.turn}" in unlocked
    assert len(pieces() - drawn) == 1 and next(iter(pieces() - drawn))[0] == "foot"


def test_a_finished_round_needs_none_of_its_folds_kept(app, monkeypatch):
    """At a national final's fifth round the director's page lists 640 tables, more than the folds a process keeps:
    a finished table is drawn from its record's end, kept by the point the version read (a few values), and its
    fold, once let go, is not read again at every poll (each read replays the whole record)."""
    tid, second = second_round(app, 2)
    for number in (1, 2):
        overview(app, tid, number=number)
    with app.app_context():  # the standings worked out, as the director's poll works them out
        progress.progress_and_version(tid, tournaments.tournament_version(tid))
        db.session.remove()
    FOLDS.clear()  # every fold let go, as a round more than the folds kept lets them go
    roll(app, second[0])
    replayed: list[int] = []
    real = folds.read_fold
    monkeypatch.setattr(folds, "read_fold", lambda game_id, *read: replayed.append(game_id) or real(game_id, *read))
    worked = made(monkeypatch)
    with app.test_request_context("/"):
        app.preprocess_request()
        version = tournaments.tournament_version(tid)
        first = tournaments.round_overview(tid, 1, waits_for, version)
        now = tournaments.round_overview(tid, 2, waits_for, version)
        standing = progress.progress_and_version(tid, version)[0]
        db.session.remove()
    assert replayed == [] and worked == [second[0]]  # only the table that recorded worked out again
    assert all(t.over and t.ranked for t in first) and standing.playing
    assert [t.game_id for t in now] == second


def test_a_finished_round_is_kept_whole_until_a_table_of_it_changes(app, monkeypatch):
    """A round before the last is finished (a round is seated only once the one before is over), and the director's
    page lists it at every poll: while its clocks are stopped and its tables' points, seats, PINs and corrections
    and the roster are the same, its values are the ones kept, no table looked at; a correction at one of its tables
    works it out again.  The round in play is looked at table by table at each poll."""
    tid, second = second_round(app, 2)
    with app.app_context():
        first_ids = [t.game_id for t in tournaments.seating(tid)[0].tables]
    first = overview(app, tid, number=1)
    asked = []
    real = table_views.live_games
    monkeypatch.setattr(table_views, "live_games", lambda games, version: asked.append(games) or real(games, version))
    assert overview(app, tid, number=1) == first and asked == []
    overview(app, tid, number=2)
    overview(app, tid, number=2)
    assert asked == [second, second]
    reverse_result(app, tid, first_ids[0], "slip reversed")
    corrected = overview(app, tid, number=1)
    assert asked[2:] == [first_ids] and corrected[0].corrected == "slip reversed" and corrected[1] == first[1]


def test_a_game_read_at_the_point_the_version_read_keeps_its_end_there_at_once(app, monkeypatch):
    """A server started mid-tournament knows no end yet: its first poll reads each game (a whole record replayed)
    and keeps its end at once, so that the polls after need none of the folds, though a round more than the folds
    kept has let them go before they were looked at again."""
    tid, second = second_round(app, 2)
    empty_all()  # as a server just started
    replayed: list[int] = []
    real = folds.read_fold
    monkeypatch.setattr(folds, "read_fold", lambda game_id, *read: replayed.append(game_id) or real(game_id, *read))

    def poll() -> None:
        with app.test_request_context("/"):
            app.preprocess_request()
            version = tournaments.tournament_version(tid)
            for number in (1, 2):
                tournaments.round_overview(tid, number, waits_for, version)
                FOLDS.clear()  # the next round's folds let this one's go, as 640 games' do 512 kept
            progress.progress_and_version(tid, version)
            db.session.remove()

    poll()
    with app.app_context():
        games = {t.game_id for r in tournaments.seating(tid) for t in r.tables}
    assert set(replayed) == games  # each game read (and the standings, worked out for the first time, read theirs)
    replayed.clear()
    FOLDS.clear()
    poll()
    assert replayed == []


def test_a_sign_off_taken_out_of_a_finished_table_is_shown_at_the_next_poll(app):
    """A table's kept value follows its own sign-offs by their count and the last one's number, as the version reads
    them: one taken out of the middle (the last number the same) is another value, its chain found broken."""
    tid, ids = seated(app, 2)
    with app.app_context():
        play_table(ids[0], random.Random(3), 3)
        table = folds.load(ids[0])
        for player in [p.name for p in table.game.state.players][:2]:
            signed = signoffs.sign_offs(table)
            signoffs.sign_off(ids[0], player, "confirms", "", table.seq, len(signed.rows), signed.ranking)
        db.session.remove()
    assert overview(app, tid)[0].sign_offs.confirmed == 2
    with app.app_context():
        db.session.execute(text("DELETE FROM sign_offs WHERE game_id = :g AND n = 1"), {"g": ids[0]})
        db.session.commit()
        afresh = signoffs.sign_offs(folds.load(ids[0]))
        db.session.remove()
    shown = overview(app, tid)[0].sign_offs
    assert (shown.confirmed, shown.altered) == (afresh.confirmed, afresh.altered) != (2, None)


def test_an_alteration_found_at_a_point_already_read_is_shown_in_a_finished_round_and_its_standings(app):
    """An entry changed in the middle of a finished game's record leaves the record's last number and hash as they
    were: once a read of the whole record finds it (a restart, ``referee verify``, a tablet at the table), the
    director's page shows the table altered and the standings count it no more, though the round's points are the
    ones kept."""
    tid, second = second_round(app, 2)
    with app.app_context():
        first = [t.game_id for t in tournaments.seating(tid)[0].tables]
        version = tournaments.tournament_version(tid)
        before = progress.progress_and_version(tid, version)[1]
        db.session.remove()
    assert overview(app, tid)[0].altered is None
    with app.app_context():
        db.session.execute(text("UPDATE entries SET data = :d WHERE game_id = :g AND seq = 3"),
                           {"d": '{"type": "time_called", "note": "changed"}', "g": first[0]})
        db.session.commit()
        FOLDS.clear()
        assert folds.load(first[0]).altered is not None  # read whole: the chain breaks at entry 3
        version = tournaments.tournament_version(tid)
        after = progress.progress_and_version(tid, version)[1]
        db.session.remove()
    assert overview(app, tid)[0].altered is not None and after != before


def test_a_tables_card_does_not_keep_the_tables_value_alive_once_the_live_pages_let_it_go(app):
    """A card is kept with the table's value it was drawn from, which the live pages keep for as long as they ask
    for it (8,192 cards held as many values the pages had let go, each walked by every full collection)."""
    import gc
    import weakref

    from referee.cache import ROUND_VIEWS, TABLE_VIEWS

    tid, _ = seated(app, 2)
    client = app.test_client()
    assert client.post(f"/tournaments/{tid}/unlock", data={"pin": PIN}).status_code == 302
    assert client.get(f"/tournaments/{tid}/live?v=none", headers={"HX-Request": "true"}).status_code == 200
    with app.test_request_context("/"):
        app.preprocess_request()
        kept = [weakref.ref(t.kept) for t in tournaments.round_overview(tid, 1, pending_words,
                                                                         tournaments.tournament_version(tid))]
        db.session.remove()
    assert len(kept) == 2 and all(ref() is not None for ref in kept)  # the values the cards were drawn from
    TABLE_VIEWS.clear()
    ROUND_VIEWS.clear()
    gc.collect()
    assert [ref() for ref in kept] == [None, None]
    again = client.get(f"/tournaments/{tid}/live?v=none", headers={"HX-Request": "true"})
    assert again.status_code == 200 and again.get_data(as_text=True).count('class="player table-card') == 2
