"""The tablet screens in a real browser: Debian's chromium driven by Playwright, tablet viewport."""
import os
import time
from pathlib import Path

import pytest

from browser_support import (CHROMIUM, TABLET, armed, confirm_tap, dice, import_record, shot, start_game, tap,
                             write_artifact)

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is installed by scripts/setup")

if not os.path.exists(CHROMIUM):  # scripts/setup installs it; a missing browser is a setup failure, not a skip
    pytest.fail(f"no chromium at {CHROMIUM}: run scripts/setup", pytrace=False)
# the app server (`server`) and chromium (`browser`): one of each per test process, from browser_support.py


def test_roll_purchase_and_an_auction_with_a_tie_on_a_tablet(server, browser):
    page = browser.new_page(viewport=TABLET)
    start_game(page, server)
    shot(page, "table-start")
    dice(page, 1, 2)  # Baltic Avenue
    assert "waiting for Aki to buy or decline Baltic Avenue" in page.inner_text(".decision")
    tap(page, "Buy Baltic Avenue for $60")
    assert "$1,440" in page.inner_text(".players")
    dice(page, 1, 5)  # Ben: Oriental Avenue
    tap(page, "Decline: auction it")
    shot(page, "auction")
    page.check("input[name=players][value=Chie]")
    page.check("input[name=players][value=Aki]")
    page.fill("form:has(input[name=players]) input[name=amount]", "70")
    tap(page, "Equal calls at once")
    # Ben's turn: Chie moves next, so Chie's equal call wins
    assert "Highest bid: $70 by Chie" in page.inner_text(".decision")
    tap(page, "Hammer: sold")
    assert "Chie takes Oriental Avenue" in page.inner_text(".flash")
    shot(page, "after-auction")
    page.close()


def test_a_refused_bid_shows_its_clause(server, browser):
    page = browser.new_page(viewport=TABLET)
    start_game(page, server)
    dice(page, 1, 2)
    tap(page, "Decline: auction it")
    bid = page.locator("form:has(button:text-is('Bid'))").first
    bid.locator("input[name=amount]").fill("15")
    bid.locator("button").click()
    page.wait_for_load_state()
    text = page.inner_text(".flash.refused")
    assert "bid of $15" in text and "競売価格は$10以上$10単位で行います" in text
    shot(page, "refusal")
    page.close()


def test_a_stale_tablet_is_refused_and_the_roll_is_recorded_once(server, browser):
    first = browser.new_context(viewport=TABLET)
    a = first.new_page()
    game_id = start_game(a, server)
    second = browser.new_context(viewport={"width": 768, "height": 1024})
    b = second.new_page()
    b.goto(f"{server}/games/{game_id}")
    b.fill("input[name=pin]", "246802")
    b.click("text=Unlock")
    b.wait_for_selector(".dicepad")
    # its live polls bring nothing new (a poor link lost what changed; a poll that fails outright would show the
    # tablet offline, and its taps would not be sent at all)
    b.route("**/games/*?v=*", lambda route: route.fulfill(status=204))
    dice(a, 4, 6)
    dice(b, 4, 6)  # the same roll from a second tablet that had not seen the first
    assert "nothing was recorded" in b.inner_text(".flash.refused")
    shot(b, "stale-refused-portrait")
    record = a.request.get(f"{server}/games/{game_id}/record.jsonl").text().splitlines()
    assert len(record) == 2
    first.close()
    second.close()


def import_prefix(page, server, record: Path, entries: int, pin="246802") -> int:
    """Continue a recorded game in the browser: import its first ``entries`` entries."""
    lines = record.read_text(encoding="utf-8").splitlines()[: entries + 1]
    path = write_artifact(f"{record.stem}-{entries}.jsonl", "\n".join(lines) + "\n")
    page.goto(server + "/")
    armed(page)
    page.set_input_files("input[name=record]", str(path))
    page.fill("form[enctype] input[name=pin]", pin)
    page.click("form[enctype] button")
    page.wait_for_selector(".decision")
    return int(page.url.rsplit("/", 1)[1])


GOLDEN = Path(__file__).parent / "golden" / "jma-simulated-shortage.jsonl"


