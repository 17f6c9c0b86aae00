"""The room display on a projector, from the back of a hall: at 1920x1080 and 1280x720, with 3, 16 and 64 tables, the
tables' cards and the standings fill the screen, their rows' text at least 24 px high at 1080p (larger with few
tables), nothing overlapping or cut off; where the cards or the standings do not fit they are shown a page at a
time, each page held 12 seconds, every table shown in turn; and nothing that acts (no Lock, no form, no menu) is
shown to the room.  Screenshots go to tests/artifacts/room-*.png."""
from __future__ import annotations

import random
import re

import pytest

from browser_support import layout_problems
from browser_support import armed, shot

from referee.engine import legal_actions
from referee.sim.policy import Policy
from referee.services import folds, games, progress, tournaments

SCREENS = {"1080p": {"width": 1920, "height": 1080}, "720p": {"width": 1280, "height": 720}}
PAGE_SECONDS = 12


@pytest.fixture(scope="module")
def rooms(live) -> dict[int, int]:
    """Tournaments of 3, 16 and 64 tables, their first round seated and a few entries played at each table."""
    server, app = live
    made = {}
    rng = random.Random(8)
    with app.app_context():
        for count in (3, 16, 64):
            players = [f"{name} {k}" for k in range(1, count + 1) for name in ("Jürgen Groß", "佐藤 葵", "김민수",
                                                                              "Anneliese Weiß")]
            tid = tournaments.create_tournament(f"Room of {count} tables / {count}卓の会場", "jma-placement",
                                                "jma-2006", players, "135791", [90])
            progress.seat_round(tid)
            for view in tournaments.round_overview(tid, 1)[:8]:
                policy = Policy(rng, "random")
                for _ in range(12):
                    table = folds.load(view.game_id)
                    state = table.game.state
                    games.record(view.game_id, policy.choose(state, legal_actions(state)).to_dict(), table.seq)
            made[count] = tid
    return made


def _shown_tables(page) -> list[int]:
    return [int(re.search(r"\d+", t).group()) for t in page.locator(".table-card:visible > strong").all_inner_texts()]


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("count", (3, 16, 64))
def test_the_room_display_fills_a_projector_legibly_and_pages_through_what_does_not_fit(live, browser, rooms,
                                                                                        screen, count):
    server, app = live
    size = SCREENS[screen]
    page = browser.new_context(viewport=size).new_page()
    page.clock.install(time=0)  # the page a moment shows is counted from the clock: page 1 at 0
    page.goto(f"{server}/tournaments/{rooms[count]}/display")
    page.clock.run_for(1000)  # the screen arms itself on the clock the test turns
    armed(page)
    # nothing that acts
    assert page.locator("form, button, input, select, textarea").count() == 0
    assert page.locator("details:visible").count() == 0
    # legible from the back of the hall: each row's text a share of the screen's height
    smallest = 24 * size["height"] / 1080
    rows = page.evaluate("""() => [...document.querySelectorAll('.table-card td, ol.places li')]
      .filter(e => e.offsetParent !== null).map(e => parseFloat(getComputedStyle(e).fontSize))""")
    assert rows and min(rows) >= smallest - 0.5, (min(rows), smallest)
    if count <= 4:
        assert min(rows) >= 1.3 * smallest  # few tables: larger
    assert layout_problems(page) == []
    shot(page, f"room-{count}-tables-{screen}")
    # the cards fill the screen and, where they do not fit, come a page at a time until every table has been shown
    shown = _shown_tables(page)
    info = page.inner_text("[data-pageinfo=tables]")
    if len(shown) == count:
        assert info == ""
    else:
        pages = int(re.search(r"page 1 of (\d+)", info).group(1))
        assert pages == -(-count // len(shown)) or pages == -(-count // len(shown)) + 1, (info, len(shown))
        seen = set(shown)
        for turn in range(2, pages + 1):
            page.clock.run_for(PAGE_SECONDS * 1000)
            assert f"page {turn} of {pages}" in page.inner_text("[data-pageinfo=tables]")
            now = _shown_tables(page)
            assert now and not seen & set(now)  # each page shows other tables
            seen |= set(now)
            assert layout_problems(page) == []
        assert seen == set(range(1, count + 1))
        page.clock.run_for(PAGE_SECONDS * 1000)  # and round again to the first
        assert _shown_tables(page) == shown
    page.context.close()
