"""The director's page in a real browser (Debian's chromium driven by Playwright): it follows every table live
within 2 seconds without a reload, so the seating form keeps what was set; calling time asks first."""
import re
import time

import pytest

from referee.services import clocks, folds, games, grants, progress, tournaments
from browser_support import fits
from conftest import finish_seating as seating_decided
from browser_support import armed, shot

LANDSCAPE = {"width": 1024, "height": 768}
LIVE_POLL = re.compile(r"/tournaments/\d+/live\?v=")  # the director's page's live region's poll
PORTRAIT = {"width": 768, "height": 1024}
IPAD = ("Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 "
        "Mobile/15E148 Safari/604.1")
PLAYERS = ["佐藤 葵", "鈴木 蓮", "高橋 陽菜", "田中 湊", "김민수", "이서연", "Jürgen Groß", "Anneliese Weiß", "Chloé Dubois"]
# `live`: the app served on a real port, and the app itself (to record on a table as another tablet would), and
# `browser`: chromium; one of each per test process, shared with the other browser modules (browser_support.py)


def watched(page) -> list[float]:
    """The moments (time.monotonic) ``page``'s live region's polls are sent, from now on."""
    sent: list[float] = []
    page.on("request", lambda r: sent.append(time.monotonic()) if LIVE_POLL.search(r.url) else None)
    return sent


def polls_until(locator, sent: list[float], since: float, timeout_s: float = 15.0) -> int:
    """How many polls the page sent from ``since`` (the change stored) until ``locator`` showed it: the first poll
    sent after the change shows it, or the one after (a poll under way as it was stored may have read the page
    before it).  Counted in polls, one a second, so that a loaded machine's slower answers do not count against
    the page: within 2 seconds is within two polls."""
    locator.wait_for(timeout=timeout_s * 1000)
    return len([t for t in sent if t >= since])


def create_and_seat(page, server, name="Tokyo Open") -> str:
    """A tournament created and its first round seated through the pages; the director page's address."""
    page.goto(server + "/tournaments")
    armed(page)
    page.fill("input[name=name]", name)
    page.fill("textarea[name=players]", "\n".join(PLAYERS))
    page.fill("input[name=pin]", "135791")
    page.click("form[action='/tournaments'] button[type=submit]")
    page.wait_for_selector("#seat-form")
    armed(page)
    page.click("#seat-form button")
    page.wait_for_selector("#round-1")
    armed(page)
    return page.url


def seat_roll(app, game_id: int) -> str:
    """The next seating roll on a table, recorded as its tablet would; who rolled."""
    with app.app_context():
        table = folds.load(game_id)
        who = table.game.state.players[table.game.state.pending.waiting[0]].name
        games.record(game_id, {"type": "seat_roll", "player": who, "dice": [1 + table.seq % 6, 6]}, table.seq)
    return who


def finish_seating(app, game_id: int) -> None:
    with app.app_context():
        seating_decided(game_id)


def round_overview(app, page) -> list:
    """The first round's tables of the tournament whose director page is open."""
    tid = int(page.url.split("#")[0].split("?")[0].rstrip("/").rsplit("/", 1)[1])
    with app.app_context():
        return tournaments.round_overview(tid, 1)


def table_ids(app, page) -> list[int]:
    return [v.game_id for v in round_overview(app, page)]


def unlocked_tablet(browser, server, table):
    """A table's tablet (an iPad, a browser context of its own) given the table's PIN: its table screen."""
    tablet = browser.new_context(viewport=PORTRAIT, user_agent=IPAD).new_page()
    unlock_table(tablet, server, table)
    return tablet


def unlock_table(page, server, table) -> None:
    """The table's PIN given on ``page``: its table screen, armed."""
    page.goto(f"{server}/games/{table.game_id}/unlock")
    armed(page)
    page.fill("input[name=pin]", table.pin)
    page.click(f"form[action='/games/{table.game_id}/unlock'] button[type=submit]")
    page.wait_for_url(f"{server}/games/{table.game_id}")
    armed(page)