def test_a_short_jma_game_on_a_tablet_from_the_seating_roll(server, browser):
    page = browser.new_page(viewport=TABLET)
    page.goto(server + "/")
    armed(page)
    page.fill("textarea[name=players]", "Aki\nBen\nChie")
    page.fill("form[action='/games'] input[name=pin]", "246802")
    page.click("text=Start the game")
    page.wait_for_selector(".decision")
    for a, b in ((3, 4), (6, 5), (3, 4), (1, 2), (4, 4)):  # Aki and Chie tie on 7 and roll again
        dice(page, a, b)
    assert [n.strip() for n in page.locator(".player strong").all_inner_texts()] == ["Ben", "Chie", "Aki"]
    dice(page, 2, 3)
    tap(page, "Buy Reading Railroad for $200")
    dice(page, 3, 3)
    tap(page, "Decline: auction it")
    page.check("input[name=players][value=Ben]")
    page.check("input[name=players][value=Chie]")
    page.fill("form:has(input[name=players]) input[name=amount]", "60")
    tap(page, "Equal calls at once")
    assert "Highest bid: $60 by Ben" in page.inner_text(".decision")  # Aki moves next: Ben is nearer than Chie
    tap(page, "Hammer: sold")
    dice(page, 1, 2)
    tap(page, "Buy Connecticut Avenue for $120")
    dice(page, 2, 5)  # Aki: Chance
    tap(page, "Go back 3 spaces")
    assert "Aki pays the bank $200 tax" in page.inner_text(".flash")
    dice(page, 2, 2)  # Ben on Chie's Connecticut Avenue
    assert "Ben pays Chie $8 rent" in page.inner_text(".flash")
    dice(page, 6, 5)
    dice(page, 6, 6)
    tap(page, "Buy Kentucky Avenue for $220")
    dice(page, 5, 4)  # Go to Jail
    assert "Chie goes to jail" in page.inner_text(".flash")
    dice(page, 3, 4)
    tap(page, "Buy St. Charles Place for $140")
    armed(page)
    page.click("summary:has-text('Void the latest entries')")  # a confirmation: it opens, then is armed anew
    armed(page)
    menu = page.locator("#void-any")
    menu.locator("input[name=count]").fill("2")
    menu.locator("input[name=note]").fill("the dice were 3 and 3")
    menu.locator("button").click()
    page.wait_for_load_state()
    assert "waiting for Aki to roll" in page.inner_text(".decision")
    assert "$1,300" in page.inner_text(".players")
    page.click("summary:has-text('Mortgages')")
    tap(page, "Ben: mortgage Reading Railroad +$100")
    assert "Reading Railroad is mortgaged" in page.inner_text(".flash")
    page.click("summary:has-text('Trade')")
    page.click("summary:has-text('Ben ⇄ Aki')")
    form = page.locator("form:has(button:has-text('Record trade Ben ⇄ Aki'))")
    form.locator("input[name=give-deeds][value=oriental-avenue]").check()
    form.locator("input[name=take-cash]").fill("40")
    form.locator("button:has-text('Check against the rules')").click()
    refusal = form.locator(".check-result .flash.refused").inner_text()  # the verdict appears in the form
    assert form.locator("input[name=take-cash]").input_value() == "40"  # which keeps what was entered
    assert form.locator("input[name=give-deeds][value=oriental-avenue]").is_checked()
    assert "A deed may not go for its mortgage value or less" in refusal
    assert "抵当に入っていない権利書の抵当価額以下での譲渡" in refusal
    shot(page, "trade-refused")
    page.close()


def test_a_house_shortage_auction_on_a_tablet(server, browser):
    page = browser.new_page(viewport=TABLET)
    import_prefix(page, server, GOLDEN, 1612)
    assert "building declarations" in page.inner_text(".decision")
    tap(page, "No one else follows: close the declarations")
    assert "house-shortage auction" in page.inner_text(".decision")
    shot(page, "shortage-auction")
    bidder = page.locator(".decision .row:has(button:text-is('Bid'))").first
    bidder.locator("input[name=amount]").fill("250")
    bidder.locator("button:text-is('Bid')").click()
    page.wait_for_load_state()
    tap(page, "Hammer: sold")
    assert "chooses the lot" in page.inner_text(".decision")
    page.locator(".decision form button").first.click()
    page.wait_for_load_state()
    assert "pays the bank $250 for a building at auction" in page.inner_text(".flash")
    page.close()


