"""The room display's live region is drawn once a version for every display that follows the tournament (a hall's
projectors, the screens by its doors), not once a display; each answer puts in the round's big clock as it reads at
that answer, so a display that asks later counts down from later, as a drawing of its own would."""
import re
from datetime import timedelta

import pytest

from conftest import finish_seating, templates_drawn
from referee.services import clocks, progress, tournaments
from referee.web.views import drawings

HX = {"HX-Request": "true"}


@pytest.fixture
def playing(app):
    """A tournament of two tables whose clocks run (a round of 60 minutes), and the version a display saw."""
    with app.app_context():
        tid = tournaments.create_tournament("Hall", "jma-placement", "jma-2006", [f"P{n}" for n in range(8)],
                                            "135791", [60])
        progress.seat_round(tid)
        first, second = [view.game_id for view in tournaments.round_overview(tid, 1)]
        for game_id in (first, second):
            finish_seating(game_id)
        clocks.set_clock(first, True)
        clocks.set_clock(second, True)
        version = tournaments.live_version(tid).token
    return tid, version


def region(app, tid) -> str:
    r = app.test_client().get(f"/tournaments/{tid}/display", query_string={"v": "before"}, headers=HX)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    return r.get_data(as_text=True)


def left(page: str) -> int:
    return int(re.search(r'<div class="bigclock"><span class="clock" data-left="(\d+)" data-running="1"', page).group(1))


def test_the_room_display_is_drawn_once_a_version_for_every_display_and_its_clock_reads_at_each_answer(
        app, playing, monkeypatch):
    tid, version = playing
    with templates_drawn(app) as drawn:
        now = clocks.utcnow()
        monkeypatch.setattr(clocks, "utcnow", lambda: now)
        first = [region(app, tid) for _ in range(3)]
        assert drawn.count("tournaments/_display_live.html") == 1  # three displays, one drawing
        assert first[0] == first[1] == first[2] and f"v={version}" in first[0]
        assert drawings.mark("bigclock") not in first[0] and left(first[0]) in range(3598, 3601)
        monkeypatch.setattr(clocks, "utcnow", lambda: now + timedelta(seconds=125))
        later = region(app, tid)  # the same version, the kept drawing: its clock 125 s on
        assert drawn.count("tournaments/_display_live.html") == 1 and left(later) == left(first[0]) - 125
        # what a display is answered is what its own drawing would be at that moment
        app.extensions.pop("referee.display_regions")
        assert region(app, tid) == later
        assert drawn.count("tournaments/_display_live.html") == 2
        # the whole page carries the same region
        page = app.test_client().get(f"/tournaments/{tid}/display").get_data(as_text=True)
        assert later.strip() in page


def test_a_round_whose_clocks_have_not_started_says_so_and_one_that_is_over_says_time_is_up(app, monkeypatch):
    with app.app_context():
        tid = tournaments.create_tournament("Hall", "jma-placement", "jma-2006", [f"P{n}" for n in range(4)],
                                            "135791", [1])
        progress.seat_round(tid)
        game_id = tournaments.round_overview(tid, 1)[0].game_id
        finish_seating(game_id)
    assert "the round's clock has not started" in region(app, tid)
    with app.app_context():
        clocks.set_clock(game_id, True)
    now = clocks.utcnow()
    ticking = region(app, tid)
    assert left(ticking) in range(58, 61)
    monkeypatch.setattr(clocks, "utcnow", lambda: now + timedelta(seconds=61))
    assert '<span class="clock up">time is up</span>' in region(app, tid)  # the kept drawing, its clock run out



def test_a_room_display_keeps_its_tournaments_last_drawing_alone(app, playing):
    """A version is asked for only until the next (at 128 tables a new one every second): the drawing of the one
    before, and its round's tables' values, are let go when the next is drawn."""
    tid, version = playing
    assert f"v={version}" in region(app, tid)
    with app.app_context():
        first = tournaments.round_overview(tid, 1)[0].game_id
        clocks.set_clock(first, False)  # a clock paused: a new version
        paused = tournaments.tournament_version(tid).token
    assert paused != version
    assert f"v={paused}" in region(app, tid)
    kept = app.extensions["referee.display_regions"]
    assert len(kept) == 1


def test_a_changed_room_display_reads_the_tournaments_row_once(app, playing):
    """Where the tournament stands and the region drawn both want the tournament's row: it is read once an answer.
    (The session keeps a row only while something refers to it: the view let go of the one read for the standings,
    and the drawing read it again, a round trip more at every changed poll on PostgreSQL; seen with py-spy on two
    hosts.)"""
    from sqlalchemy import event

    from referee.store.db import db

    tid, _ = playing
    read = []

    def statement(conn, cursor, sql, parameters, context, executemany):
        if "FROM tournaments" in sql and "tournaments.id =" in sql:
            read.append(sql)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", statement)
    try:
        page = region(app, tid)
    finally:
        event.remove(engine, "before_cursor_execute", statement)
    assert 'class="bigclock"' in page
    assert len(read) == 1, read
