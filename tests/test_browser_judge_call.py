"""A judge called from a table's tablet and answered from the director's device, in a real browser, on both tablet
orientations (each screen looked at both ways, the devices turned) and in English and Japanese: one tap on "Call a
judge" (a large target) shows the table on the director's page within seconds without a reload (its table, entry and
minutes waited); the director opens the entry from the call and records a judge's ruling, which closes the call.
Nothing is wider than the screen. Another tablet at the same table shows the call within two seconds of its being
stored, without a reload. Screenshots go to tests/artifacts/judge-*.png."""
import time

import pytest

from referee.services import rulings

from browser_support import armed, shot, turned
from test_browser_director import create_and_seat, finish_seating, round_overview, unlock_table, unlocked_tablet
from browser_support import fits
from test_browser_dispute import VIEWPORTS, choose_language

WORDS = {
    "en": {"called": "A judge has been called", "waiting": "waiting 0 min", "none": "No table is waiting for a judge.",
           "judge": "a judge", "recorded": "Ruling 1 recorded on entry"},
    "ja": {"called": "ジャッジを呼び出し中", "waiting": "0分待機中", "none": "ジャッジを待っている卓はありません。",
           "judge": "ジャッジ", "recorded": "に裁定 1 を記録しました"},
}


@pytest.mark.parametrize("lang", WORDS)
def test_a_table_calls_a_judge_with_one_tap_and_the_director_answers_with_a_ruling(live, browser, lang):
    server, app = live
    words, viewport = WORDS[lang], VIEWPORTS["landscape"]
    director = browser.new_context(viewport=viewport).new_page()
    choose_language_at(director, server, lang)
    director_url = create_and_seat(director, server, name=f"Judges {lang}")
    table = round_overview(app, director)[0]
    finish_seating(app, table.game_id)
    assert words["none"] in director.inner_text("#judge-calls")

    tablet = browser.new_context(viewport=viewport).new_page()
    choose_language_at(tablet, server, lang)
    unlock_table(tablet, server, table)
    button = tablet.locator("#call-judge")
    for turn in VIEWPORTS.values():
        turned(tablet, turn)
        box = button.bounding_box()
        assert box["height"] >= 56 and box["width"] >= 96  # a large target
    button.click()
    tablet.wait_for_selector("#judge-called")
    assert words["called"] in tablet.inner_text("#judge-called") and tablet.locator("#call-judge").count() == 0
    for orientation, turn in VIEWPORTS.items():
        turned(tablet, turn)
        fits(tablet)
        shot(tablet, f"judge-called-tablet-{orientation}-{lang}")

    call = director.locator(f"#call-{table.game_id}")
    call.wait_for(timeout=8000)  # the live region follows the call without a reload
    assert words["waiting"] in call.inner_text()
    for orientation, turn in VIEWPORTS.items():
        turned(director, turn)
        fits(director)
        shot(director, f"judge-call-director-{orientation}-{lang}")

    armed(director)
    call.locator("a.button").click()
    director.wait_for_url(f"**/games/{table.game_id}/entries/*")
    armed(director)
    form = director.locator("#record-ruling form")
    form.locator("input[name=claim]").fill("Ben: the dice left the table")
    form.locator("input[name=ruling]").fill("the roll stands")
    assert form.locator("input[name=decider]:checked").get_attribute("value") == "judge"
    assert words["judge"] in form.inner_text()
    assert form.locator("input[name=decider][value=referee]").count() == 0  # the director rules as a judge
    form.locator("button[type=submit]").click()
    director.wait_for_selector("#ruling-1")
    assert words["recorded"] in director.inner_text("body")
    for orientation, turn in VIEWPORTS.items():
        turned(director, turn)
        fits(director)
        shot(director, f"judge-ruling-{orientation}-{lang}")

    director.goto(director_url)
    armed(director)
    assert words["none"] in director.inner_text("#judge-calls")
    assert director.locator(f"#call-{table.game_id}").count() == 0


def choose_language_at(page, server, lang):
    page.goto(server + "/")
    armed(page)
    choose_language(page, lang)


def stored_at(app, game_id: int, seconds: float = 10.0) -> float:
    """The moment (time.monotonic) the table's call for a judge is seen stored, looked for every 20 ms."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with app.app_context():
            if rulings.open_call(game_id) is not None:
                return time.monotonic()
        time.sleep(0.02)
    pytest.fail(f"no call for a judge was stored at game {game_id} within {seconds:g} s")


def test_a_second_tablet_at_the_table_shows_the_judge_call_at_its_next_poll_without_a_reload(live, browser):
    """The second tablet's live region, polled every second, shows the call by the first poll sent after the call
    was stored, or the one after it (a poll under way as it was stored may have read the table before it): within
    two polls, two seconds at the poll's pace, counted in polls so that a loaded machine's slower answers do not
    count against the screen."""
    server, app = live
    director = browser.new_context(viewport=VIEWPORTS["landscape"]).new_page()
    create_and_seat(director, server, name="Judges, two tablets")
    table = round_overview(app, director)[0]
    finish_seating(app, table.game_id)
    first, second = unlocked_tablet(browser, server, table), unlocked_tablet(browser, server, table)
    second.evaluate("window.__same = 1")
    assert second.locator("#call-judge").count() == 1
    polls: list[float] = []
    poll = f"{server}/games/{table.game_id}?"
    second.on("request", lambda r: polls.append(time.monotonic()) if r.url.startswith(poll) else None)
    first.locator("#call-judge").click()
    called = stored_at(app, table.game_id)  # counted from the call stored, not from the first tablet's tap
    second.locator("#judge-called").wait_for(timeout=10000)
    after = [t for t in polls if t >= called]  # (a poll sent in the moment before the store was seen counts before)
    assert len(after) <= 2, f"the second tablet showed the call after {len(after)} polls sent once it was stored"
    assert second.evaluate("window.__same") == 1  # the same document: its live region was swapped, no reload
    assert "A judge has been called" in second.inner_text("#judge-called")
    assert second.locator("#call-judge").count() == 0