def test_bankruptcy_and_the_final_ranking_on_a_tablet(server, browser):
    page = browser.new_page(viewport=TABLET)
    import_prefix(page, server, GOLDEN, 1674)
    assert "even by selling and mortgaging everything" in page.inner_text(".decision")
    armed(page)
    fit = page.evaluate(TARGETS_JS)  # the debt card and the panels below it: targets 48 px, 8 px apart
    assert fit["small"] == [] and fit["gap"] >= 8 and fit["scroll"] <= TABLET["width"], fit
    confirm_tap(page, "No rescue: bankrupt", "Yes: Chie is bankrupt")
    assert "Final ranking (monopoly win)" in page.inner_text(".decision")
    assert page.locator(".decision table.log tr").count() == 5
    shot(page, "ranking")
    page.close()


def test_time_called_makes_a_provisional_bankruptcy_final_and_ranks_the_table(server, browser):
    page = browser.new_page(viewport=TABLET)
    import_prefix(page, server, GOLDEN, 1031)
    confirm_tap(page, "Time called", "Yes: call time now")
    assert "Ben is bankrupt" in page.inner_text(".flash")
    for _ in range(3):  # the last roll, and any decision it brings
        if "Final ranking" in page.inner_text(".decision"):
            break
        if page.locator(".dicepad").count():
            dice(page, 1, 2)
        elif page.locator("button:has-text('Decline: auction it')").count():
            tap(page, "Decline: auction it")
            tap(page, "Close: no bid")
        else:
            page.locator(".decision form button").first.click()
            page.wait_for_load_state()
    text = page.inner_text(".decision")
    assert "Final ranking (time)" in text or "roll-off" in text
    shot(page, "timed-finish")
    page.close()


def test_the_screen_says_plainly_when_the_server_cannot_be_reached(server, browser):
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    start_game(page, server)
    context.set_offline(True)
    page.wait_for_selector("#offline", state="visible", timeout=15000)
    assert "Cannot reach the server" in page.inner_text("#offline")
    page.locator(".dicepad button", has_text="1·2").click()  # refused on the tablet: nothing is sent
    assert page.locator("#offline").is_visible()
    context.set_offline(False)
    page.wait_for_selector("#offline", state="hidden", timeout=15000)
    context.close()


WAKES = """(() => {  // each timer callback the page's scripts run, counted (window.__wakes)
  window.__wakes = 0;
  for (const name of ["setTimeout", "setInterval"]) {
    const original = window[name];
    window[name] = (f, ...rest) => original((...a) => { window.__wakes += 1; return f(...a); }, ...rest);
  }
})();"""


def test_an_idle_screen_wakes_about_once_a_second_and_still_hears_when_it_is_cut_off(server, browser):
    """A tablet lies on the table all day on its battery: a screen with nothing to do (the home page, no live region,
    no running clock) runs a timer about once a second, not four times (referee.js: one timer set for the moment the
    screen will have heard nothing for QUIET_MS, 1.2 s; the clocks' timer only while a clock runs).  It still pings
    the server once a quiet spell, goes offline when the network does, and comes back with it."""
    context = browser.new_context(viewport=TABLET)
    context.add_init_script(WAKES)
    page = context.new_page()
    pings = []
    page.on("request", lambda r: pings.append(time.monotonic()) if r.url.endswith("/ping") else None)
    page.goto(server + "/")
    page.wait_for_timeout(1000)
    start, woken = time.monotonic(), page.evaluate("window.__wakes")
    page.wait_for_timeout(6000)
    woken = page.evaluate("window.__wakes") - woken
    heard = [t for t in pings if t >= start]
    assert woken <= 8, f"{woken} timer callbacks in 6 s"
    assert 2 <= len(heard) <= 5, [round(t - start, 2) for t in heard]
    assert all(later - earlier >= 1.0 for earlier, later in zip(heard, heard[1:])), heard
    context.set_offline(True)
    page.wait_for_selector("#offline", state="visible", timeout=5000)
    context.set_offline(False)
    page.wait_for_selector("#offline", state="hidden", timeout=5000)
    context.close()