def test_the_director_page_follows_an_entry_within_2_seconds_and_keeps_the_seating_form_as_set(live, browser):
    server, app = live
    page = browser.new_page(viewport=LANDSCAPE)
    create_and_seat(page, server)
    assert page.locator("meta[http-equiv=refresh]").count() == 0
    first, _ = table_ids(app, page)
    card = page.locator(f"#table-{first} .pending")
    final = page.locator("#seat-form input[name=stage][value=final]")
    final.check()  # the director is setting up the next round when a table records an entry
    before = card.inner_text()
    sent = watched(page)
    who = seat_roll(app, first)
    recorded = time.monotonic()
    assert who in before
    assert polls_until(page.locator(f"#table-{first} .pending", has_not_text=who), sent, recorded) <= 2
    assert final.is_checked()
    assert page.evaluate("document.activeElement && document.activeElement.value") == "final"
    page.close()


def test_a_clock_started_on_a_table_counts_down_on_the_director_page(live, browser):
    server, app = live
    page = browser.new_page(viewport=LANDSCAPE)
    create_and_seat(page, server, "Clock cup")
    first, second = table_ids(app, page)
    assert page.inner_text(f"#table-{first} .clock") == "not started"
    finish_seating(app, first)
    with app.app_context():
        clocks.set_clock(first, True)
    clock = page.locator(f"#table-{first} .clock[data-running='1']")
    clock.wait_for(timeout=15000)  # (how soon: the tests of following count polls)
    assert clock.get_attribute("data-up") == "time is up"
    # counts down on the screen between the server's answers (the first answer with the clock running may come
    # more than a second after it was started, so it may already show 69:58)
    page.locator(f"#table-{first} .clock", has_text=re.compile(r"^69:5\d$")).wait_for(timeout=3000)
    assert page.inner_text(f"#table-{second} .clock") == "not started"
    page.close()


def clock_started(app, page, game_id: int) -> None:
    """The table's seating roll-off over and its clock started; the director's page showing it run (how soon: the
    tests of following count polls)."""
    finish_seating(app, game_id)
    with app.app_context():
        clocks.set_clock(game_id, True)
    page.locator(f"#table-{game_id} .clock[data-running='1']").wait_for(timeout=15000)


def seconds_shown(page, game_id: int) -> int:
    minutes, seconds = page.inner_text(f"#table-{game_id} .clock").split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_changed_table_comes_alone_and_the_other_cards_and_their_running_clocks_stay_as_they_were(live, browser):
    """A changed poll is answered with the parts that changed alone (each swapped in place): the changed table's
    card is new, the region and the other table's card are the same elements as before, its running clock counts
    down on from where it was, the region's version moves to the answer's and the next change is followed from
    there; the page then shows what it shows loaded afresh."""
    server, app = live
    context = browser.new_context(viewport=LANDSCAPE)
    page = context.new_page()
    create_and_seat(page, server, "Changes cup")
    first, second = table_ids(app, page)
    clock_started(app, page, second)
    page.wait_for_timeout(3000)  # the clock counts down on the page meanwhile, from the seconds it was sent with
    changes: list[str | None] = []
    page.on("response", lambda r: changes.append(r.headers.get("live-version"))
            if LIVE_POLL.search(r.url) and r.status == 200 else None)
    page.evaluate(f"() => {{ for (const id of ['live-rounds', 'table-{second}']) document.getElementById(id).kept = id; }}")
    versions = [page.get_attribute("#live-rounds", "data-version")]
    for _ in range(2):
        seat_roll(app, first)
        page.wait_for_function("v => document.getElementById('live-rounds').dataset.version !== v", arg=versions[-1],
                               timeout=15000)
        versions.append(page.get_attribute("#live-rounds", "data-version"))
    assert changes == versions[1:]  # each change came as changes alone, naming the version it moved the region to
    assert page.evaluate(f"() => ['live-rounds', 'table-{second}'].map((id) => document.getElementById(id).kept)") \
        == ["live-rounds", f"table-{second}"]
    fresh = context.new_page()  # the same device (its cookie: the director's PIN given)
    fresh.goto(page.url)
    for part in (f"#table-{first}", f"#table-{second} .pending", f"#table-{second} .cashlist", "#round-1-foot"):
        assert page.inner_text(part) == fresh.inner_text(part)
    assert abs(seconds_shown(page, second) - seconds_shown(fresh, second)) <= 2
    context.close()