def test_the_directors_flow_create_seat_call_time_and_standings(server, browser):
    page = browser.new_page(viewport=TABLET)
    page.goto(server + "/tournaments")
    armed(page)
    page.fill("input[name=name]", "Tokyo Open")
    page.select_option("select[name=scheme]", "jma-placement")
    page.fill("textarea[name=players]", "\n".join(["佐藤 葵", "鈴木 蓮", "高橋 陽菜", "田中 湊", "김민수",
                                                   "이서연", "Jürgen Groß", "Anneliese Weiß"]))
    page.fill("input[name=pin]", "135791")
    page.click("text=Create the tournament")
    page.wait_for_selector("text=Seat the next round")
    armed(page)
    tap(page, "Seat round 1")
    assert page.locator(".player:has-text('Table 1')").count() == 1
    assert page.locator(".player:has-text('Table 2')").count() == 1
    director = page.url
    # each table rolls for seats from its own tablet page
    for n in (1, 2):
        page.goto(director)
        armed(page)
        page.click(f"text=Table {n}")
        page.wait_for_selector(".dicepad")
        for a, b in ((1, 2), (2, 3), (3, 4), (5, 6)):  # four different totals: no tie to roll off
            dice(page, a, b)
    page.goto(director)
    armed(page)
    page.click("#call-time-1 summary")
    assert "Table 1: its clock was never started" in page.inner_text("#call-time-1")
    tap(page, "Confirm: call time on 2 tables")
    assert "time called on 2 tables" in page.inner_text(".flash")
    shot(page, "director")
    page.click("text=standings")
    page.wait_for_load_state()
    assert "Standings" in page.inner_text("h1")
    shot(page, "standings")
    page.close()


TARGETS_JS = """() => {
  const els = [...document.querySelectorAll('main button, main summary.button, header.bar a, header.bar button')]
    .filter(e => e.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true}));
  const seen = els.map(e => e.getBoundingClientRect());
  let pair = null;
  let small = seen.filter(r => r.height < 48 || r.width < 48).map(r => [r.x, r.y, r.width, r.height]);
  let gap = Infinity;
  for (let i = 0; i < seen.length; i++) for (let j = i + 1; j < seen.length; j++) {
    const a = seen[i], b = seen[j];
    const dx = Math.max(b.left - a.right, a.left - b.right), dy = Math.max(b.top - a.bottom, a.top - b.bottom);
    const g = Math.max(dx, dy);
    if (g < gap) { gap = g; pair = [els[i].outerHTML.slice(0, 80), els[j].outerHTML.slice(0, 80)]; }
  }
  return {small, gap, pair, scroll: document.documentElement.scrollWidth, count: seen.length,
          header: document.querySelector('header.bar').getBoundingClientRect().height,
          pad: document.querySelector('.dicepad') ? document.querySelector('.dicepad').getBoundingClientRect().bottom : 0,
          decision: document.querySelector('.decision').getBoundingClientRect().bottom};
}"""


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", [(1024, 768), (768, 1024)])
def test_the_table_screen_fits_the_tablet_with_targets_48_px_and_8_px_apart(server, browser, size, lang):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    game_id = start_game(page, server, players="Aki\nBen\nChie\nDaisuke")
    page.goto(f"{server}/lang/{lang}")
    page.goto(f"{server}/games/{game_id}")
    armed(page)
    fit = page.evaluate(TARGETS_JS)
    assert fit["scroll"] <= size[0], fit  # no horizontal scroll
    assert fit["header"] <= 56, fit  # the header on one line
    assert fit["count"] > 36 and fit["small"] == [] and fit["gap"] >= 8, fit
    if size[0] > size[1]:  # landscape: the whole dice pad and the decision above the fold
        assert fit["pad"] <= size[1] and fit["decision"] <= size[1], fit
    shot(page, f"table-{size[0]}x{size[1]}-{lang}")
    context.close()