def test_calling_time_opens_a_confirmation_that_names_the_tables_not_started(live, browser):
    server, app = live
    page = browser.new_page(viewport=LANDSCAPE)
    create_and_seat(page, server, "Call cup")
    first, second = table_ids(app, page)
    clock_started(app, page, first)
    armed(page)  # the region was just drawn again: its controls are armed a moment later
    page.click("#call-time-1 summary")
    confirm = page.locator("#call-time-1")
    text = confirm.inner_text()
    assert "Not started:" in text and "Table 2: still in the seating roll: time is not called there" in text
    assert confirm.locator("button", has_text="Confirm: call time on 1 table").is_visible()
    # while the confirmation is open, a table recording an entry does not draw the region again under the finger
    # (the next poll after it closes brings the new one): the confirmation stays open, as it was
    version = page.get_attribute("#live-rounds", "data-version")
    seat_roll(app, second)
    page.wait_for_timeout(2500)  # two polls
    assert page.get_attribute("#live-rounds", "data-version") == version
    assert page.locator("#call-time-1").evaluate("d => d.open")
    armed(page)  # a confirmation is armed a moment after it appears
    page.locator("#call-time-1 button.danger").click()
    page.wait_for_load_state()
    assert "time called on 1 table" in page.inner_text(".flash")
    with app.app_context():
        views = {v.game_id: v for v in tournaments.round_overview(int(page.url.rsplit("/", 1)[1]), 1)}
    assert views[first].time_called and not views[second].time_called
    assert page.inner_text(f"#table-{first} .clock") == "time called"
    page.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["1024x768", "768x1024"])
def test_the_director_page_fits_the_tablet(live, browser, lang, viewport):
    server, app = live
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{server}/lang/{lang}")
    create_and_seat(page, server, f"Fit cup {lang}")
    first, _ = table_ids(app, page)
    finish_seating(app, first)
    with app.app_context():
        clocks.set_clock(first, True)
    # (the page's next polls draw them: how soon is pinned by the tests of following, which count polls; here they
    # only bring the page to the state measured, given the time a loaded machine takes)
    page.locator(f"#table-{first} .clock[data-running='1']").wait_for(timeout=15000)
    tablet = unlocked_tablet(browser, server, round_overview(app, page)[0])  # the page lists it at its table
    page.locator(f"#devices-{first} li").wait_for(timeout=15000)
    tablet.context.close()
    armed(page)  # the region was just drawn again: its controls are armed a moment later
    page.click("#call-time-1 summary")
    fits(page)
    if lang == "ja":
        assert "第1卓" in page.inner_text("#live-rounds") and "未開始" in page.inner_text("#live-rounds")
        assert "第1卓のタブレットをすべてロック" in page.inner_text(f"#devices-{first}")
        assert "Safari · iPad：" in page.inner_text(f"#devices-{first}")
    shot(page, f"director-{viewport['width']}x{viewport['height']}-{lang}")
    context.close()


def test_the_director_picks_a_format_drops_a_player_for_the_alternate_and_the_room_display_follows(live, browser):
    """Issue 15: the director's flow in the browser, at 768 px: a championship chosen on the form (its stages in
    words), a round seated, a player dropped for the first alternate, the room display showing the round."""
    server, app = live
    page = browser.new_page(viewport=PORTRAIT)
    page.goto(server + "/tournaments")
    armed(page)
    page.fill("input[name=name]", "Championship day")
    page.check("input[name=format][value=championship]")
    assert "Final: 1 round; the best 4 of the stage before" in page.inner_text("fieldset.formats")
    page.fill("textarea[name=players]", "\n".join(PLAYERS))
    page.fill("textarea[name=alternates]", "Reserve One\nReserve Two")
    page.fill("input[name=pin]", "135791")
    page.click("form[action='/tournaments'] button[type=submit]")
    page.wait_for_selector("#seat-form")
    assert "Preliminary rounds, round 1 of 3" in page.inner_text("#seat")
    armed(page)
    page.click("#seat-form button")
    page.wait_for_selector("#round-1")
    assert "Preliminary rounds" in page.inner_text("#round-1 h2")
    armed(page)
    page.click("#players summary")
    row = page.locator("#players tr", has_text="Chloé Dubois")
    row.locator("summary", has_text="Drop: Reserve One steps in").click()  # a confirmation: it opens, armed anew
    armed(page)
    row.locator("button", has_text="Yes: drop Chloé Dubois for Reserve One").click()
    page.wait_for_selector(".flash.done")
    assert "Chloé Dubois has dropped; Reserve One steps in for them from round 2" in page.inner_text(".flash.done")
    fits(page)
    shot(page, "director-players-768x1024")
    tid = int(page.url.split("#")[0].split("?")[0].rstrip("/").rsplit("/", 1)[1])
    room = browser.new_page(viewport=LANDSCAPE)
    room.goto(f"{server}/tournaments/{tid}/display")
    assert "Round 1 — Preliminary rounds" in room.inner_text("h1")
    assert room.locator(".table-card").count() == 2
    shot(room, "room-display-1024x768")
    room.close()
    page.close()


def test_the_director_locks_every_tablet_of_a_table_and_its_tablet_is_sent_to_the_pin_screen(live, browser):
    """A table's tablet (an iPad) gives the table's PIN: within 2 seconds the director's page lists it at its table;
    the director taps "Lock every tablet of table 1", and the tablet's live screen goes to its PIN screen, which
    says it is locked; recording there needs the PIN again."""
    server, app = live
    page = browser.new_page(viewport=LANDSCAPE)
    create_and_seat(page, server, "Lock cup")
    first = round_overview(app, page)[0]
    sent = watched(page)
    tablet = unlocked_tablet(browser, server, first)
    unlocked = time.monotonic()
    devices = page.locator(f"#devices-{first.game_id}")
    assert polls_until(devices.locator("li", has_text="Safari · iPad: unlocked at"), sent, unlocked) <= 2
    assert "1 tablet unlocked:" in devices.inner_text()
    armed(page)
    devices.locator("button", has_text="Lock every tablet of table 1").click()
    page.wait_for_selector(".flash.done")
    assert "table 1: 1 tablet locked; it needs the table's PIN again" in page.inner_text(".flash.done")
    assert "no tablet unlocked" in page.inner_text(f"#devices-{first.game_id}")
    tablet.wait_for_url(f"{server}/games/{first.game_id}/unlock", timeout=5000)  # its next live poll
    assert "this tablet is locked (its unlock ended, or it was locked)" in tablet.inner_text("body")
    with app.app_context():
        assert folds.load(first.game_id).seq == 0
    tablet.context.close()
    page.close()


def test_a_locked_tablet_whose_queued_polls_are_all_refused_loads_its_pin_screen_once_with_the_message(live, browser):
    """A tablet is locked while its live poll is slow: the poll queued behind it is refused the same way, 403 with
    the PIN screen to go to.  The tablet loads the PIN screen once, and that screen says it is locked (a message
    shown once: a second load would have lost it)."""
    server, app = live
    with app.app_context():
        tid = tournaments.create_tournament("Queued polls cup", "jma-placement", "jma-2006", PLAYERS, "135791", [60])
        progress.seat_round(tid)
        first = tournaments.round_overview(tid, 1)[0]
    tablet = unlocked_tablet(browser, server, first)
    pin_screens = []
    tablet.on("request", lambda r: pin_screens.append(r.url) if r.is_navigation_request() else None)
    with app.app_context():
        grants.lock_table(tid, first.game_id)
    tablet.evaluate("""() => {  // two polls of the live region at once: the second is queued behind the first
        const region = document.querySelector("#tablelive");
        for (const k of [1, 2]) htmx.ajax("GET", region.getAttribute("hx-get"), {source: region, target: region});
    }""")
    tablet.wait_for_url(f"{server}/games/{first.game_id}/unlock", timeout=5000)
    tablet.wait_for_timeout(1500)  # a second load, were there one, comes within the queued poll's answer
    assert pin_screens == [f"{server}/games/{first.game_id}/unlock"]
    assert "this tablet is locked (its unlock ended, or it was locked)" in tablet.inner_text("body")
    tablet.context.close()
